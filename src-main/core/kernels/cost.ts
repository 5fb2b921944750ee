/**
 * FLOPs and bytes of a kernel, and the constructor that validates a kernel and names it. Pure.
 *
 * FLOPs conventions (one multiply-add = 2 FLOPs; what the kernel must compute, not what a
 * library happens to execute):
 *   GEMM (MatMul, Gemm)   2*B*M*N*K (Gemm: B = 1; its bias add is not counted)
 *   Conv                  2*N*K*Ho*Wo*(C/groups)*R*S, Ho = floor((H + 2*floor(R/2) - R)/stride) + 1
 *                         (pads 0 when valid = 1; a 1-D conv (d1 = 1) has W = S = Wo = 1);
 *                         act = 1 adds the fused Relu, 1 per output element (N*K*Ho*Wo);
 *                         transpose = 1 (ConvTranspose, pads 0): 2*N*C*H*W*(K/groups)*R*S,
 *                         Ho = (H - 1)*stride + R
 *   Add, Mul, Relu        1 per output element
 *   Sigmoid               4 per element;  Gelu ~8 per element
 *   Div, Clip, Sqrt, LeakyRelu  1 per element; HardSigmoid 3; Pow, Exp, Log, Tanh, Erf,
 *                         HardSwish, Softplus 4 (as workload/node-cost-ops.ts ELEMENTWISE_FLOPS,
 *                         so a node and its kernel have the same features; flops-tables.test.ts
 *                         holds every elementwise op to the same figure in both)
 *   ReduceSum/Mean        1 per input element
 *   MaxPool, AveragePool  1 per window element of each output: N*C*Ho*Wo*R*R, with a square
 *                         R x R window, the same stride on both axes and floor((R-1)/2) padding on
 *                         every side: Ho = floor((H + 2*floor((R-1)/2) - R)/stride) + 1 (3x3/2
 *                         pads 1 and halves 112 to 56, as ResNet's; 2x2/2 pads 0, as VGG's)
 *   GlobalAveragePool     1 per input element
 *   Softmax               5 per element (max, subtract, exp, sum, divide)
 *   LayerNormalization    8 per element;  SkipLayerNormalization 9 (the residual add, then 8)
 *   Attention             4*batch*heads*seq*seq*headDim (two GEMMs) + 5*batch*heads*seq*seq (softmax)
 *   Transpose, Concat, Resize (nearest), Cast, copies, NCHWc reorders  0
 *   LSTM, GRU             the gate GEMMs of every step, 2*seq*batch*gates*hidden*(input+hidden)
 *                         (x.W and h.R), plus per step and hidden unit 6 per gate value (two
 *                         bias adds, the activation) and the state update (LSTM 8, GRU 4)
 *
 * Bytes: the minimum a run must move, each tensor once: element size x (input elements +
 * output elements + weight elements); intermediates (attention scores, Gelu temporaries, the
 * conv output a fused Relu reads) are not counted. Concat moves 2 x its output; Resize its input
 * and its scale^2-times larger output. Cast counts the input at its size and the output at the
 * target's size. Copies count the payload once (n x element size): what crosses the link, so
 * bytes/time is link bandwidth. A reorder moves its NCHW map twice (the block padding is not
 * counted). LSTM and GRU: X, W, R, both biases, the initial h, Y and Y_h.
 */
import { shapeKey, type Dtype } from '../domain/measurement.js';
import { DTYPE_BYTES } from '../domain/dtypes.js';
import { OP_DIMS, OP_DTYPES, OP_FAMILY, OP_OPTIONAL_DIMS, type KernelOp, type KernelSpec } from './types.js';

/** Cast converts fp32 to fp16 and fp16 to fp32. */
export function castTarget(dtype: Dtype): Dtype {
  if (dtype === 'fp32') return 'fp16';
  if (dtype === 'fp16') return 'fp32';
  throw new RangeError(`Cast is built for fp32 and fp16, not ${dtype}`);
}

/** Conv output spatial size with `pad` on both sides; by default "same"-style floor(kernel/2). */
export function convOutSize(input: number, kernel: number, stride: number, pad = Math.floor(kernel / 2)): number {
  return Math.floor((input + 2 * pad - kernel) / stride) + 1;
}

/** Padding per side of a Conv kernel: floor(window/2) on H and W, or 0 when `valid` or `transpose`. */
export function convPads(shape: Record<string, number>): [number, number] {
  if (shape['valid'] || shape['transpose']) return [0, 0];
  return [Math.floor((shape['R'] ?? 1) / 2), Math.floor((shape['S'] ?? 1) / 2)];
}

/** Output [Ho, Wo] of a Conv kernel (Wo = 1 for a 1-D conv). */
export function convOutDims(shape: Record<string, number>): [number, number] {
  const d = (name: string): number => dim(shape, name);
  if (shape['transpose']) {
    const up = (input: number, window: number): number => (input - 1) * d('stride') + window;
    return [up(d('H'), d('R')), shape['d1'] ? 1 : up(d('W'), d('S'))];
  }
  const [ph, pw] = convPads(shape);
  return [convOutSize(d('H'), d('R'), d('stride'), ph), convOutSize(d('W'), d('S'), d('stride'), pw)];
}

/** Pool output size: floor((kernel-1)/2) padding on both sides ("same" for odd windows, none for 2x2). */
export function poolOutSize(input: number, kernel: number, stride: number): number {
  const pad = Math.floor((kernel - 1) / 2);
  return Math.floor((input + 2 * pad - kernel) / stride) + 1;
}

/** Gates per step and the state update's FLOPs per hidden unit of each recurrent op. */
export const RECURRENT_GATES = {
  LSTM: { gates: 4, update: 8 },
  GRU: { gates: 3, update: 4 },
  RNN: { gates: 1, update: 0 },
} as const;
export type RecurrentOp = keyof typeof RECURRENT_GATES;

/** FLOPs of a one-direction recurrent layer (the convention in the file comment). */
export function recurrentFlops(op: RecurrentOp, seq: number, batch: number, input: number, hidden: number): number {
  const { gates, update } = RECURRENT_GATES[op];
  return 2 * seq * batch * gates * hidden * (input + hidden) + seq * batch * hidden * (6 * gates + update);
}

/** Elements a one-direction recurrent layer reads and writes: X, W, R, B, initial h, Y, Y_h. */
export function recurrentElements(op: RecurrentOp, seq: number, batch: number, input: number, hidden: number): number {
  const { gates } = RECURRENT_GATES[op];
  return seq * batch * (input + hidden) + gates * hidden * (input + hidden + 2) + 2 * batch * hidden;
}

function dim(shape: Record<string, number>, name: string): number {
  const v = shape[name];
  if (v === undefined) throw new RangeError(`shape lacks ${name}`);
  return v;
}

export function kernelFlops(op: KernelOp, shape: Record<string, number>): number {
  const d = (name: string): number => dim(shape, name);
  switch (op) {
    case 'MatMul':
      return 2 * d('B') * d('M') * d('N') * d('K') * (shape['distinct'] || 1);
    case 'Gemm':
      return 2 * d('M') * d('N') * d('K');
    case 'Conv': {
      const [ho, wo] = convOutDims(shape);
      const out = d('N') * d('K') * ho * wo;
      // A transposed conv multiplies every input pixel by its window; its output is larger.
      if (shape.transpose) return 2 * d('N') * d('C') * d('H') * d('W') * (d('K') / d('groups')) * d('R') * d('S');
      return 2 * out * (d('C') / d('groups')) * d('R') * d('S') + (shape.act ? out : 0);
    }
    case 'Add':
    case 'Mul':
    case 'Relu':
    case 'Div':
    case 'Clip':
    case 'Sqrt':
    case 'LeakyRelu':
      return d('n');
    case 'HardSigmoid':
      return 3 * d('n');
    case 'Sigmoid':
    case 'Pow':
    case 'Exp':
    case 'Log':
    case 'Tanh':
    case 'Erf':
    case 'HardSwish':
    case 'Softplus':
      return 4 * d('n');
    case 'Gelu':
      return 8 * d('n');
    case 'ReduceSum':
    case 'ReduceMean':
      return d('rows') * d('cols');
    case 'MaxPool':
    case 'AveragePool':
      return poolOutElements(shape) * d('R') * d('R');
    case 'GlobalAveragePool':
      return d('N') * d('C') * d('H') * d('W');
    case 'Softmax':
      return 5 * d('rows') * d('cols');
    case 'LayerNormalization':
      return 8 * d('rows') * d('cols');
    case 'SkipLayerNormalization':
      return 9 * d('rows') * d('cols');
    case 'Attention': {
      const bhss = d('batch') * d('heads') * d('seq') * d('seq');
      return 4 * bhss * d('headDim') + 5 * bhss;
    }
    case 'Transpose':
    case 'Concat':
    case 'Resize':
    case 'Cast':
    case 'CopyH2D':
    case 'CopyD2H':
    case 'ReorderInput':
    case 'ReorderOutput':
      return 0;
    case 'LSTM':
    case 'GRU':
      return recurrentFlops(op, d('seq'), d('batch'), d('input'), d('hidden'));
  }
}

/** N*C*Ho*Wo of a MaxPool/AveragePool shape. */
function poolOutElements(shape: Record<string, number>): number {
  const d = (name: string): number => dim(shape, name);
  return d('N') * d('C') * poolOutSize(d('H'), d('R'), d('stride')) * poolOutSize(d('W'), d('R'), d('stride'));
}

/** Element counts (inputs + outputs + weights) of one run; Cast is handled in kernelBytes. */
function kernelElements(op: KernelOp, shape: Record<string, number>): number {
  const d = (name: string): number => dim(shape, name);
  switch (op) {
    case 'MatMul':
      // A [B,M,K] + B [B,K,N] (a [K,N] weight when B = 1) + Y [B,M,N]; `distinct` weights in a row
      return d('B') * (d('M') * d('K') + d('K') * d('N') * (shape['distinct'] || 1) + d('M') * d('N'));
    case 'Gemm':
      // A [M,K] + W [K,N] + bias [N] + Y [M,N]
      return d('M') * d('K') + d('K') * d('N') + d('N') + d('M') * d('N');
    case 'Conv': {
      const [ho, wo] = convOutDims(shape);
      const x = d('N') * d('C') * d('H') * d('W');
      const w = d('K') * (d('C') / d('groups')) * d('R') * d('S');
      return x + w + d('N') * d('K') * ho * wo;
    }
    case 'Add':
    case 'Mul':
      // A + B + Y, or x, a scalar and Y
      return shape['scalar'] ? 2 * d('n') + 1 : 3 * d('n');
    case 'Relu':
    case 'Sigmoid':
    case 'Gelu':
    case 'Sqrt':
    case 'Exp':
    case 'Log':
    case 'Tanh':
    case 'Erf':
    case 'HardSigmoid':
    case 'HardSwish':
    case 'LeakyRelu':
    case 'Softplus':
      return 2 * d('n');
    case 'Div':
    case 'Pow':
      // x and a scalar divisor / exponent (a weight), as models write them: x / 6, x ^ 2
      return 2 * d('n') + 1;
    case 'Clip':
      // x and its scalar min and max
      return 2 * d('n') + 2;
    case 'ReduceSum':
    case 'ReduceMean':
      return d('rows') * d('cols') + d('rows');
    case 'MaxPool':
    case 'AveragePool':
      return d('N') * d('C') * d('H') * d('W') + poolOutElements(shape);
    case 'GlobalAveragePool':
      return d('N') * d('C') * (d('H') * d('W') + 1);
    case 'Softmax':
    case 'Transpose':
    case 'Concat':
      return 2 * d('rows') * d('cols');
    case 'Resize':
      return d('N') * d('C') * d('H') * d('W') * (1 + d('scale') * d('scale'));
    case 'ReorderInput':
    case 'ReorderOutput':
      // the NCHW map and its blocked copy (channels padded to the block: not counted)
      return 2 * d('N') * d('C') * d('H') * d('W');
    case 'LayerNormalization':
      // X + Y + scale [cols] + bias [cols]
      return 2 * d('rows') * d('cols') + 2 * d('cols');
    case 'SkipLayerNormalization':
      // X + skip + Y + scale + bias
      return 3 * d('rows') * d('cols') + 2 * d('cols');
    case 'Attention':
      // Q, K, V and the output, each [batch,heads,seq,headDim]
      return 4 * d('batch') * d('heads') * d('seq') * d('headDim');
    case 'Cast':
      return 2 * d('n');
    case 'CopyH2D':
    case 'CopyD2H':
      return d('n');
    case 'LSTM':
    case 'GRU':
      return recurrentElements(op, d('seq'), d('batch'), d('input'), d('hidden'));
  }
}

export function kernelBytes(op: KernelOp, dtype: Dtype, shape: Record<string, number>): number {
  if (op === 'Cast') return dim(shape, 'n') * (DTYPE_BYTES[dtype] + DTYPE_BYTES[castTarget(dtype)]);
  return kernelElements(op, shape) * DTYPE_BYTES[dtype];
}

function kernelId(op: KernelOp, dtype: Dtype, shape: Record<string, number>): string {
  return `${op}.${dtype}.${shapeKey(shape)}`;
}

/**
 * The shape in canonical form: the op's dims in documented order, then its non-zero optional
 * dims (OP_OPTIONAL_DIMS) in theirs. Throws on a missing or unknown dim, a required dim that is
 * not a positive integer, or an optional one outside 0..max.
 */
function canonicalShape(op: KernelOp, shape: Record<string, number>): Record<string, number> {
  const want = OP_DIMS[op];
  const optional = OP_OPTIONAL_DIMS[op] ?? {};
  const keys = Object.keys(shape);
  if (!want.every((k) => k in shape) || !keys.every((k) => want.includes(k) || k in optional)) {
    const opt = Object.keys(optional).map((k) => `[${k}]`);
    throw new RangeError(`${op} needs dims {${[...want, ...opt].join(',')}}, got {${keys.join(',')}}`);
  }
  const ordered: Record<string, number> = {};
  for (const k of want) {
    const v = dim(shape, k);
    if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${op}: ${k} must be a positive integer, got ${v}`);
    ordered[k] = v;
  }
  for (const [k, max] of Object.entries(optional)) {
    const v = shape[k] ?? 0;
    if (!Number.isSafeInteger(v) || v < 0 || v > max) throw new RangeError(`${op}: ${k} must be 0..${max}, got ${v}`);
    if (v !== 0) ordered[k] = v;
  }
  return ordered;
}

/** Op-specific constraints between dims; throws RangeError. */
function checkDims(op: KernelOp, s: Record<string, number>): void {
  const d = (name: string): number => dim(s, name);
  if (op === 'Conv' && (d('C') % d('groups') !== 0 || d('K') % d('groups') !== 0))
    throw new RangeError('Conv: C and K must divide by groups');
  if (op === 'Conv' && s['d1'] && (d('W') !== 1 || d('S') !== 1))
    throw new RangeError('Conv: a 1-D conv has W = S = 1');
  if (op === 'Conv' && s['transpose'] && (s['act'] || s['valid']))
    throw new RangeError('Conv: a transposed conv has no fused activation and is always unpadded');
  if (op === 'Conv' && Math.min(...convOutDims(s)) < 1)
    throw new RangeError('Conv: the window is larger than the padded input');
  if (
    (op === 'MaxPool' || op === 'AveragePool') &&
    Math.min(d('H'), d('W')) < d('R') - 2 * Math.floor((d('R') - 1) / 2)
  )
    throw new RangeError(`${op}: the ${d('R')}x${d('R')} window is larger than the padded input`);
  if (op === 'Concat' && d('cols') % d('parts') !== 0) throw new RangeError('Concat: cols must divide by parts');
  if (op === 'MatMul' && s['distinct'] && d('B') === 1 && d('N') !== d('K'))
    throw new RangeError('MatMul: distinct weights in a row need B = 1 and N = K');
  if (op === 'MatMul' && s['distinct'] && d('B') > 1 && s['distinct'] % 2 !== 0)
    throw new RangeError('MatMul: a batched row of distinct operands alternates K^T and V: distinct must be even');
}

/**
 * A validated kernel: the shape must hold the op's dims, as positive integers, and may hold
 * its optional dims (0 = absent); Conv needs C and K divisible by groups, a pool a window that
 * fits the padded input, Concat cols divisible by parts. Throws RangeError otherwise.
 */
export function makeKernel(op: KernelOp, dtype: Dtype, shape: Record<string, number>): KernelSpec {
  const ordered = canonicalShape(op, shape);
  if (!OP_DTYPES[op].includes(dtype)) throw new RangeError(`${op} is not built for ${dtype}`);
  checkDims(op, ordered);
  const family = OP_FAMILY[op];
  return {
    id: kernelId(op, dtype, ordered),
    op,
    family,
    dtype,
    shape: ordered,
    flops: kernelFlops(op, ordered),
    bytes: kernelBytes(op, dtype, ordered),
    gpuOnly: (dtype === 'fp16' || dtype === 'bf16') && family !== 'datamove' && family !== 'copy',
  };
}
