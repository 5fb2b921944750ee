/**
 * Shape rules of the compute ops: convolutions and pools, MatMul/Gemm (and their quantized
 * forms), normalizations, recurrent layers, Einsum and attention (ai.onnx and the common
 * com.microsoft fusions). Pure.
 */
import { DataType } from '../onnx/onnx-parser.js';
import { isInlinedIf } from './inlined-if.js';
import {
  broadcast,
  normAxis,
  ShapeUnknown,
  tensor,
  type NodeContext,
  type ShapeRule,
  type InferredTensor,
} from './shape-inference-context.js';

/**
 * Output spatial sizes of a convolution or pool over `input` (spatial dims only).
 * `ceilMode` (pools) rounds up, dropping a last window that would start in the end padding.
 */
function windowOutput(c: NodeContext, input: readonly number[], kernel: readonly number[], ceilMode = false): number[] {
  const n = input.length;
  const strides = c.ints('strides') ?? new Array<number>(n).fill(1);
  const dil = c.ints('dilations') ?? new Array<number>(n).fill(1);
  const pads = c.ints('pads') ?? new Array<number>(2 * n).fill(0);
  const autoPad = c.string('auto_pad', 'NOTSET');
  return input.map((size, i) => {
    const s = strides[i] ?? 1;
    const dk = ((kernel[i] ?? 1) - 1) * (dil[i] ?? 1) + 1;
    if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') return Math.ceil(size / s);
    if (autoPad === 'VALID') return Math.floor((size - dk) / s) + 1;
    const begin = pads[i] ?? 0;
    const span = size + begin + (pads[i + n] ?? 0) - dk;
    if (!ceilMode) return Math.floor(span / s) + 1;
    let out = Math.ceil(span / s) + 1;
    if ((out - 1) * s >= size + begin) out--;
    return out;
  });
}

/** Conv (and FusedConv, ConvInteger, QLinearConv): X [N, C, ...], W [M, C/group, ...k]. */
export function conv(xAt: number, wAt: number, dtype?: (c: NodeContext) => number): ShapeRule {
  return (c) => {
    const x = c.dims(xAt);
    const w = c.dims(wAt);
    const kernel = c.ints('kernel_shape') ?? w.slice(2);
    const spatial = windowOutput(c, x.slice(2), kernel);
    return [tensor([x[0] ?? 1, w[0] ?? 1, ...spatial], dtype ? dtype(c) : c.dtype(xAt))];
  };
}

/** ConvTranspose: W [C, M/group, ...k]; output_shape wins over the size formula. */
const convTranspose: ShapeRule = (c) => {
  const x = c.dims(0);
  const w = c.dims(1);
  const group = c.int('group', 1);
  const input = x.slice(2);
  const n = input.length;
  const kernel = c.ints('kernel_shape') ?? w.slice(2);
  const strides = c.ints('strides') ?? new Array<number>(n).fill(1);
  const dil = c.ints('dilations') ?? new Array<number>(n).fill(1);
  const outPad = c.ints('output_padding') ?? new Array<number>(n).fill(0);
  const pads = c.ints('pads') ?? new Array<number>(2 * n).fill(0);
  const autoPad = c.string('auto_pad', 'NOTSET');
  const given = c.ints('output_shape');
  const spatial = given
    ? given.slice(given.length - n)
    : input.map((size, i) => {
        const s = strides[i] ?? 1;
        if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') return size * s;
        const p = autoPad === 'VALID' ? 0 : (pads[i] ?? 0) + (pads[i + n] ?? 0);
        return s * (size - 1) + (outPad[i] ?? 0) + ((kernel[i] ?? 1) - 1) * (dil[i] ?? 1) + 1 - p;
      });
  return [tensor([x[0] ?? 1, (w[1] ?? 1) * group, ...spatial], c.dtype(0))];
};

export function pool(xAt = 0): ShapeRule {
  return (c) => {
    const x = c.dims(xAt);
    const kernel = c.ints('kernel_shape');
    if (!kernel) throw new ShapeUnknown(`${c.opType} without kernel_shape`);
    const spatial = windowOutput(c, x.slice(2), kernel, c.int('ceil_mode', 0) === 1);
    const dims = [x[0] ?? 1, x[1] ?? 1, ...spatial];
    return [tensor(dims, c.dtype(xAt)), tensor(dims, DataType.INT64)];
  };
}

export const globalPool: ShapeRule = (c) => {
  const x = c.dims(0);
  return [tensor([x[0] ?? 1, x[1] ?? 1, ...x.slice(2).map(() => 1)], c.dtype(0))];
};

/** Output dims of A @ B with numpy batch broadcasting and 1-D promotion; transA/transB swap the last two dims. */
function matmulDims(a: readonly number[], b: readonly number[], transA = false, transB = false): number[] {
  const swap = (d: readonly number[], t: boolean): number[] =>
    t && d.length >= 2 ? [...d.slice(0, -2), d[d.length - 1] ?? 1, d[d.length - 2] ?? 1] : [...d];
  const a2 = a.length === 1 ? [1, a[0] ?? 1] : swap(a, transA);
  const b2 = b.length === 1 ? [b[0] ?? 1, 1] : swap(b, transB);
  const k1 = a2[a2.length - 1];
  const k2 = b2[b2.length - 2];
  if (k1 !== k2) throw new ShapeUnknown(`MatMul of [${a}] and [${b}]: inner dims ${k1} and ${k2} differ`);
  const batch = broadcast([a2.slice(0, -2), b2.slice(0, -2)]);
  const out = [...batch];
  if (a.length !== 1) out.push(a2[a2.length - 2] ?? 1);
  if (b.length !== 1) out.push(b2[b2.length - 1] ?? 1);
  return out;
}

/**
 * An operand of com.microsoft FusedMatMul as a plain MatMul sees it: transBatch moves the first
 * dim behind the batch dims ([d0, d1, ..., dk, dn] -> [d1, ..., dk, d0, dn]; rank 3 and up).
 */
export function batchTransposed(d: readonly number[], transBatch: boolean): number[] {
  if (!transBatch || d.length < 3) return [...d];
  return [...d.slice(1, -1), d[0] ?? 1, d[d.length - 1] ?? 1];
}

/** com.microsoft FusedMatMul: alpha * (A' @ B'), A' and B' after transBatchA/B then transA/B. */
const fusedMatmul: ShapeRule = (c) => {
  const a = batchTransposed(c.dims(0), c.int('transBatchA', 0) === 1);
  const b = batchTransposed(c.dims(1), c.int('transBatchB', 0) === 1);
  return [tensor(matmulDims(a, b, c.int('transA', 0) === 1, c.int('transB', 0) === 1), c.dtype(0))];
};

function matmul(aAt: number, bAt: number, dtype?: (c: NodeContext) => number): ShapeRule {
  return (c) => {
    const dims = matmulDims(c.dims(aAt), c.dims(bAt), c.int('transA', 0) === 1, c.int('transB', 0) === 1);
    return [tensor(dims, dtype ? dtype(c) : c.dtype(aAt))];
  };
}

function gemm(aAt: number, bAt: number, dtype?: (c: NodeContext) => number): ShapeRule {
  return (c) => {
    const a = c.dims(aAt);
    const b = c.dims(bAt);
    const m = c.int('transA', 0) ? a[1] : a[0];
    const n = c.int('transB', 0) ? b[0] : b[1];
    return [tensor([m ?? 1, n ?? 1], dtype ? dtype(c) : c.dtype(aAt))];
  };
}

/** Type of input i when given, else `fallback`. */
const typeOf =
  (i: number, fallback: number) =>
  (c: NodeContext): number =>
    c.has(i) && c.dtype(i) ? c.dtype(i) : fallback;

const batchNorm: ShapeRule = (c) => {
  const x = c.dims(0);
  const ch = [x[1] ?? 1];
  return [tensor(x, c.dtype(0)), ...[0, 1, 2, 3].map(() => tensor(ch, c.dtype(1) || c.dtype(0)))];
};

const layerNorm: ShapeRule = (c) => {
  const x = c.dims(0);
  const axis = normAxis(c.int('axis', -1), x.length);
  const stat = x.map((d, i) => (i >= axis ? 1 : d));
  return [tensor(x, c.dtype(0)), tensor(stat, DataType.FLOAT), tensor(stat, DataType.FLOAT)];
};

/** com.microsoft SkipLayerNormalization: output, mean, inv_std_var, input + skip + bias. */
const skipLayerNorm: ShapeRule = (c) => {
  const x = c.dims(0);
  const stat = [...x.slice(0, -1), 1];
  return [tensor(x, c.dtype(0)), tensor(stat, DataType.FLOAT), tensor(stat, DataType.FLOAT), tensor(x, c.dtype(0))];
};

/** RNN, GRU, LSTM: Y [seq, dirs, batch, hidden], Y_h (and LSTM's Y_c) [dirs, batch, hidden]; layout 1 puts batch first. */
const recurrent: ShapeRule = (c) => {
  const x = c.dims(0);
  const layout = c.int('layout', 0);
  const [seq, batch] = layout === 1 ? [x[1] ?? 1, x[0] ?? 1] : [x[0] ?? 1, x[1] ?? 1];
  const hidden = c.int('hidden_size', 0) || (c.dims(2)[2] ?? 0);
  const dirs = c.string('direction', 'forward') === 'bidirectional' ? 2 : 1;
  const t = c.dtype(0);
  const y = layout === 1 ? [batch, seq, dirs, hidden] : [seq, dirs, batch, hidden];
  const state = layout === 1 ? [batch, dirs, hidden] : [dirs, batch, hidden];
  const outs: InferredTensor[] = [tensor(y, t), tensor(state, t)];
  if (c.opType === 'LSTM') outs.push(tensor(state, t));
  return outs;
};

/** Parsed Einsum equation: one term per input, the output term; '.' stands for the ellipsis. */
export function parseEinsum(equation: string, inputs: number): { terms: string[]; output: string } {
  const eq = equation.replace(/\s+/g, '').replace(/\.\.\./g, '.');
  const [lhs = '', rhs] = eq.split('->');
  const terms = lhs.split(',');
  if (terms.length !== inputs)
    throw new ShapeUnknown(`Einsum "${equation}" has ${terms.length} terms for ${inputs} inputs`);
  if (rhs !== undefined) return { terms, output: rhs };
  const counts = new Map<string, number>();
  for (const ch of terms.join('')) if (ch !== '.') counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const once = [...counts].filter(([, n]) => n === 1).map(([ch]) => ch);
  return { terms, output: (terms.some((t) => t.includes('.')) ? '.' : '') + once.sort().join('') };
}

/** Sizes of each Einsum letter, and the broadcast ellipsis dims. */
export function einsumSizes(terms: string[], shapes: number[][]): { sizes: Map<string, number>; ellipsis: number[] } {
  const sizes = new Map<string, number>();
  const ellipses: number[][] = [];
  terms.forEach((term, i) => {
    const dims = shapes[i] ?? [];
    const letters = term.replace('.', '').length;
    const ell = dims.length - letters;
    let at = 0;
    for (const ch of term) {
      if (ch === '.') {
        ellipses.push(dims.slice(at, at + ell));
        at += ell;
        continue;
      }
      const d = dims[at++] ?? 1;
      const prev = sizes.get(ch);
      if (prev === undefined || prev === 1) sizes.set(ch, d);
      else if (d !== prev && d !== 1) throw new ShapeUnknown(`Einsum letter ${ch} is both ${prev} and ${d}`);
    }
  });
  return { sizes, ellipsis: broadcast(ellipses) };
}

const einsum: ShapeRule = (c) => {
  const eq = c.string('equation', '');
  const { terms, output } = parseEinsum(eq, c.inputCount);
  const { sizes, ellipsis } = einsumSizes(
    terms,
    terms.map((_, i) => c.dims(i)),
  );
  const dims: number[] = [];
  for (const ch of output) {
    if (ch === '.') dims.push(...ellipsis);
    else dims.push(sizes.get(ch) ?? 1);
  }
  return [tensor(dims, c.dtype(0))];
};

/** ai.onnx Attention (opset 23): Q [B, Hq, S, D] or [B, S, Hq*D]; the output takes V's head size. */
const attention23: ShapeRule = (c) => {
  const q = c.dims(0);
  const v = c.dims(2);
  if (q.length === 4) return [tensor([q[0] ?? 1, q[1] ?? 1, q[2] ?? 1, v[3] ?? 1], c.dtype(0))];
  const qHeads = c.int('q_num_heads', 1);
  const kvHeads = c.int('kv_num_heads', 1);
  return [tensor([q[0] ?? 1, q[1] ?? 1, qHeads * ((v[2] ?? 0) / kvHeads)], c.dtype(0))];
};

/** com.microsoft Attention: input [B, S, H], weights [H, 3H'] (or qkv_hidden_sizes) -> [B, S, H_v]. */
const msAttention: ShapeRule = (c) => {
  const x = c.dims(0);
  const w = c.dims(1);
  const sizes = c.ints('qkv_hidden_sizes');
  const hv = sizes?.[2] ?? (w[1] ?? 0) / 3;
  return [tensor([x[0] ?? 1, x[1] ?? 1, hv], c.dtype(0))];
};

/** com.microsoft MultiHeadAttention: query [B, S, D] -> [B, S, D_v]. */
const msMultiHeadAttention: ShapeRule = (c) => {
  const q = c.dims(0);
  let dv = q[2] ?? 1;
  if (c.has(2)) {
    const v = c.dims(2);
    if (v.length === 3) dv = v[2] ?? dv;
    else if (v.length === 4) dv = (v[1] ?? 1) * (v[3] ?? 1);
  }
  return [tensor([q[0] ?? 1, q[1] ?? 1, dv], c.dtype(0))];
};

/** com.microsoft GroupQueryAttention: query [B, S, N*H] (or packed QKV) -> [B, S, N*H]. */
const msGroupQueryAttention: ShapeRule = (c) => {
  const q = c.dims(0);
  const heads = c.int('num_heads', 1);
  const kv = c.int('kv_num_heads', heads);
  const head = c.has(1) ? (q[2] ?? 0) / heads : (q[2] ?? 0) / (heads + 2 * kv);
  return [tensor([q[0] ?? 1, q[1] ?? 1, heads * head], c.dtype(0))];
};

const embedLayerNorm: ShapeRule = (c) => {
  const ids = c.dims(0);
  const hidden = c.dims(2)[1] ?? 1;
  const t = c.dtype(2);
  return [tensor([ids[0] ?? 1, ids[1] ?? 1, hidden], t), tensor([ids[0] ?? 1], DataType.INT32)];
};

const matMulNBits: ShapeRule = (c) => {
  const a = c.dims(0);
  return [tensor([...a.slice(0, -1), c.int('N', 1)], c.dtype(0))];
};

const quantize: ShapeRule = (c) => {
  const dtype = c.has(2) && c.dtype(2) ? c.dtype(2) : c.int('output_dtype', 0) || DataType.UINT8;
  return [tensor(c.dims(0), dtype)];
};

/** If, Loop, Scan: an If inlined by inline-branches.ts writes nothing itself (its branch does). */
const subgraphOp: ShapeRule = (c) => {
  if (isInlinedIf(c.node)) return [];
  throw new ShapeUnknown(`${c.opType} runs a subgraph; its output shapes are not inferred`);
};

const sameAs0: ShapeRule = (c) => [tensor(c.dims(0), c.dtype(0))];

export const NN_RULES: Record<string, ShapeRule> = {
  Conv: conv(0, 1),
  ConvInteger: conv(0, 1, () => DataType.INT32),
  QLinearConv: conv(0, 3, typeOf(7, DataType.UINT8)),
  ConvTranspose: convTranspose,
  MaxPool: pool(),
  AveragePool: pool(),
  LpPool: pool(),
  GlobalAveragePool: globalPool,
  GlobalMaxPool: globalPool,
  GlobalLpPool: globalPool,
  MatMul: matmul(0, 1),
  MatMulInteger: matmul(0, 1, () => DataType.INT32),
  QLinearMatMul: matmul(0, 3, typeOf(7, DataType.UINT8)),
  Gemm: gemm(0, 1),
  BatchNormalization: batchNorm,
  LayerNormalization: layerNorm,
  // ONNX Runtime registers its LayerNorm fusion's RMS form in the default domain.
  SimplifiedLayerNormalization: layerNorm,
  RNN: recurrent,
  GRU: recurrent,
  LSTM: recurrent,
  Einsum: einsum,
  Attention: attention23,
  QuantizeLinear: quantize,
  DequantizeLinear: (c) => [tensor(c.dims(0), c.dtype(1) || DataType.FLOAT)],
  DynamicQuantizeLinear: (c) => [
    tensor(c.dims(0), DataType.UINT8),
    tensor([], DataType.FLOAT),
    tensor([], DataType.UINT8),
  ],
  GridSample: (c) => {
    const x = c.dims(0);
    const g = c.dims(1);
    return [tensor([x[0] ?? 1, x[1] ?? 1, ...g.slice(1, -1)], c.dtype(0))];
  },
  RoiAlign: (c) => {
    const x = c.dims(0);
    const rois = c.dims(1);
    return [tensor([rois[0] ?? 1, x[1] ?? 1, c.int('output_height', 1), c.int('output_width', 1)], c.dtype(0))];
  },
  If: subgraphOp,
  Loop: subgraphOp,
  Scan: subgraphOp,
};

/** com.microsoft ops (contrib ops ONNX Runtime's optimizers and quantizers emit). */
export const MS_RULES: Record<string, ShapeRule> = {
  FusedConv: conv(0, 1),
  FusedGemm: gemm(0, 1),
  FusedMatMul: fusedMatmul,
  TransposeMatMul: fusedMatmul,
  Gelu: sameAs0,
  FastGelu: sameAs0,
  BiasGelu: sameAs0,
  QuickGelu: sameAs0,
  BiasAdd: sameAs0,
  BiasSoftmax: sameAs0,
  RotaryEmbedding: sameAs0,
  LayerNormalization: layerNorm,
  SimplifiedLayerNormalization: layerNorm,
  SkipLayerNormalization: skipLayerNorm,
  SkipSimplifiedLayerNormalization: skipLayerNorm,
  Attention: msAttention,
  MultiHeadAttention: msMultiHeadAttention,
  GroupQueryAttention: msGroupQueryAttention,
  EmbedLayerNormalization: embedLayerNorm,
  MatMulNBits: matMulNBits,
  MatMulIntegerToFloat: matmul(0, 1, () => DataType.FLOAT),
  DynamicQuantizeMatMul: matmul(0, 1, () => DataType.FLOAT),
  QGemm: gemm(0, 3, typeOf(8, DataType.FLOAT)),
  QLinearAdd: (c) => [tensor(broadcast([c.dims(0), c.dims(3)]), c.dtype(0))],
  QLinearMul: (c) => [tensor(broadcast([c.dims(0), c.dims(3)]), c.dtype(0))],
  QLinearSigmoid: sameAs0,
  QLinearLeakyRelu: sameAs0,
  QLinearSoftmax: sameAs0,
  QLinearAveragePool: pool(),
  QLinearGlobalAveragePool: (c) => {
    const x = c.dims(0);
    const dims =
      c.int('channels_last', 0) === 1
        ? [x[0] ?? 1, ...x.slice(1, -1).map(() => 1), x[x.length - 1] ?? 1]
        : [x[0] ?? 1, x[1] ?? 1, ...x.slice(2).map(() => 1)];
    return [tensor(dims, c.dtype(0))];
  },
  QuantizeLinear: quantize,
  DequantizeLinear: (c) => [tensor(c.dims(0), c.dtype(1) || DataType.FLOAT)],
};
