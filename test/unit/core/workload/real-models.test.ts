/**
 * Published models (test/fixtures/onnx, see SOURCE.md there): they import, and every shape
 * inferred agrees with what ONNX Runtime computes when it runs them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../src-main/core/errors.js';
import { parseOnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { workloadFromOnnx } from '../../../../src-main/core/workload/from-onnx.js';
import { inferShapes } from '../../../../src-main/core/workload/shape-inference.js';
import { inlineBranches } from '../../../../src-main/core/workload/inline-branches.js';
import { compareShapes, exposeAllOutputs, oracleShapes } from '../../../helpers/onnx-shape-oracle.js';
import { ortShapes } from '../../../helpers/onnx-shape-oracle-ort.js';
import { needOracle } from '../../../helpers/oracle.js';

const onnx = needOracle('onnx');
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(`test/fixtures/onnx/${name}`));

describe('PaddleOCR text-direction classifier (CNN, paddle2onnx, opset 9)', () => {
  const bytes = fixture('paddleocr-cls-mobile-v2.onnx');
  const inputs = { x: [1, 3, 48, 192] };

  it('imports with its dynamic input dims given', () => {
    const w = workloadFromOnnx(bytes, { name: 'cls', inputs });
    expect(w.warnings).toEqual([]);
    expect(w.nodes).toHaveLength(471);
    const families = new Map<string, number>();
    for (const n of w.nodes) families.set(n.family ?? 'none', (families.get(n.family ?? 'none') ?? 0) + 1);
    expect(families.get('conv')).toBe(53);
    expect(families.get('gemm')).toBe(1);
    expect(w.nodes.filter((n) => n.family === null).every((n) => n.bytes === 0)).toBe(true);
    expect(w.layers.length).toBeGreaterThan(10);
    expect(w.nodes.at(-1)?.outputs[0]?.dims).toEqual([1, 2]);
  });

  it('names the dynamic dim it needs bound', () => {
    expect(() => workloadFromOnnx(bytes, { name: 'cls' })).toThrow(UserError);
    expect(() => workloadFromOnnx(bytes, { name: 'cls' })).toThrow(
      /^input "x" \(dims Nx3xNxN\) has 3 unbound symbolic dims: bind them with --dim p2o\.DynamicDimension\.0=VALUE --dim p2o\.DynamicDimension\.1=VALUE --dim p2o\.DynamicDimension\.2=VALUE,/,
    );
  });

  it.skipIf(!onnx)('agrees with ONNX Runtime and onnx on every tensor', async () => {
    const r = inferShapes(parseOnnxModel(bytes), { inputs });
    const ours = (n: string): number[] | null | undefined => r.tensors.get(n)?.dims;
    const run = await ortShapes(exposeAllOutputs(bytes), inputs);
    const ort = compareShapes(run.shapes, ours);
    expect(ort.mismatches).toEqual([]);
    expect(ort.checked).toBeGreaterThan(200);
    const onnx = compareShapes(oracleShapes(bytes, inputs), ours);
    expect(onnx.mismatches).toEqual([]);
  });
});

describe('Silero VAD v5 (PyTorch, opset 15: conv front end, LSTM decoder inside If branches)', () => {
  const bytes = fixture('silero-vad-16k-op15.onnx');
  const dims = { batch: 1, sequence: 512 };

  it('imports with the If branches that run inlined: the LSTM is costed, every conv priced', () => {
    const w = workloadFromOnnx(bytes, { name: 'vad', dims });
    expect(w.bindings).toEqual(dims);
    expect(w.warnings).toEqual([]);
    // Every If's condition is a shape test; the state's batch of 1 takes the decoder's "rnn" branch.
    const lstm = w.nodes.filter((n) => n.opType === 'LSTM');
    expect(lstm).toMatchObject([{ name: '/model/decoder/rnn/LSTM', family: 'gemm', branchOf: '/model/decoder/If_1' }]);
    const ifs = w.nodes.filter((n) => n.opType === 'If');
    expect(ifs.map((n) => n.name)).toEqual([
      '/model/decoder/If',
      '/model/decoder/If_1',
      '/model/decoder/rnn/If',
      '/model/decoder/rnn/If_1',
      '/model/decoder/rnn/If_4',
      '/model/If',
    ]);
    expect(ifs.every((n) => n.family === null && n.bytes === 0 && n.outputs.length === 0)).toBe(true);
    expect(w.nodes.filter((n) => n.opType === 'Conv')).toHaveLength(6);
    expect(w.nodes.filter((n) => n.family === 'conv')).toHaveLength(6);
  });

  it.skipIf(!onnx)('agrees with ONNX Runtime on every tensor whose shape it infers', async () => {
    // With the branches inlined, the If outputs (which the branches write) are inferred too.
    const r = inferShapes(inlineBranches(parseOnnxModel(bytes), { dims }), { dims });
    const known = new Map<string, number[]>();
    for (const [name, t] of r.tensors) if (t.dims) known.set(name, t.dims);
    const run = await ortShapes(
      exposeAllOutputs(bytes),
      { input: [1, 512], state: [2, 1, 128], sr: [] },
      { sr: 16000 },
    );
    const onlyKnown = new Map([...run.shapes].filter(([name]) => known.has(name)));
    const { checked, mismatches } = compareShapes(onlyKnown, (n) => known.get(n));
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(90);
    for (const ifOutput of ['/model/decoder/If_1_output_0', '/model/If_output_0'])
      expect(known.has(ifOutput)).toBe(true);
  });
});
