import { describe, expect, it } from 'vitest';
import { buildKernelModel, ONNX_DTYPE } from '../../../../src-main/core/kernels/build.js';
import { suiteKernels } from '../../../../src-main/core/kernels/suites.js';
import { checkModels } from '../../../helpers/onnx-oracle.js';
import { needOracle, oracleMissing } from '../../../helpers/oracle.js';

const onnx = needOracle('onnx');

describe.skipIf(!onnx)(`official ONNX checker (full_check)${onnx ? '' : `: skipped, ${oracleMissing('onnx')}`}`, () => {
  it(
    'passes every kernel of the standard suite (fp32, fp16, integers; bf16 of quick) as the parser reads it back',
    { timeout: 300_000 },
    () => {
      // bf16 graphs are the fp16 ones with another elem_type: quick covers them, and saves ~0.5 GiB of models.
      const kernels = [
        ...suiteKernels('standard', { dtypes: ['fp32', 'fp16', 'int8', 'int32', 'int64'] }),
        ...suiteKernels('quick', { dtypes: ['bf16'] }),
      ];
      const built = new Map(kernels.map((k) => [k.id, buildKernelModel(k)]));
      expect(kernels.filter((k) => k.dtype === 'fp16').length).toBeGreaterThan(200);
      const results = checkModels(
        kernels.map((k) => ({ name: k.id, bytes: built.get(k.id)?.model ?? new Uint8Array() })),
      );
      const failures = [...results].filter(([, r]) => r.error !== null).map(([id, r]) => `${id}: ${r.error}`);
      expect(failures).toEqual([]);
      for (const k of kernels) {
        const km = built.get(k.id);
        const m = results.get(k.id)?.model;
        expect(m?.graphName).toBe(k.id);
        expect(m?.inputs).toEqual(
          km?.inputs.map((i) => ({ name: i.name, elemType: ONNX_DTYPE[i.dtype], dims: i.dims })),
        );
        expect(m?.outputs).toEqual([
          { name: km?.outputName, elemType: ONNX_DTYPE[km?.output.dtype ?? 'fp32'], dims: km?.output.dims },
        ]);
      }
    },
  );

  it('passes the quick suite built with weights as inputs', { timeout: 120_000 }, () => {
    const kernels = suiteKernels('quick', { dtypes: ['fp32', 'fp16'] });
    const results = checkModels(
      kernels.map((k) => ({ name: k.id, bytes: buildKernelModel(k, { weightsAsInputs: true }).model })),
    );
    expect([...results].filter(([, r]) => r.error !== null).map(([id, r]) => `${id}: ${r.error}`)).toEqual([]);
    const mm = results.get('MatMul.fp32.B=1,K=64,M=64,N=64');
    expect(mm?.model?.inputs.map((i) => i.name)).toEqual(['A', 'W']);
    expect(mm?.model?.initializers).toEqual([]);
  });

  it('keeps weights as initializers by default, with the documented contents', () => {
    const [gemm] = suiteKernels('quick', { dtypes: ['fp32'] }).filter((k) => k.op === 'Gemm');
    const ln = suiteKernels('quick', { dtypes: ['fp16'] }).find((k) => k.op === 'LayerNormalization');
    if (!gemm || !ln) throw new Error('quick lacks Gemm or LayerNormalization');
    const r = checkModels([
      { name: 'gemm', bytes: buildKernelModel(gemm).model },
      { name: 'ln', bytes: buildKernelModel(ln).model },
    ]);
    const g = r.get('gemm')?.model;
    expect(g?.inputs.map((i) => i.name)).toEqual(['A']);
    expect(g?.initializers.map((t) => [t.name, t.dims])).toEqual([
      ['W', [gemm.shape.N, gemm.shape.K]],
      ['bias', [gemm.shape.N]],
    ]);
    expect(g?.nodes[0]?.attributes).toEqual({ transB: 1 });
    const l = r.get('ln')?.model;
    expect(l?.initializers.map((t) => [t.name, t.dataType, t.first])).toEqual([
      ['scale', 10, [1, 1, 1, 1]],
      ['bias', 10, [0, 0, 0, 0]],
    ]);
  });
});
