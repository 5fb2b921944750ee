import { describe, expect, it } from 'vitest';
import { buildKernelModel } from '../../../../src-main/core/kernels/build.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { checkModels } from '../../../helpers/onnx-oracle.js';
import { needOracle } from '../../../helpers/oracle.js';

const onnx = needOracle('onnx');
const io = (op: Parameters<typeof makeKernel>[0], shape: Record<string, number>, weightsAsInputs = false): unknown => {
  const km = buildKernelModel(makeKernel(op, 'fp32', shape), { weightsAsInputs });
  return { inputs: km.inputs.map((i) => [i.name, i.dims]), output: km.output.dims };
};

describe('kernel model inputs and outputs', () => {
  it('feeds activations; weights are initializers unless asked', () => {
    expect(io('MatMul', { B: 1, M: 2, N: 3, K: 4 })).toEqual({ inputs: [['A', [2, 4]]], output: [2, 3] });
    expect(io('MatMul', { B: 1, M: 2, N: 3, K: 4 }, true)).toEqual({
      inputs: [
        ['A', [2, 4]],
        ['W', [4, 3]],
      ],
      output: [2, 3],
    });
    expect(io('MatMul', { B: 5, M: 2, N: 3, K: 4 })).toEqual({
      inputs: [
        ['A', [5, 2, 4]],
        ['B', [5, 4, 3]],
      ],
      output: [5, 2, 3],
    });
    expect(io('Gemm', { M: 2, N: 3, K: 4 }, true)).toEqual({
      inputs: [
        ['A', [2, 4]],
        ['W', [3, 4]],
        ['bias', [3]],
      ],
      output: [2, 3],
    });
    expect(io('Conv', { N: 1, C: 4, H: 9, W: 9, K: 8, R: 3, S: 3, stride: 2, groups: 2 }, true)).toEqual({
      inputs: [
        ['X', [1, 4, 9, 9]],
        ['W', [8, 2, 3, 3]],
      ],
      output: [1, 8, 5, 5],
    });
    expect(io('LayerNormalization', { rows: 2, cols: 3 }, true)).toEqual({ inputs: [['X', [2, 3]]], output: [2, 3] });
    expect(io('Attention', { batch: 1, heads: 2, seq: 3, headDim: 4 })).toEqual({
      inputs: [
        ['Q', [1, 2, 3, 4]],
        ['KT', [1, 2, 4, 3]],
        ['V', [1, 2, 3, 4]],
      ],
      output: [1, 2, 3, 4],
    });
    expect(io('ReduceSum', { rows: 2, cols: 3 })).toEqual({ inputs: [['X', [2, 3]]], output: [2] });
    expect(io('Transpose', { rows: 2, cols: 3 })).toEqual({ inputs: [['X', [2, 3]]], output: [3, 2] });
    expect(io('Add', { n: 7 })).toEqual({
      inputs: [
        ['A', [7]],
        ['B', [7]],
      ],
      output: [7],
    });
    expect(io('Add', { n: 7, scalar: 1 })).toEqual({ inputs: [['A', [7]]], output: [7] });
    expect(io('CopyD2H', { n: 7 })).toEqual({ inputs: [['X', [7]]], output: [7] });
  });

  it('feeds the CNN ops NCHW; Concat gets one input per part; a conv with act has the conv io', () => {
    const conv = { N: 1, C: 4, H: 9, W: 9, K: 8, R: 3, S: 3, stride: 2, groups: 2 };
    expect(io('Conv', { ...conv, act: 1 }, true)).toEqual(io('Conv', conv, true));
    expect(io('MaxPool', { N: 1, C: 2, H: 9, W: 9, R: 3, stride: 2 })).toEqual({
      inputs: [['X', [1, 2, 9, 9]]],
      output: [1, 2, 5, 5],
    });
    expect(io('AveragePool', { N: 2, C: 3, H: 8, W: 6, R: 2, stride: 2 })).toEqual({
      inputs: [['X', [2, 3, 8, 6]]],
      output: [2, 3, 4, 3],
    });
    expect(io('GlobalAveragePool', { N: 1, C: 5, H: 7, W: 7 })).toEqual({
      inputs: [['X', [1, 5, 7, 7]]],
      output: [1, 5, 1, 1],
    });
    expect(io('Concat', { rows: 2, cols: 6, parts: 3 })).toEqual({
      inputs: [
        ['X0', [2, 2]],
        ['X1', [2, 2]],
        ['X2', [2, 2]],
      ],
      output: [2, 6],
    });
    expect(io('Resize', { N: 1, C: 2, H: 3, W: 4, scale: 2 }, true)).toEqual({
      inputs: [['X', [1, 2, 3, 4]]],
      output: [1, 2, 6, 8],
    });
  });

  it('is byte-for-byte reproducible', () => {
    const k = makeKernel('Conv', 'fp16', { N: 1, C: 8, H: 8, W: 8, K: 8, R: 3, S: 3, stride: 1, groups: 1 });
    expect(buildKernelModel(k).model).toEqual(buildKernelModel(k).model);
  });

  it.skipIf(!onnx)('emits the documented graphs (Gelu in erf form, attention, opset-17 reductions, CNN ops)', () => {
    const specs = {
      gelu: makeKernel('Gelu', 'fp16', { n: 8 }),
      attention: makeKernel('Attention', 'fp32', { batch: 1, heads: 2, seq: 3, headDim: 4 }),
      sum: makeKernel('ReduceSum', 'fp32', { rows: 2, cols: 3 }),
      mean: makeKernel('ReduceMean', 'fp32', { rows: 2, cols: 3 }),
      conv: makeKernel('Conv', 'fp32', { N: 1, C: 4, H: 9, W: 9, K: 8, R: 5, S: 5, stride: 2, groups: 2 }),
      cast: makeKernel('Cast', 'fp32', { n: 4 }),
      copy: makeKernel('CopyH2D', 'int64', { n: 4 }),
      convAct: makeKernel('Conv', 'fp32', { N: 1, C: 4, H: 9, W: 9, K: 8, R: 1, S: 1, stride: 1, groups: 1, act: 1 }),
      maxPool: makeKernel('MaxPool', 'fp32', { N: 1, C: 2, H: 9, W: 9, R: 3, stride: 2 }),
      avgPool: makeKernel('AveragePool', 'fp16', { N: 1, C: 2, H: 8, W: 8, R: 2, stride: 2 }),
      gap: makeKernel('GlobalAveragePool', 'fp32', { N: 1, C: 2, H: 3, W: 3 }),
      concat: makeKernel('Concat', 'fp16', { rows: 2, cols: 6, parts: 3 }),
      resize: makeKernel('Resize', 'fp16', { N: 1, C: 2, H: 3, W: 3, scale: 2 }),
    };
    const r = checkModels(Object.entries(specs).map(([name, k]) => ({ name, bytes: buildKernelModel(k).model })));
    const nodes = (name: string): unknown => r.get(name)?.model?.nodes.map((n) => [n.opType, n.attributes]);
    expect(nodes('gelu')).toEqual([
      ['Div', {}],
      ['Erf', {}],
      ['Add', {}],
      ['Mul', {}],
      ['Mul', {}],
    ]);
    expect(r.get('gelu')?.model?.initializers.map((t) => [t.name, t.dataType, t.dims])).toEqual([
      ['sqrt2', 10, []],
      ['one', 10, []],
      ['half', 10, []],
    ]);
    expect(r.get('gelu')?.model?.initializers[0]?.first[0]).toBeCloseTo(Math.SQRT2, 3);
    expect(nodes('attention')).toEqual([
      ['MatMul', {}],
      ['Mul', {}],
      ['Softmax', { axis: -1 }],
      ['MatMul', {}],
    ]);
    expect(r.get('attention')?.model?.initializers[0]?.first[0]).toBeCloseTo(0.5, 6);
    expect(nodes('sum')).toEqual([['ReduceSum', { keepdims: 0 }]]);
    expect(r.get('sum')?.model?.initializers).toEqual([{ name: 'axes', dataType: 7, dims: [1], first: [-1] }]);
    expect(nodes('mean')).toEqual([['ReduceMean', { axes: [-1], keepdims: 0 }]]);
    expect(nodes('conv')).toEqual([
      ['Conv', { kernel_shape: [5, 5], strides: [2, 2], pads: [2, 2, 2, 2], dilations: [1, 1], group: 2 }],
    ]);
    expect(nodes('cast')).toEqual([['Cast', { to: 10 }]]);
    expect(nodes('copy')).toEqual([['Identity', {}]]);
    expect(nodes('convAct')).toEqual([
      ['Conv', { kernel_shape: [1, 1], strides: [1, 1], pads: [0, 0, 0, 0], dilations: [1, 1], group: 1 }],
      ['Relu', {}],
    ]);
    expect(r.get('convAct')?.model?.nodes.map((n) => [n.inputs, n.outputs])).toEqual([
      [['X', 'W'], ['conv']],
      [['conv'], ['Y']],
    ]);
    expect(nodes('maxPool')).toEqual([['MaxPool', { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }]]);
    expect(nodes('avgPool')).toEqual([['AveragePool', { kernel_shape: [2, 2], strides: [2, 2], pads: [0, 0, 0, 0] }]]);
    expect(nodes('gap')).toEqual([['GlobalAveragePool', {}]]);
    expect(nodes('concat')).toEqual([['Concat', { axis: 1 }]]);
    expect(nodes('resize')).toEqual([
      ['Resize', { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' }],
    ]);
    expect(r.get('resize')?.model?.nodes[0]?.inputs).toEqual(['X', '', 'scales']);
    expect(r.get('resize')?.model?.initializers).toEqual([
      { name: 'scales', dataType: 1, dims: [4], first: [1, 1, 2, 2] },
    ]);
  });
});
