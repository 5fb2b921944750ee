import { describe, expect, it } from 'vitest';
import { kernelBytes, kernelFlops } from '../../../../src-main/core/kernels/cost.js';
import type { KernelOp } from '../../../../src-main/core/kernels/types.js';
import { attr, encodeModel } from '../../../../src-main/core/onnx/model-builder.js';
import { parseOnnxModel, type OnnxNode } from '../../../../src-main/core/onnx/onnx-parser.js';
import { importOnnxModel } from '../../../../src-main/core/workload/from-onnx.js';
import { nodeCost, type NodeCost } from '../../../../src-main/core/workload/node-cost.js';
import type { InferredTensor } from '../../../../src-main/core/workload/shape-inference.js';
import { cnnModel, D, HEADS, input, node, recurrentModel, transformerModel } from './sample-models.js';

const F = 1;
const t = (dims: number[], dtype = F): InferredTensor => ({ dims, dtype });

/** A node of `op` with the given attributes (parsed back, as the importer sees it). */
function onnxNode(op: string, inputs: number, attrs: Parameters<typeof node>[3] = [], domain = ''): OnnxNode {
  const names = Array.from({ length: inputs }, (_, i) => `i${i}`);
  const bytes = encodeModel({
    opsetImports: [{ domain: '', version: 17 }, ...(domain ? [{ domain, version: 1 }] : [])],
    graph: {
      name: 'g',
      inputs: names.map((n) => input(n, [1])),
      outputs: [input('o', [1])],
      nodes: [{ ...node(op, names, ['o'], attrs), domain }],
    },
  });
  const n = parseOnnxModel(bytes).graph.nodes[0];
  if (!n) throw new Error('no node');
  return n;
}

const cost = (n: OnnxNode, ins: InferredTensor[], outs: InferredTensor[]): NodeCost => nodeCost(n, 17, ins, outs);

function byName(bytes: Uint8Array, dims: Record<string, number>): Map<string, NodeCost & { params: number }> {
  const r = importOnnxModel(parseOnnxModel(bytes), { name: 'm', dims });
  return new Map(r.workload.nodes.map((n, i) => [n.name, { ...(r.costs[i] as NodeCost), params: n.params }]));
}

describe('node costs by hand', () => {
  it('CNN: Conv, BatchNorm, Relu, MaxPool, grouped strided Conv, GlobalAveragePool, Gemm, Softmax', () => {
    const c = byName(cnnModel(), { N: 2 });
    expect(c.get('c1')).toMatchObject({
      kind: 'kernel',
      family: 'conv',
      kernel: { op: 'Conv', shape: { N: 2, C: 3, H: 32, W: 32, K: 8, R: 3, S: 3, stride: 1, groups: 1 } },
      flops: 2 * 2 * 8 * 32 * 32 * 3 * 3 * 3,
      bytes: (2 * 3 * 32 * 32 + 8 * 3 * 3 * 3 + 8 + 2 * 8 * 32 * 32) * 4,
      activationBytes: 2 * 8 * 32 * 32 * 4,
      params: 8 * 27 + 8,
      dtype: 'fp32',
    });
    // Inference BatchNormalization: a per-channel affine pass, priced as the scalar Mul kernel.
    expect(c.get('b1')).toMatchObject({
      family: 'elementwise',
      kernel: { op: 'Mul', shape: { n: 16384, scalar: 1 } },
      flops: 2 * 16384,
      params: 4 * 8,
    });
    expect(c.get('r1')).toMatchObject({
      family: 'elementwise',
      kernel: { op: 'Relu', shape: { n: 16384 } },
      flops: 16384,
    });
    expect(c.get('p1')).toMatchObject({
      family: 'reduction',
      kernel: { op: 'MaxPool', shape: { N: 2, C: 8, H: 32, W: 32, R: 2, stride: 2 } },
      flops: 2 * 8 * 16 * 16 * 4,
      bytes: (2 * 8 * 32 * 32 + 2 * 8 * 16 * 16) * 4,
    });
    expect(c.get('c2')).toMatchObject({
      kernel: { op: 'Conv', shape: { N: 2, C: 8, H: 16, W: 16, K: 16, R: 3, S: 3, stride: 2, groups: 2 } },
      flops: 2 * 2 * 16 * 8 * 8 * (8 / 2) * 3 * 3,
    });
    expect(c.get('gap')).toMatchObject({
      family: 'reduction',
      kernel: { op: 'GlobalAveragePool', shape: { N: 2, C: 16, H: 8, W: 8 } },
      flops: 2 * 16 * 64,
    });
    expect(c.get('flat')).toMatchObject({ kind: 'free', family: null, kernel: null, flops: 0, bytes: 0 });
    expect(c.get('logits')).toMatchObject({
      family: 'gemm',
      kernel: { op: 'Gemm', shape: { M: 2, N: 10, K: 16 } },
      flops: 2 * 2 * 10 * 16,
      bytes: (2 * 16 + 10 * 16 + 10 + 2 * 10) * 4,
      params: 170,
    });
    expect(c.get('probs')).toMatchObject({
      family: 'softmax',
      kernel: { op: 'Softmax', shape: { rows: 2, cols: 10 } },
      flops: 5 * 20,
    });
  });

  it('transformer: weight MatMuls fold batch into M, attention MatMuls into B; LayerNorm; shape nodes are free', () => {
    const c = byName(transformerModel(1), { batch: 2, seq: 7 });
    expect(c.get('l0.q.mm')).toMatchObject({
      kernel: { op: 'MatMul', shape: { B: 1, M: 14, N: D, K: D } },
      flops: 2 * 14 * D * D,
      params: D * D,
    });
    expect(c.get('l0.scores')).toMatchObject({
      kernel: { op: 'MatMul', shape: { B: 2 * HEADS, M: 7, N: 7, K: D / HEADS } },
      flops: 2 * 2 * HEADS * 7 * 7 * (D / HEADS),
      bytes: (2 * 2 * HEADS * 7 * (D / HEADS) + 2 * HEADS * 7 * 7) * 4,
      params: 0,
    });
    expect(c.get('l0.probs')).toMatchObject({ kernel: { op: 'Softmax', shape: { rows: 2 * HEADS * 7, cols: 7 } } });
    expect(c.get('l0.ln1')).toMatchObject({
      kernel: { op: 'LayerNormalization', shape: { rows: 14, cols: D } },
      flops: 8 * 14 * D,
      params: 2 * D,
    });
    expect(c.get('l0.g.erf')).toMatchObject({ kernel: { op: 'Erf', shape: { n: 14 * 128 } }, flops: 4 * 14 * 128 });
    expect(c.get('l0.q.lin')).toMatchObject({ kernel: { op: 'Add', shape: { n: 14 * D } }, flops: 14 * D });
    expect(c.get('l0.q.t')).toMatchObject({
      family: 'datamove',
      kernel: { op: 'Transpose', shape: { rows: 56, cols: 16 } },
    });
    expect(c.get('mask.f')).toMatchObject({ family: 'datamove', kernel: { op: 'Cast', shape: { n: 14 } }, flops: 0 });
    for (const free of ['l0.shape', 'l0.batch', 'l0.batch1', 'l0.split_shape', 'l0.q.heads', 'y']) {
      expect(c.get(free), free).toMatchObject({ kind: 'free', flops: 0, bytes: 0 });
    }
  });

  it('LSTM and GRU: the recurrent kernel of one direction (a bidirectional layer as twice the steps); RNN: its gate GEMMs', () => {
    const c = byName(recurrentModel(), { seq: 5, batch: 3 });
    // LSTM: 2 directions x 5 steps, batch 3, 4 gates x 32 hidden, input 16 + hidden 32.
    const lstm = { seq: 10, batch: 3, input: 16, hidden: 32 };
    expect(c.get('lstm')).toMatchObject({
      family: 'gemm',
      kernel: { op: 'LSTM', shape: lstm },
      flops: 2 * 10 * 3 * 128 * 48 + 10 * 3 * 32 * (6 * 4 + 8),
      params: 2 * 128 * 16 + 2 * 128 * 32 + 2 * 256,
    });
    // The node has the features of its kernel: the same FLOPs and bytes.
    expect(c.get('lstm')?.flops).toBe(kernelFlops('LSTM', lstm));
    expect(c.get('lstm')?.bytes).toBe(kernelBytes('LSTM', 'fp32', lstm));
    // X [10 steps x 3 x 16], Y [10 x 3 x 32], W and R (4 x 32 rows of 16 + 32), two biases, h in and out.
    expect(kernelBytes('LSTM', 'fp32', lstm)).toBe(4 * (10 * 3 * 48 + 128 * 50 + 2 * 3 * 32));
    const gru = { seq: 5, batch: 3, input: 64, hidden: 8 };
    expect(c.get('gru')).toMatchObject({
      kernel: { op: 'GRU', shape: gru },
      flops: 2 * 5 * 3 * 24 * 72 + 5 * 3 * 8 * (6 * 3 + 4),
    });
    expect(c.get('gru')?.flops).toBe(kernelFlops('GRU', gru));
    expect(c.get('rnn')).toMatchObject({
      kernel: { op: 'MatMul', shape: { B: 5, M: 3, N: 4, K: 12 } },
      flops: 2 * 5 * 3 * 4 * 12 + 5 * 3 * 4 * 6,
    });
  });
});

describe('node costs of single ops', () => {
  it('3-D Conv runs as N*Do 2-D convs over C*kd channels, with the same FLOPs', () => {
    const n = onnxNode('Conv', 2, [attr.ints('strides', [1, 2, 2])]);
    const c = cost(n, [t([1, 4, 8, 16, 16]), t([6, 4, 3, 3, 3])], [t([1, 6, 6, 7, 7])]);
    expect(c.kernel).toEqual({
      op: 'Conv',
      shape: { N: 6, C: 12, H: 16, W: 16, K: 6, R: 3, S: 3, stride: 1, groups: 1 },
    });
    expect(c.flops).toBe(2 * 1 * 6 * 6 * 7 * 7 * 4 * 27);
  });

  it('1-D Conv is the 1-D kernel (d1, W = S = 1), marked valid when its output says it is unpadded', () => {
    const c = cost(onnxNode('Conv', 2), [t([2, 8, 100]), t([16, 8, 5])], [t([2, 16, 96])]);
    const shape = { N: 2, C: 8, H: 100, W: 1, K: 16, R: 5, S: 1, stride: 1, groups: 1, d1: 1 };
    expect(c.kernel?.shape).toEqual({ ...shape, valid: 1 });
    expect(c.flops).toBe(2 * 2 * 16 * 96 * 8 * 5);
    expect(kernelFlops('Conv', { ...shape, valid: 1 })).toBe(c.flops);
    const padded = cost(onnxNode('Conv', 2), [t([2, 8, 100]), t([16, 8, 5])], [t([2, 16, 100])]);
    expect(padded.kernel?.shape).toEqual(shape);
    expect(padded.flops).toBe(kernelFlops('Conv', shape));
  });

  it('elementwise ops with kernels of their own are priced as them, with the FLOPs their kernels count', () => {
    const x = t([1, 88, 3, 96]);
    const scalar = t([]);
    const own: [string, number, KernelOp][] = [
      ['Div', 2, 'Div'],
      ['Reciprocal', 1, 'Div'],
      ['Clip', 3, 'Clip'],
      ['Pow', 2, 'Pow'],
      ['Sqrt', 1, 'Sqrt'],
      ['Erf', 1, 'Erf'],
      ['HardSwish', 1, 'HardSwish'],
      ['LeakyRelu', 1, 'LeakyRelu'],
      ['Softplus', 1, 'Softplus'],
      ['Sub', 2, 'Add'],
      ['Max', 2, 'Add'],
      ['Neg', 1, 'Relu'],
      ['Sin', 1, 'Sigmoid'],
    ];
    for (const [op, inputs, kernel] of own) {
      const ins = [x, ...Array.from({ length: inputs - 1 }, () => scalar)];
      const c = cost(onnxNode(op, inputs), ins, [x]);
      // Sub with a scalar operand gets Add's scalar kernel (next test); Max keeps the full one.
      const shape = op === 'Sub' ? { n: 25_344, scalar: 1 } : { n: 25_344 };
      expect(c.kernel, op).toEqual({ op: kernel, shape });
      if (kernel === op) expect(c.flops, op).toBe(kernelFlops(kernel, { n: 25_344 }));
    }
  });

  it('Add, Sub or Mul with a one-element operand is the scalar kernel, with its bytes', () => {
    const x = t([1, 16, 14, 14]);
    const n = 16 * 14 * 14;
    const scalarAdd = cost(onnxNode('Add', 2), [x, t([])], [x]);
    expect(scalarAdd.kernel).toEqual({ op: 'Add', shape: { n, scalar: 1 } });
    expect(scalarAdd.bytes).toBe(kernelBytes('Add', 'fp32', { n, scalar: 1 }));
    // Either side, any rank of one element.
    expect(cost(onnxNode('Mul', 2), [t([1, 1, 1, 1]), x], [x]).kernel).toEqual({ op: 'Mul', shape: { n, scalar: 1 } });
    // Full and per-channel operands keep the two-stream kernel; Div keeps its own.
    expect(cost(onnxNode('Add', 2), [x, x], [x]).kernel).toEqual({ op: 'Add', shape: { n } });
    expect(cost(onnxNode('Mul', 2), [x, t([1, 16, 1, 1])], [x]).kernel).toEqual({ op: 'Mul', shape: { n } });
    expect(cost(onnxNode('Div', 2), [x, t([])], [x]).kernel).toEqual({ op: 'Div', shape: { n } });
    // Max and Min run another broadcast loop than Add's: priced as the two-stream Add.
    expect(cost(onnxNode('Max', 2), [x, t([])], [x]).kernel).toEqual({ op: 'Add', shape: { n } });
  });

  it('BatchNormalization is the scalar Mul kernel at inference, a normalization in training mode', () => {
    const x = t([1, 24, 20, 20]);
    const c = t([24]);
    const n = 24 * 20 * 20;
    const inference = cost(onnxNode('BatchNormalization', 5), [x, c, c, c, c], [x]);
    expect(inference).toMatchObject({
      family: 'elementwise',
      kernel: { op: 'Mul', shape: { n, scalar: 1 } },
      flops: 2 * n,
    });
    const training = cost(onnxNode('BatchNormalization', 5, [attr.int('training_mode', 1)]), [x, c, c, c, c], [x]);
    expect(training).toMatchObject({
      family: 'layernorm',
      kernel: { op: 'LayerNormalization', shape: { rows: 24, cols: 400 } },
    });
  });

  it('a node on the two-stream Add or Mul kernel moves what the kernel moves, whatever it broadcasts', () => {
    const x = t([1, 16, 14, 14]);
    const n = 16 * 14 * 14;
    const full = kernelBytes('Add', 'fp32', { n });
    expect(cost(onnxNode('Mul', 2), [x, t([1, 16, 1, 1])], [x]).bytes).toBe(full);
    expect(cost(onnxNode('Max', 2), [x, t([])], [x]).bytes).toBe(full);
    expect(cost(onnxNode('Add', 2), [x, x], [x]).bytes).toBe(full);
    // Other kernels keep the node's own bytes: x / c reads x once.
    expect(cost(onnxNode('Div', 2), [x, t([])], [x]).bytes).toBe((2 * n + 1) * 4);
  });

  it('ConvTranspose is the transposed-conv kernel, with the FLOPs that kernel counts', () => {
    const n = onnxNode('ConvTranspose', 2, [attr.ints('strides', [2, 2]), attr.ints('pads', [1, 1, 1, 1])]);
    const c = cost(n, [t([1, 8, 10, 10]), t([8, 4, 3, 3])], [t([1, 4, 19, 19])]);
    const shape = { N: 1, C: 8, H: 10, W: 10, K: 4, R: 3, S: 3, stride: 2, groups: 1, transpose: 1 };
    expect(c.kernel?.shape).toEqual(shape);
    expect(c.flops).toBe(2 * 1 * 8 * 100 * 4 * 9);
    expect(kernelFlops('Conv', shape)).toBe(c.flops);
    const n1 = onnxNode('ConvTranspose', 2, [attr.ints('strides', [8]), attr.int('group', 2)]);
    const c1 = cost(n1, [t([1, 16, 32]), t([16, 4, 16])], [t([1, 8, 264])]);
    expect(c1.kernel?.shape).toEqual({
      N: 1,
      C: 16,
      H: 32,
      W: 1,
      K: 8,
      R: 16,
      S: 1,
      stride: 8,
      groups: 2,
      d1: 1,
      transpose: 1,
    });
    expect(c1.flops).toBe(kernelFlops('Conv', c1.kernel?.shape ?? {}));
  });

  it('MatMul with a 1-D operand and with broadcast batch dims', () => {
    expect(cost(onnxNode('MatMul', 2), [t([5, 7, 16]), t([16])], [t([5, 7])])).toMatchObject({
      kernel: { shape: { B: 1, M: 35, N: 1, K: 16 } },
      flops: 2 * 35 * 16,
    });
    expect(cost(onnxNode('MatMul', 2), [t([3, 1, 2, 5]), t([4, 5, 6])], [t([3, 4, 2, 6])])).toMatchObject({
      kernel: { shape: { B: 12, M: 2, N: 6, K: 5 } },
      flops: 2 * 12 * 2 * 6 * 5,
    });
  });

  it('Einsum as a batched GEMM; AveragePool; Resize; Slice reads only what it writes', () => {
    const e = onnxNode('Einsum', 2, [attr.string('equation', 'bhqd,bhkd->bhqk')]);
    expect(cost(e, [t([2, 4, 7, 16]), t([2, 4, 9, 16])], [t([2, 4, 7, 9])])).toMatchObject({
      family: 'gemm',
      kernel: { op: 'MatMul', shape: { B: 8, M: 7, N: 9, K: 16 } },
      flops: 2 * 8 * 7 * 9 * 16,
    });
    const ap = onnxNode('AveragePool', 1, [attr.ints('kernel_shape', [3, 3])]);
    expect(cost(ap, [t([1, 2, 10, 10])], [t([1, 2, 8, 8])])).toMatchObject({
      kernel: { op: 'AveragePool', shape: { N: 1, C: 2, H: 10, W: 10, R: 3, stride: 1 } },
      flops: 128 * 9,
    });
    const rs = onnxNode('Resize', 3, [attr.string('mode', 'linear')]);
    expect(cost(rs, [t([1, 2, 4, 4]), t([0]), t([4])], [t([1, 2, 8, 8])])).toMatchObject({
      family: 'datamove',
      kernel: { op: 'Resize', shape: { N: 1, C: 2, H: 4, W: 4, scale: 2 } },
      flops: 4 * 128,
      bytes: (32 + 128) * 4,
    });
    const sl = onnxNode('Slice', 3);
    expect(cost(sl, [t([100, 100]), t([1], 7), t([1], 7)], [t([10, 100])])).toMatchObject({
      family: 'datamove',
      kernel: { op: 'Transpose', shape: { rows: 10, cols: 100 } },
      bytes: 2 * 1000 * 4,
    });
  });

  it('com.microsoft Attention: scores, softmax and its QKV projection', () => {
    const n = onnxNode('Attention', 3, [attr.int('num_heads', 2)], 'com.microsoft');
    const c = cost(n, [t([2, 5, 16]), t([16, 48]), t([48])], [t([2, 5, 16])]);
    const scores = 2 * 2 * 5 * 5;
    expect(c).toMatchObject({
      family: 'attention',
      kernel: { op: 'Attention', shape: { batch: 2, heads: 2, seq: 5, headDim: 8 } },
      flops: 4 * scores * 8 + 5 * scores + 2 * 2 * 5 * 16 * 48,
    });
  });

  it('free, folded and fallback nodes', () => {
    expect(cost(onnxNode('Reshape', 2), [t([2, 3]), t([1], 7)], [t([6])])).toMatchObject({ kind: 'free', bytes: 0 });
    const folded = cost(onnxNode('Cast', 1), [{ ...t([4]), constant: true }], [{ ...t([4]), constant: true }]);
    expect(folded).toMatchObject({ kind: 'free', bytes: 0, flops: 0 });
    const custom = onnxNode('Magic', 1, [], 'my.ops');
    expect(cost(custom, [t([10])], [t([10])])).toMatchObject({
      kind: 'fallback',
      family: null,
      kernel: null,
      bytes: 80,
      reason: 'no predictor family',
    });
    expect(cost(onnxNode('Relu', 1), [{ dims: null, dtype: F }], [{ dims: null, dtype: F }])).toMatchObject({
      kind: 'fallback',
      bytes: 1,
      reason: 'shapes unknown',
    });
    expect(cost(onnxNode('Relu', 1), [t([0, 4])], [t([0, 4])])).toMatchObject({ kind: 'free' });
  });
});
