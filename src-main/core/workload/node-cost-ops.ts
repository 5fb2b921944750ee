/**
 * Per-op cost rules: the predictor family, the kernel (op and named dims) the predictor is
 * asked about, and the FLOPs and bytes of one node. FLOP conventions are cost.ts's (one
 * multiply-add = 2 FLOPs; what the op must compute):
 *
 *   MatMul/Gemm        2*B*M*N*K; a MatMul whose second operand is a plain matrix (a weight)
 *                      folds its batch dims into M (B = 1), as runtimes run it; otherwise the
 *                      broadcast batch dims fold into B
 *   Conv               2*N*K*prod(out spatial)*(C/group)*prod(kernel); 1-D convs as the 1-D
 *                      kernel (d1: 1, W = S = 1; valid: 1 when unpadded), 3-D convs as N*Do
 *                      2-D convs over C*kd channels; 2-D convs as the kernel with "same"
 *                      padding, whatever their pads
 *   ConvTranspose      2*N*C_in*prod(in spatial)*(C_out/group)*prod(kernel); 1-D and 2-D as
 *                      the transposed-conv kernel (transpose: 1, its pads ignored), 3-D as
 *                      a stride-1 conv over the input with C_out filters
 *   elementwise        per output element: 1 (add, mul, compare, relu...), 4 (sigmoid, tanh,
 *                      exp, erf...), 8 (Gelu); Cast 0 (kernel Cast, family datamove)
 *   Softmax            5 per element (BiasSoftmax 6);  LayerNorm, InstanceNorm, GroupNorm 8 per element;
 *                      BatchNorm 2 per element (inference: a per-channel scale and shift,
 *                      priced as the scalar Mul kernel, family elementwise)
 *   reductions         1 per input element; pools 1 per window element (out x kernel)
 *   datamove           0 (Resize: 4 per output element when linear, 16 when cubic)
 *   LSTM/GRU           the recurrent kernel {seq: seq*dirs, batch, input, hidden}, FLOPs as
 *                      cost.ts recurrentFlops (gate GEMMs, gate activations, state update)
 *   RNN                its gate GEMMs as one gemm kernel {B: seq*dirs, M: batch, N: hidden,
 *                      K: input+hidden}, FLOPs as recurrentFlops
 *   Attention          4*batch*heads*seqQ*seqKV*headDim + 5*batch*heads*seqQ*seqKV
 *                      (com.microsoft Attention adds its QKV projection GEMM)
 *
 * ONNX Runtime's fused forms cost as the op they run (FusedConv a Conv, FusedGemm a Gemm,
 * FusedMatMul a MatMul), their kernel shape marked `act: 1` when an activation is fused and
 * `sum: 1` when an addend is. Its NCHWc ops (com.microsoft.nchwc, shape-inference-nchwc.ts)
 * cost as their plain ops, marked `nchwc: 1`: a Conv at the padded channel counts it runs,
 * a pool as the pool, Upsample as Resize; ReorderInput and ReorderOutput as the reorder
 * kernels of their NCHW side (a Transpose of it, marked `reorder: 1`, when not 4-D).
 *
 * Bytes: every input (weights included) and output once, at its element size; Slice, Gather
 * and their kin read only what they write (2 x output + indices). Pure.
 */
import { KERNEL_OPS, OP_FAMILY, type KernelFamily, type KernelOp } from '../kernels/types.js';
import {
  convOutSize,
  kernelBytes,
  kernelFlops,
  RECURRENT_GATES,
  recurrentElements,
  recurrentFlops,
  type RecurrentOp,
} from '../kernels/cost.js';
import { elementBytes, type OnnxNode } from '../onnx/onnx-parser.js';
import { normAxis, product, type InferredTensor } from './shape-inference-context.js';
import { batchTransposed, parseEinsum, einsumSizes } from './shape-inference-nn.js';

export interface OpCost {
  family: KernelFamily;
  kernel: { op: KernelOp; shape: Record<string, number> };
  flops: number;
  /** Bytes when not the default (all inputs + all outputs). */
  bytes?: number;
}

/** A node with every input and output shape known. */
export interface CostContext {
  node: OnnxNode;
  opset: number;
  /** Inputs in node order; undefined for omitted optional inputs. */
  inputs: (KnownTensor | undefined)[];
  outputs: (KnownTensor | undefined)[];
}

export interface KnownTensor extends InferredTensor {
  dims: number[];
}

export type CostRule = (c: CostContext) => OpCost;

const elems = (t: KnownTensor | undefined): number => (t ? product(t.dims) : 0);
export const tensorBytes = (t: KnownTensor | undefined): number =>
  t ? Math.ceil(product(t.dims) * elementBytes(t.dtype)) : 0;

function int(c: CostContext, name: string, fallback: number): number {
  const a = c.node.attributes.get(name);
  return a?.type === 'INT' ? a.value : fallback;
}

function ints(c: CostContext, name: string): number[] | undefined {
  const a = c.node.attributes.get(name);
  return a?.type === 'INTS' ? a.value : undefined;
}

function str(c: CostContext, name: string, fallback: string): string {
  const a = c.node.attributes.get(name);
  return a?.type === 'STRING' ? a.value : fallback;
}

function need(t: KnownTensor | undefined, what: string): number[] {
  if (!t) throw new RangeError(`missing ${what}`);
  return t.dims;
}

/** The rule's cost with extra keys in its kernel shape (nchwc, act, sum...). */
function withKeys(cost: OpCost, keys: Record<string, number>): OpCost {
  return { ...cost, kernel: { op: cost.kernel.op, shape: { ...cost.kernel.shape, ...keys } } };
}

/** Keys of what ONNX Runtime fused into a node: `act` (an activation attribute), `sum` (an addend input). */
function fusedKeys(c: CostContext, sumAt?: number): Record<string, number> {
  const keys: Record<string, number> = {};
  if (c.node.attributes.get('activation')?.type === 'STRING') keys.act = 1;
  if (sumAt !== undefined && c.node.inputs[sumAt]) keys.sum = 1;
  return keys;
}

/** [rows, cols] with cols the last dim (a 2-D view for datamove kernels). */
function rowsCols(dims: readonly number[]): { rows: number; cols: number } {
  const cols = dims[dims.length - 1] ?? 1;
  return { rows: Math.max(1, product(dims) / Math.max(cols, 1)), cols: Math.max(cols, 1) };
}

// ---- gemm ----

/** MatMul-like cost of A @ B (1-D operands promoted); transA/transB swap the last two dims. */
function matmulCost(a: readonly number[], b: readonly number[], transA = false, transB = false): OpCost {
  const swap = (d: readonly number[], t: boolean): number[] =>
    t && d.length >= 2 ? [...d.slice(0, -2), d[d.length - 1] ?? 1, d[d.length - 2] ?? 1] : [...d];
  const a2 = a.length === 1 ? [1, a[0] ?? 1] : swap(a, transA);
  const b2 = b.length === 1 ? [b[0] ?? 1, 1] : swap(b, transB);
  const m = a2[a2.length - 2] ?? 1;
  const k = a2[a2.length - 1] ?? 1;
  const n = b2[b2.length - 1] ?? 1;
  const batchA = a2.slice(0, -2);
  const batchB = b2.slice(0, -2);
  const rank = Math.max(batchA.length, batchB.length);
  let batch = 1;
  for (let i = 0; i < rank; i++) {
    const x = batchA[batchA.length - rank + i] ?? 1;
    const y = batchB[batchB.length - rank + i] ?? 1;
    batch *= Math.max(x, y);
  }
  const shape = product(batchB) === 1 ? { B: 1, M: batch * m, N: n, K: k } : { B: batch, M: m, N: n, K: k };
  return { family: 'gemm', kernel: { op: 'MatMul', shape }, flops: 2 * batch * m * n * k };
}

const matmulAt =
  (aAt: number, bAt: number): CostRule =>
  (c) =>
    matmulCost(
      need(c.inputs[aAt], 'A'),
      need(c.inputs[bAt], 'B'),
      int(c, 'transA', 0) === 1,
      int(c, 'transB', 0) === 1,
    );

const gemmAt =
  (aAt: number, bAt: number): CostRule =>
  (c) => {
    const a = need(c.inputs[aAt], 'A');
    const b = need(c.inputs[bAt], 'B');
    const [m, k] = int(c, 'transA', 0) ? [a[1] ?? 1, a[0] ?? 1] : [a[0] ?? 1, a[1] ?? 1];
    const n = int(c, 'transB', 0) ? (b[0] ?? 1) : (b[1] ?? 1);
    return { family: 'gemm', kernel: { op: 'Gemm', shape: { M: m, N: n, K: k } }, flops: 2 * m * n * k };
  };

/** com.microsoft FusedMatMul: alpha * (A' @ B') with transBatchA/B and transA/B. */
const fusedMatmul: CostRule = (c) =>
  matmulCost(
    batchTransposed(need(c.inputs[0], 'A'), int(c, 'transBatchA', 0) === 1),
    batchTransposed(need(c.inputs[1], 'B'), int(c, 'transBatchB', 0) === 1),
    int(c, 'transA', 0) === 1,
    int(c, 'transB', 0) === 1,
  );

/** com.microsoft FusedGemm: a Gemm with a fused activation. */
const fusedGemm: CostRule = (c) => withKeys(gemmAt(0, 1)(c), fusedKeys(c));

const matMulNBits: CostRule = (c) => {
  const a = need(c.inputs[0], 'A');
  const k = int(c, 'K', a[a.length - 1] ?? 1);
  const n = int(c, 'N', 1);
  const m = product(a.slice(0, -1));
  return { family: 'gemm', kernel: { op: 'MatMul', shape: { B: 1, M: m, N: n, K: k } }, flops: 2 * m * n * k };
};

// ---- conv ----

/** Conv of X [N, C, ...in] with W [K, C/g, ...k] giving Y [N, K, ...out] (g: the group attribute unless given). */
function convCost(
  x: readonly number[],
  w: readonly number[],
  y: readonly number[],
  c?: CostContext,
  group = c ? int(c, 'group', 1) : 1,
): OpCost {
  const strides = (c && ints(c, 'strides')) ?? [1];
  const kernel = w.slice(2);
  const inSp = x.slice(2);
  const outSp = y.slice(2);
  const n = x[0] ?? 1;
  const ch = x[1] ?? 1;
  const k = w[0] ?? 1;
  const flops = 2 * n * k * product(outSp) * (ch / group) * product(kernel);
  const stride = strides[0] ?? 1;
  let shape: Record<string, number>;
  if (inSp.length === 1) {
    const [h, r, out] = [inSp[0] ?? 1, kernel[0] ?? 1, outSp[0] ?? 1];
    const valid = out === convOutSize(h, r, stride, 0) && out !== convOutSize(h, r, stride);
    shape = { N: n, C: ch, H: h, W: 1, K: k, R: r, S: 1, stride, groups: group, d1: 1, ...(valid ? { valid: 1 } : {}) };
  } else if (inSp.length === 2) {
    shape = {
      N: n,
      C: ch,
      H: inSp[0] ?? 1,
      W: inSp[1] ?? 1,
      K: k,
      R: kernel[0] ?? 1,
      S: kernel[1] ?? 1,
      stride,
      groups: group,
    };
  } else {
    // 3-D and up: N * (output depth) 2-D convs over C * kd channels.
    const lead = inSp.length - 2;
    shape = {
      N: n * product(outSp.slice(0, lead)),
      C: ch * product(kernel.slice(0, lead)),
      H: inSp[lead] ?? 1,
      W: inSp[lead + 1] ?? 1,
      K: k,
      R: kernel[lead] ?? 1,
      S: kernel[lead + 1] ?? 1,
      stride,
      groups: group,
    };
  }
  return { family: 'conv', kernel: { op: 'Conv', shape }, flops };
}

const convAt =
  (xAt: number, wAt: number): CostRule =>
  (c) =>
    convCost(need(c.inputs[xAt], 'X'), need(c.inputs[wAt], 'W'), need(c.outputs[0], 'Y'), c);

/** com.microsoft FusedConv: a Conv with a fused activation, and optionally an addend Z (input 3). */
const fusedConv: CostRule = (c) => withKeys(convAt(0, 1)(c), fusedKeys(c, 3));

/**
 * com.microsoft.nchwc Conv, at the channel counts it runs: its weights' (padded up to the
 * block: a 24-channel conv of a blocked chain runs as 32 -> 32, zeros included). The user's
 * counts would price it as a plain 24-channel conv, which a lone conv of that shape runs
 * outside the blocked layout, in other time: the executed conv is a blocked 32-channel one.
 * A depthwise conv's group is its (padded) channel count.
 */
const nchwcConv: CostRule = (c) => {
  const x = need(c.inputs[0], 'X');
  const w = need(c.inputs[1], 'W');
  const y = need(c.outputs[0], 'Y');
  const group = int(c, 'group', 1);
  const depthwise = group > 1 && w[1] === 1 && w[0] === group;
  const k = w[0] ?? 1;
  const ch = depthwise ? k : (w[1] ?? 1) * group;
  const cost = convCost(
    [x[0] ?? 1, ch, ...x.slice(2)],
    [k, ch / group, ...w.slice(2)],
    [y[0] ?? 1, k, ...y.slice(2)],
    c,
    group,
  );
  return withKeys(cost, { nchwc: 1, ...fusedKeys(c, 3) });
};

const convTranspose: CostRule = (c) => {
  const x = need(c.inputs[0], 'X');
  const w = need(c.inputs[1], 'W');
  const y = need(c.outputs[0], 'Y');
  const group = int(c, 'group', 1);
  const cout = y[1] ?? 1;
  const inSp = x.slice(2);
  const kernel = w.slice(2);
  if (inSp.length > 2) {
    // 3-D: the FLOPs of a stride-1 conv over the input with C_out filters (no 3-D kernel).
    const asConv = convCost(x, [cout, (x[1] ?? 1) / group, ...kernel], [x[0] ?? 1, cout, ...inSp]);
    return {
      family: 'conv',
      kernel: { op: 'Conv', shape: { ...asConv.kernel.shape, groups: group } },
      flops: asConv.flops,
    };
  }
  const d1 = inSp.length === 1;
  const shape = {
    N: x[0] ?? 1,
    C: x[1] ?? 1,
    H: inSp[0] ?? 1,
    W: d1 ? 1 : (inSp[1] ?? 1),
    K: cout,
    R: kernel[0] ?? 1,
    S: d1 ? 1 : (kernel[1] ?? 1),
    stride: (ints(c, 'strides') ?? [1])[0] ?? 1,
    groups: group,
    ...(d1 ? { d1: 1 } : {}),
    transpose: 1,
  };
  return { family: 'conv', kernel: { op: 'Conv', shape }, flops: kernelFlops('Conv', shape) };
};

// ---- elementwise ----

/**
 * FLOPs per output element of the elementwise ops. The ops that are kernels too take the figure
 * kernelFlops gives them (kernels/cost.ts); test/unit/core/workload/flops-tables.test.ts holds the two equal.
 */
const ELEMENTWISE_FLOPS: Record<string, number> = {
  ...Object.fromEntries(
    [
      'Add', 'Sub', 'Mul', 'Div', 'Max', 'Min', 'Sum', 'Mean', 'Neg', 'Abs', 'Relu', 'LeakyRelu', 'PRelu', 'Clip',
      'Equal', 'Less', 'LessOrEqual', 'Greater', 'GreaterOrEqual', 'Not', 'And', 'Or', 'Xor', 'Where', 'Floor',
      'Ceil', 'Round', 'Sign', 'Mod', 'Reciprocal', 'Sqrt', 'BitShift', 'ThresholdedRelu', 'Shrink', 'IsNaN',
      'IsInf', 'CumSum', 'BiasAdd', 'QLinearAdd', 'QLinearMul', 'QLinearLeakyRelu', 'BitwiseAnd', 'BitwiseOr',
      'BitwiseXor', 'BitwiseNot', 'Trilu',
    ].map((op) => [op, 1]),
  ),
  ...Object.fromEntries(
    [
      'Sigmoid', 'Tanh', 'Erf', 'Exp', 'Log', 'Pow', 'Softplus', 'Softsign', 'Elu', 'Selu', 'Celu', 'Sin', 'Cos',
      'Tan', 'Asin', 'Acos', 'Atan', 'Sinh', 'Cosh', 'Asinh', 'Acosh', 'Atanh', 'HardSwish', 'QLinearSigmoid',
    ].map((op) => [op, 4]),
  ),
  HardSigmoid: 3,
  RotaryEmbedding: 3,
  QuantizeLinear: 2,
  DequantizeLinear: 2,
  DynamicQuantizeLinear: 4,
  QuickGelu: 5,
  Mish: 9,
  Gelu: 8,
  FastGelu: 9,
  BiasGelu: 9,
}; // prettier-ignore

const GELU_OPS = new Set(['Gelu', 'FastGelu', 'BiasGelu', 'QuickGelu']);
const MUL_OPS = new Set(['Mul', 'QLinearMul', 'QuantizeLinear', 'DequantizeLinear', 'DynamicQuantizeLinear']);

/** ONNX ops priced as another op's kernel of their own (1 / x costs what x / 6 does). */
const KERNEL_ALIASES: Readonly<Record<string, KernelOp>> = { Reciprocal: 'Div' };

/** The elementwise kernel named like the op (types.ts KERNEL_OPS), if the suites profile one. */
function ownKernel(op: string): KernelOp | undefined {
  const kernel = KERNEL_OPS.find((k) => k === op);
  return kernel && OP_FAMILY[kernel] === 'elementwise' ? kernel : KERNEL_ALIASES[op];
}

/**
 * The profiled kernel an elementwise op is priced as: its own (ownKernel), else Gelu, Sigmoid
 * (transcendental), Add/Mul (binary) or Relu.
 */
function elementwiseKernel(op: string, inputs: number): KernelOp {
  const own = ownKernel(op);
  if (own) return own;
  if (GELU_OPS.has(op)) return 'Gelu';
  if ((ELEMENTWISE_FLOPS[op] ?? 1) >= 3) return 'Sigmoid';
  if (MUL_OPS.has(op)) return 'Mul';
  return inputs >= 2 ? 'Add' : 'Relu';
}

/**
 * Add, Sub or Mul with a one-element operand: the scalar kernel. Not Max, Min and the other
 * ops priced as Add: ORT runs them through another broadcast loop, and Max(x, c) ran 1.5-2.3x
 * the scalar Add kernel's time here (openWakeWord's embedding model).
 */
const SCALAR_KERNEL_OPS = new Set(['Add', 'Sub', 'Mul']);

function scalarOperand(op: string, inputs: CostContext['inputs']): boolean {
  if (!SCALAR_KERNEL_OPS.has(op) || inputs.length !== 2) return false;
  const [a, b] = inputs;
  return a !== undefined && b !== undefined && Math.min(elems(a), elems(b)) === 1;
}

/**
 * A node priced as the two-stream Add or Mul kernel moves what that kernel moves: 3 tensors of
 * its output's size. ORT's broadcast loops make one call per span of the larger operand, so a
 * per-channel or per-row operand costs about a full stream (measured here, per-channel Muls of
 * PaddleOCR det and bias Adds of rec ran at 1.0-2.7x the forest's price for 8-byte-per-element
 * ops of their size, the most on small maps), and Max(x, c) runs another loop than Add's. Null for other kernels: their own bytes.
 */
function twoStreamBytes(kernel: KernelOp, shape: Record<string, number>, out: KnownTensor | undefined): number | null {
  if ((kernel !== 'Add' && kernel !== 'Mul') || shape['scalar'] || !out) return null;
  return 3 * tensorBytes(out);
}

const elementwise: CostRule = (c) => {
  const op = c.node.opType;
  const n = elems(c.outputs[0]);
  const given = c.inputs.filter((t) => t !== undefined).length;
  const kernel = elementwiseKernel(op, given);
  const shape: Record<string, number> = scalarOperand(op, c.inputs) && n > 1 ? { n, scalar: 1 } : { n };
  const bytes = twoStreamBytes(kernel, shape, c.outputs[0]);
  return {
    family: 'elementwise',
    kernel: { op: kernel, shape },
    flops: (ELEMENTWISE_FLOPS[op] ?? 1) * n,
    ...(bytes === null ? {} : { bytes }),
  };
};

const cast: CostRule = (c) => ({
  family: 'datamove',
  kernel: { op: 'Cast', shape: { n: elems(c.outputs[0]) } },
  flops: 0,
});

// ---- softmax, normalizations, reductions, pools ----

/** com.microsoft BiasSoftmax: softmax(data + bias) over the dims from `axis` (default 1). */
const biasSoftmax: CostRule = (c) => {
  const d = need(c.inputs[0], 'data');
  const cols = product(d.slice(normAxis(int(c, 'axis', 1), d.length)));
  const n = product(d);
  return { family: 'softmax', kernel: { op: 'Softmax', shape: { rows: n / cols, cols } }, flops: 6 * n };
};

const softmax: CostRule = (c) => {
  const d = need(c.inputs[0], 'X');
  const axis = normAxis(int(c, 'axis', c.opset >= 13 ? -1 : 1), d.length);
  const cols = c.opset >= 13 ? (d[axis] ?? 1) : product(d.slice(axis));
  const n = product(d);
  return { family: 'softmax', kernel: { op: 'Softmax', shape: { rows: n / cols, cols } }, flops: 5 * n };
};

function normCost(rows: number, cols: number, perElement: number, op: KernelOp = 'LayerNormalization'): OpCost {
  return { family: 'layernorm', kernel: { op, shape: { rows, cols } }, flops: perElement * rows * cols };
}

/** Skip(Simplified)LayerNormalization is a kernel of its own (build.ts): ~11x LayerNorm per element on the CPU EP. */
const layerNorm: CostRule = (c) => {
  const d = need(c.inputs[0], 'X');
  const axis = normAxis(int(c, 'axis', -1), d.length);
  const cols = product(d.slice(axis));
  if (c.node.opType.startsWith('Skip')) return normCost(product(d) / cols, cols, 9, 'SkipLayerNormalization');
  return normCost(product(d) / cols, cols, 8);
};

/**
 * Inference BatchNormalization (not fused into a conv: after a ConvTranspose, an Add, a
 * concat) is a per-channel affine pass, y = x * a_c + b_c: one read and one write per element,
 * priced as the scalar Mul kernel. Pricing it as a LayerNormalization (reductions and two more
 * passes) over-priced it: measured on the 2-vCPU Zen 4 guest at 1 thread (profiled node,
 * medians), BatchNormalization against a scalar Mul over the same tensor: 24x320x320 776 and
 * 559 µs, 32x112x112 43 and 62, 64x56x56 23 and 21, 128x28x28 14 and 12. In training mode it
 * computes the batch's statistics: a normalization, as InstanceNormalization is.
 */
const batchNorm: CostRule = (c) => {
  if (int(c, 'training_mode', 0) === 1) return channelNorm(2)(c);
  const n = elems(c.outputs[0]);
  return { family: 'elementwise', kernel: { op: 'Mul', shape: n > 1 ? { n, scalar: 1 } : { n } }, flops: 2 * n };
};

/** Per (N, C) plane: BatchNorm in training (2/element), InstanceNorm (8/element). */
const channelNorm =
  (perElement: number): CostRule =>
  (c) => {
    const d = need(c.inputs[0], 'X');
    const rows = (d[0] ?? 1) * (d[1] ?? 1);
    return normCost(rows, product(d) / rows, perElement);
  };

const groupNorm: CostRule = (c) => {
  const d = need(c.inputs[0], 'X');
  const rows = (d[0] ?? 1) * int(c, 'num_groups', 1);
  return normCost(rows, product(d) / rows, 8);
};

const lastAxisNorm: CostRule = (c) => {
  const { rows, cols } = rowsCols(need(c.inputs[0], 'X'));
  return normCost(rows, cols, 8);
};

const embedLayerNorm: CostRule = (c) => {
  const { rows, cols } = rowsCols(need(c.outputs[0], 'output'));
  return { ...normCost(rows, cols, 10), bytes: 3 * tensorBytes(c.outputs[0]) };
};

const REDUCE_FLOPS: Record<string, number> = { ReduceL1: 2, ReduceL2: 2, ReduceSumSquare: 2, ReduceLogSumExp: 5 };

function reductionCost(rows: number, cols: number, flops: number, mean: boolean): OpCost {
  return {
    family: 'reduction',
    kernel: { op: mean ? 'ReduceMean' : 'ReduceSum', shape: { rows: Math.max(rows, 1), cols: Math.max(cols, 1) } },
    flops,
  };
}

const reduce: CostRule = (c) => {
  const n = elems(c.inputs[0]);
  const rows = Math.max(elems(c.outputs[0]), 1);
  const op = c.node.opType;
  return reductionCost(rows, n / rows, (REDUCE_FLOPS[op] ?? 1) * n, op === 'ReduceMean');
};

/** 2-D pools run the pool kernels (square window, first stride); other ranks a reduction. */
const pool: CostRule = (c) => {
  const out = elems(c.outputs[0]);
  const kernel = ints(c, 'kernel_shape') ?? [1];
  const window = product(kernel);
  const x = c.inputs[0]?.dims;
  const base = reductionCost(out, window, out * window, c.node.opType !== 'MaxPool');
  if (!x || x.length !== 4 || kernel.length !== 2) return base;
  const op = c.node.opType === 'MaxPool' ? 'MaxPool' : 'AveragePool';
  const [n, ch, h, w] = x as [number, number, number, number];
  const shape = { N: n, C: ch, H: h, W: w, R: Math.round(Math.sqrt(window)), stride: ints(c, 'strides')?.[0] ?? 1 };
  return { ...base, kernel: { op, shape } };
};

/** 4-D NCHW global pools run the GlobalAveragePool kernel (max pools cost the same); others a reduction. */
const globalPool: CostRule = (c) => {
  const d = need(c.inputs[0], 'X');
  const channelsLast = int(c, 'channels_last', 0) === 1;
  const rows = channelsLast ? (d[0] ?? 1) * (d[d.length - 1] ?? 1) : (d[0] ?? 1) * (d[1] ?? 1);
  const n = product(d);
  const base = reductionCost(rows, n / rows, n, c.node.opType !== 'GlobalMaxPool');
  if (d.length !== 4 || channelsLast) return base;
  const [batch, ch, h, w] = d as [number, number, number, number];
  return { ...base, kernel: { op: 'GlobalAveragePool', shape: { N: batch, C: ch, H: h, W: w } } };
};

// ---- datamove ----

function datamove(dims: readonly number[], flops = 0, bytes?: number): OpCost {
  return { family: 'datamove', kernel: { op: 'Transpose', shape: rowsCols(dims) }, flops, bytes };
}

const transpose: CostRule = (c) => datamove(need(c.inputs[0], 'X'));

/** Ops that write every output element from one read (Pad, Expand, Tile...): default bytes. */
const copyOut: CostRule = (c) => datamove(need(c.outputs[0], 'Y'));

/** Concat: the Concat kernel, rows = dims before the axis, cols = the rest, one part per input. */
const concat: CostRule = (c) => {
  const out = need(c.outputs[0], 'Y');
  const axis = normAxis(int(c, 'axis', 0), out.length);
  const rows = product(out.slice(0, axis));
  const parts = c.inputs.filter((t) => t !== undefined).length;
  return {
    family: 'datamove',
    kernel: { op: 'Concat', shape: { rows: Math.max(rows, 1), cols: product(out.slice(axis)), parts } },
    flops: 0,
  };
};

/** Split: the input's view. */
const splitCost: CostRule = (c) => datamove(need(c.inputs[0], 'X'));

/** Slice, Gather and kin read only what they write, plus the indices. */
const readWhatIsWritten: CostRule = (c) => {
  const out = c.outputs[0];
  const indices = c.node.opType.startsWith('Gather') ? tensorBytes(c.inputs[1]) : 0;
  return datamove(need(out, 'Y'), 0, 2 * tensorBytes(out) + indices);
};

/** 4-D resizes run the Resize kernel at their height scale; others a data movement. */
const resize: CostRule = (c) => {
  const mode = str(c, 'mode', 'nearest');
  const per = mode === 'linear' || mode === 'bilinear' ? 4 : mode === 'cubic' ? 16 : 0;
  const out = need(c.outputs[0], 'Y');
  const base = datamove(out, per * product(out), tensorBytes(c.inputs[0]) + tensorBytes(c.outputs[0]));
  const x = c.inputs[0]?.dims;
  if (!x || x.length !== 4 || out.length !== 4) return base;
  const [n, ch, h, w] = x as [number, number, number, number];
  const scale = Math.max(1, Math.round((out[2] ?? h) / Math.max(h, 1)));
  return { ...base, kernel: { op: 'Resize', shape: { N: n, C: ch, H: h, W: w, scale } } };
};

// ---- recurrent, einsum, attention ----

/**
 * LSTM and GRU run as the recurrent kernel of one direction; a bidirectional layer runs its
 * directions one after the other, as twice the steps. A plain RNN is its gate GEMMs.
 */
const recurrent: CostRule = (c): OpCost => {
  const x = need(c.inputs[0], 'X');
  const w = need(c.inputs[1], 'W');
  const layout = int(c, 'layout', 0);
  const [seq, batch] = layout === 1 ? [x[1] ?? 1, x[0] ?? 1] : [x[0] ?? 1, x[1] ?? 1];
  const input = x[2] ?? 1;
  const dirs = w[0] ?? 1;
  const op = c.node.opType as RecurrentOp;
  const { gates } = RECURRENT_GATES[op];
  const hidden = int(c, 'hidden_size', (w[1] ?? gates) / gates);
  const steps = seq * dirs;
  const flops = recurrentFlops(op, steps, batch, input, hidden);
  if (op === 'RNN')
    return {
      family: 'gemm',
      kernel: { op: 'MatMul', shape: { B: steps, M: batch, N: hidden, K: input + hidden } },
      flops,
    };
  const bytes = Math.ceil(recurrentElements(op, steps, batch, input, hidden) * elementBytes(c.inputs[0]?.dtype ?? 1));
  return { family: 'gemm', kernel: { op, shape: { seq: steps, batch, input, hidden } }, flops, bytes };
};

const einsum: CostRule = (c) => {
  const eq = str(c, 'equation', '');
  const shapes = c.inputs.map((t) => need(t, 'operand'));
  const { terms, output } = parseEinsum(eq, shapes.length);
  const { sizes, ellipsis } = einsumSizes(terms, shapes);
  const size = (letters: string[]): number => product(letters.map((l) => sizes.get(l) ?? 1));
  const all = [...sizes.keys()];
  const total = size(all) * product(ellipsis);
  if (terms.length === 1) {
    const outN = elems(c.outputs[0]);
    return outN === elems(c.inputs[0])
      ? datamove(need(c.outputs[0], 'Y'))
      : reductionCost(outN, elems(c.inputs[0]) / Math.max(outN, 1), elems(c.inputs[0]), false);
  }
  const ta = terms[0] ?? '';
  const inA = (l: string): boolean => ta.includes(l);
  const inB = (l: string): boolean => terms.slice(1).some((t) => t.includes(l));
  const inOut = (l: string): boolean => output.includes(l);
  const batch = size(all.filter((l) => inA(l) && inB(l) && inOut(l))) * product(ellipsis);
  const m = size(all.filter((l) => inA(l) && !inB(l) && inOut(l)));
  const n = size(all.filter((l) => !inA(l) && inB(l) && inOut(l)));
  const k = size(all.filter((l) => !inOut(l)));
  return { family: 'gemm', kernel: { op: 'MatMul', shape: { B: batch, M: m, N: n, K: k } }, flops: 2 * total };
};

function attentionCost(batch: number, heads: number, seqQ: number, seqKv: number, headDim: number, extra = 0): OpCost {
  const scores = batch * heads * seqQ * seqKv;
  return {
    family: 'attention',
    kernel: {
      op: 'Attention',
      shape: { batch, heads, seq: Math.max(1, Math.round(Math.sqrt(seqQ * seqKv))), headDim },
    },
    flops: 4 * scores * headDim + 5 * scores + extra,
  };
}

/** ai.onnx Attention (opset 23): 4-D [B, H, S, D] or 3-D [B, S, H*D] with q_num_heads/kv_num_heads. */
const attention23: CostRule = (c) => {
  const q = need(c.inputs[0], 'Q');
  const k = need(c.inputs[1], 'K');
  if (q.length === 4) return attentionCost(q[0] ?? 1, q[1] ?? 1, q[2] ?? 1, k[2] ?? 1, q[3] ?? 1);
  const heads = int(c, 'q_num_heads', 1);
  return attentionCost(q[0] ?? 1, heads, q[1] ?? 1, k[1] ?? 1, (q[2] ?? heads) / heads);
};

/** com.microsoft Attention: input [B, S, Hin] projected by weights [Hin, 3H], num_heads heads. */
const msAttention: CostRule = (c) => {
  const x = need(c.inputs[0], 'input');
  const w = need(c.inputs[1], 'weights');
  const heads = int(c, 'num_heads', 1);
  const [b, s, hin] = [x[0] ?? 1, x[1] ?? 1, x[2] ?? 1];
  const hidden = (w[1] ?? 3) / 3;
  return attentionCost(b, heads, s, s, hidden / heads, 2 * b * s * hin * (w[1] ?? 1));
};

/** com.microsoft MultiHeadAttention / GroupQueryAttention: query [B, S, N*H]. */
const msMha: CostRule = (c) => {
  const q = need(c.inputs[0], 'query');
  const heads = int(c, 'num_heads', 1);
  const k = c.inputs[1];
  const seqKv = k && k.dims.length === 3 ? (k.dims[1] ?? 1) : k && k.dims.length === 4 ? (k.dims[2] ?? 1) : (q[1] ?? 1);
  const packed = c.node.opType === 'GroupQueryAttention' && !k;
  const kvHeads = int(c, 'kv_num_heads', heads);
  const head = packed ? (q[2] ?? 1) / (heads + 2 * kvHeads) : (q[2] ?? heads) / heads;
  return attentionCost(q[0] ?? 1, heads, q[1] ?? 1, seqKv, head);
};

export const COST_RULES: Record<string, CostRule> = {
  ...Object.fromEntries(Object.keys(ELEMENTWISE_FLOPS).map((op) => [op, elementwise])),
  MatMul: matmulAt(0, 1),
  MatMulInteger: matmulAt(0, 1),
  QLinearMatMul: matmulAt(0, 3),
  FusedMatMul: fusedMatmul,
  TransposeMatMul: fusedMatmul,
  MatMulIntegerToFloat: matmulAt(0, 1),
  DynamicQuantizeMatMul: matmulAt(0, 1),
  MatMulNBits: matMulNBits,
  Gemm: gemmAt(0, 1),
  FusedGemm: fusedGemm,
  QGemm: gemmAt(0, 3),
  Conv: convAt(0, 1),
  FusedConv: fusedConv,
  ConvInteger: convAt(0, 1),
  QLinearConv: convAt(0, 3),
  ConvTranspose: convTranspose,
  Cast: cast,
  CastLike: cast,
  Softmax: softmax,
  LogSoftmax: softmax,
  Hardmax: softmax,
  QLinearSoftmax: softmax,
  LayerNormalization: layerNorm,
  SimplifiedLayerNormalization: layerNorm,
  SkipLayerNormalization: layerNorm,
  SkipSimplifiedLayerNormalization: layerNorm,
  BatchNormalization: batchNorm,
  InstanceNormalization: channelNorm(8),
  GroupNormalization: groupNorm,
  LpNormalization: lastAxisNorm,
  MeanVarianceNormalization: lastAxisNorm,
  LRN: lastAxisNorm,
  EmbedLayerNormalization: embedLayerNorm,
  ...Object.fromEntries(
    [
      'ReduceMean', 'ReduceSum', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2', 'ReduceLogSum',
      'ReduceLogSumExp', 'ReduceSumSquare', 'ArgMax', 'ArgMin', 'TopK',
    ].map((op) => [op, reduce]),
  ), // prettier-ignore
  MaxPool: pool,
  AveragePool: pool,
  LpPool: pool,
  QLinearAveragePool: pool,
  GlobalAveragePool: globalPool,
  GlobalMaxPool: globalPool,
  GlobalLpPool: globalPool,
  QLinearGlobalAveragePool: globalPool,
  Transpose: transpose,
  Concat: concat,
  Pad: copyOut,
  Expand: copyOut,
  Tile: copyOut,
  DepthToSpace: copyOut,
  SpaceToDepth: copyOut,
  OneHot: copyOut,
  ReverseSequence: copyOut,
  ScatterND: copyOut,
  ScatterElements: copyOut,
  Scatter: copyOut,
  ConstantOfShape: copyOut,
  Range: copyOut,
  EyeLike: copyOut,
  Split: splitCost,
  Slice: readWhatIsWritten,
  Gather: readWhatIsWritten,
  GatherElements: readWhatIsWritten,
  GatherND: readWhatIsWritten,
  Resize: resize,
  Upsample: resize,
  LSTM: recurrent,
  GRU: recurrent,
  RNN: recurrent,
  Einsum: einsum,
  Attention: attention23,
  MultiHeadAttention: msMha,
  GroupQueryAttention: msMha,
};

/** com.microsoft rules that differ from the ai.onnx op of the same name. */
export const MS_COST_RULES: Record<string, CostRule> = { Attention: msAttention, BiasSoftmax: biasSoftmax };

/**
 * ReorderInput / ReorderOutput: the reorder kernel of the NCHW side (input / output; NHWC
 * with channels_last), with the kernel's bytes (ORT's reorders are fp32; the block padding
 * is not counted); a Transpose of it, marked `reorder: 1`, when it is not 4-D.
 */
const reorder =
  (op: 'ReorderInput' | 'ReorderOutput'): CostRule =>
  (c) => {
    const dims = need(op === 'ReorderInput' ? c.inputs[0] : c.outputs[0], 'X');
    const [N, a, b, d] = dims;
    if (dims.length !== 4 || N === undefined || a === undefined || b === undefined || d === undefined)
      return withKeys(datamove(dims), { reorder: 1 });
    const shape = int(c, 'channels_last', 0) ? { N, C: d, H: a, W: b } : { N, C: a, H: b, W: d };
    return { family: 'datamove', kernel: { op, shape }, flops: 0, bytes: kernelBytes(op, 'fp32', shape) };
  };

const nchwcAs =
  (rule: CostRule): CostRule =>
  (c) =>
    withKeys(rule(c), { nchwc: 1 });

/** ONNX Runtime's NCHWc ops (com.microsoft.nchwc). */
export const NCHWC_COST_RULES: Record<string, CostRule> = {
  Conv: nchwcConv,
  ReorderInput: reorder('ReorderInput'),
  ReorderOutput: reorder('ReorderOutput'),
  MaxPool: nchwcAs(pool),
  AveragePool: nchwcAs(pool),
  GlobalAveragePool: nchwcAs(globalPool),
  GlobalMaxPool: nchwcAs(globalPool),
  Upsample: nchwcAs(resize),
};
