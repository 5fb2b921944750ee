/**
 * Micro-kernel vocabulary: which ops are profiled, how they are grouped, what a kernel is. Pure.
 */
import type { Dtype } from '../domain/measurement.js';
import { PROFILED_DTYPES } from '../domain/dtypes.js';

export const KERNEL_OPS = [
  'MatMul',
  'Gemm',
  'Conv',
  'Add',
  'Mul',
  'Relu',
  'Gelu',
  'Sigmoid',
  'ReduceSum',
  'ReduceMean',
  'Softmax',
  'LayerNormalization',
  'SkipLayerNormalization',
  'Attention',
  'Transpose',
  'Cast',
  'CopyH2D',
  'CopyD2H',
  'MaxPool',
  'AveragePool',
  'GlobalAveragePool',
  'Concat',
  'Resize',
  // Elementwise ops that cost per element what Add, Mul, Relu and Sigmoid do not: measured on
  // ORT 1.30's CPU EP at 25k-262k elements, Div takes 1.8x Mul, Sqrt 4x Relu, Erf 1.8x Sigmoid,
  // Softplus 40x Sigmoid, and Clip and LeakyRelu run 2x slower on 2 threads than on 1.
  'Div',
  'Clip',
  'Pow',
  'Sqrt',
  'Exp',
  'Log',
  'Tanh',
  'Erf',
  'HardSigmoid',
  'HardSwish',
  'LeakyRelu',
  'Softplus',
  // ONNX Runtime's NCHWc layout changes (com.microsoft.nchwc), timed inside the kernels ORT
  // wraps with them (TIMED_INSIDE_OPS).
  'ReorderInput',
  'ReorderOutput',
  // Recurrent layers as ORT runs them: one node whose steps run one after another. Priced as
  // a batched MatMul before, which ORT splits across threads by batch; an LSTM cannot split
  // its steps: a one-step 128-unit LSTM took 8.7 µs at 1 thread and 11.1 at 2 here.
  'LSTM',
  'GRU',
] as const;
export type KernelOp = (typeof KERNEL_OPS)[number];

/**
 * Ops no suite builds alone: ORT's CPU EP inserts a ReorderInput before and a ReorderOutput
 * after every lone NCHWc conv or pool, and the profiler stores those nodes' own trace times
 * as measurements of their NCHW map (services/profile/inserted-reorders.ts). They were priced as
 * 2-D transposes before, and ORT's Transpose of the same map ran 2-10x slower than the
 * reorder at 2 threads here (C 144 x 28 x 28: 202 against 18-26 µs).
 */
export const TIMED_INSIDE_OPS: ReadonlySet<KernelOp> = new Set<KernelOp>(['ReorderInput', 'ReorderOutput']);

/**
 * The op families the predictor groups kernels by, each with the roofline it sits under:
 * compute-bound (its peak is a device's FLOP/s), memory-bound (its peak is a device's
 * bandwidth), or a host-device copy (neither). The order is the order of the predictor's
 * family features (predictor/features.ts): appending keeps stored predictors readable.
 */
export const KERNEL_FAMILY_BOUND = {
  gemm: 'compute',
  conv: 'compute',
  elementwise: 'memory',
  reduction: 'memory',
  softmax: 'memory',
  layernorm: 'memory',
  attention: 'compute',
  datamove: 'memory',
  copy: 'copy',
} as const satisfies Record<string, 'compute' | 'memory' | 'copy'>;
export type KernelFamily = keyof typeof KERNEL_FAMILY_BOUND;
/** Every family, in the table's order. */
export const KERNEL_FAMILIES = Object.keys(KERNEL_FAMILY_BOUND) as readonly KernelFamily[];
/** The families whose roofline is a device's FLOP/s (gemm, conv, attention). */
export const COMPUTE_FAMILIES: ReadonlySet<string> = familiesBound('compute');
/** The families whose roofline is a device's bandwidth (elementwise, data movement, reductions, norms). */
export const MEMORY_FAMILIES: ReadonlySet<string> = familiesBound('memory');

function familiesBound(bound: 'compute' | 'memory'): ReadonlySet<string> {
  return new Set(KERNEL_FAMILIES.filter((f) => KERNEL_FAMILY_BOUND[f] === bound));
}

export interface KernelSpec {
  /** Stable: `${op}.${dtype}.${shapeKey(shape)}`. */
  id: string;
  op: KernelOp;
  family: KernelFamily;
  /** Element type of the (first) input; Cast converts it to the other float type. */
  dtype: Dtype;
  /**
   * Named dims (OP_DIMS), plus the optional dims of OP_OPTIONAL_DIMS that are not 0.
   * gemm {B,M,N,K} (Gemm: {M,N,K}); Conv {N,C,H,W,K,R,S,stride,groups} (+ act, d1, valid,
   * transpose); attention {batch,heads,seq,headDim}; ReduceSum/Mean, softmax, layernorm,
   * Transpose {rows,cols}; MaxPool/AveragePool {N,C,H,W,R,stride}; GlobalAveragePool {N,C,H,W};
   * Concat {rows,cols,parts}; Resize {N,C,H,W,scale}; elementwise, Cast, copies {n};
   * ReorderInput / ReorderOutput {N,C,H,W}: the NCHW side of the map; LSTM, GRU
   * {seq,batch,input,hidden} (one direction).
   * Conventions (windows, pads, layouts) are in cost.ts and build.ts.
   */
  shape: Record<string, number>;
  /** Floating-point operations of one run (conventions in cost.ts). */
  flops: number;
  /** Minimum bytes one run must move (conventions in cost.ts). */
  bytes: number;
  /**
   * Reduced-precision compute (fp16/bf16 arithmetic): meant for accelerator EPs. CPU EPs lack
   * these kernels or upconvert internally, so a CPU timing would not describe the hardware.
   */
  gpuOnly: boolean;
}

/** Dims each op's shape must have, in the order they are documented. */
export const OP_DIMS: Record<KernelOp, readonly string[]> = {
  MatMul: ['B', 'M', 'N', 'K'],
  Gemm: ['M', 'N', 'K'],
  Conv: ['N', 'C', 'H', 'W', 'K', 'R', 'S', 'stride', 'groups'],
  Add: ['n'],
  Mul: ['n'],
  Relu: ['n'],
  Gelu: ['n'],
  Sigmoid: ['n'],
  ReduceSum: ['rows', 'cols'],
  ReduceMean: ['rows', 'cols'],
  Softmax: ['rows', 'cols'],
  LayerNormalization: ['rows', 'cols'],
  SkipLayerNormalization: ['rows', 'cols'],
  Attention: ['batch', 'heads', 'seq', 'headDim'],
  Transpose: ['rows', 'cols'],
  Cast: ['n'],
  CopyH2D: ['n'],
  CopyD2H: ['n'],
  MaxPool: ['N', 'C', 'H', 'W', 'R', 'stride'],
  AveragePool: ['N', 'C', 'H', 'W', 'R', 'stride'],
  GlobalAveragePool: ['N', 'C', 'H', 'W'],
  Concat: ['rows', 'cols', 'parts'],
  Resize: ['N', 'C', 'H', 'W', 'scale'],
  Div: ['n'],
  Clip: ['n'],
  Pow: ['n'],
  Sqrt: ['n'],
  Exp: ['n'],
  Log: ['n'],
  Tanh: ['n'],
  Erf: ['n'],
  HardSigmoid: ['n'],
  HardSwish: ['n'],
  LeakyRelu: ['n'],
  Softplus: ['n'],
  ReorderInput: ['N', 'C', 'H', 'W'],
  ReorderOutput: ['N', 'C', 'H', 'W'],
  LSTM: ['seq', 'batch', 'input', 'hidden'],
  GRU: ['seq', 'batch', 'input', 'hidden'],
};

/**
 * Optional dims, each with the largest value it takes. An absent optional dim means 0, and
 * makeKernel drops a 0, so a kernel without the option keeps the shape and id it had before
 * the option existed; a non-zero one follows the required dims in the shape and enters the id.
 *
 *   Conv act   1 = the conv is followed by Relu in the micro-model. ORT fuses the pair (FusedConv,
 *              or an NCHWc conv with an activation), which is what optimized CNNs execute.
 *   Conv d1    1 = a 1-D conv: X [N, C, H], W [K, C/groups, R] (W and S are 1). ORT runs it
 *              as im2col + SGEMM in NCHW and never converts it to NCHWc, which an H x 1 2-D
 *              conv with K a multiple of the SIMD block gets; MLAS's SGEMM pads the output
 *              positions to 16-column panels, so a conv over a few positions (streaming audio)
 *              costs far more than its FLOPs.
 *   Conv transpose 1 = ConvTranspose (pads 0): X [N, C, H, W], W [C, K/groups, R, S], output
 *              (H - 1) * stride + R. ORT's CPU EP runs it as a GEMM per group and a col2im
 *              scatter over the output, never as NCHWc: a stride-1 conv of the same FLOPs (how
 *              it was priced before) ran 2.4-2.8x faster than the real one here.
 *   Conv valid 1 = no padding (ONNX's pads all 0: STFT-as-conv front ends, wav2vec2's
 *              feature encoder) instead of floor(R/2) and floor(S/2) on each side.
 *   Add, Mul scalar 1 = the second operand is a scalar constant (x + 3 of a decomposed
 *              HardSwish, x * 0.5 of GELU, a learned scalar scale or shift): ORT's broadcast
 *              loop reads one input stream, not two, so the op moves 8 bytes per fp32 element,
 *              not 12. Without it both operands are full tensors.
 *   MatMul distinct D = D matrix-vector products in a row (B = 1, N = K), each with its own
 *              weight, as a decode step reads its layers' weights: together larger than the
 *              last-level cache, so each weight streams from memory once per run, where one
 *              GEMV timed again and again may find its weight in cache. The decode model reads
 *              its streaming bandwidth from these (services/predict/generation-service.ts).
 */
export const OP_OPTIONAL_DIMS: Partial<Record<KernelOp, Readonly<Record<string, number>>>> = {
  MatMul: { distinct: 1024 },
  Conv: { act: 1, d1: 1, valid: 1, transpose: 1 },
  Add: { scalar: 1 },
  Mul: { scalar: 1 },
};

export const OP_FAMILY: Record<KernelOp, KernelFamily> = {
  MatMul: 'gemm',
  Gemm: 'gemm',
  Conv: 'conv',
  Add: 'elementwise',
  Mul: 'elementwise',
  Relu: 'elementwise',
  Gelu: 'elementwise',
  Sigmoid: 'elementwise',
  ReduceSum: 'reduction',
  ReduceMean: 'reduction',
  Softmax: 'softmax',
  LayerNormalization: 'layernorm',
  SkipLayerNormalization: 'layernorm',
  Attention: 'attention',
  Transpose: 'datamove',
  Cast: 'datamove',
  CopyH2D: 'copy',
  CopyD2H: 'copy',
  MaxPool: 'reduction',
  AveragePool: 'reduction',
  GlobalAveragePool: 'reduction',
  Concat: 'datamove',
  Resize: 'datamove',
  Div: 'elementwise',
  Clip: 'elementwise',
  Pow: 'elementwise',
  Sqrt: 'elementwise',
  Exp: 'elementwise',
  Log: 'elementwise',
  Tanh: 'elementwise',
  Erf: 'elementwise',
  HardSigmoid: 'elementwise',
  HardSwish: 'elementwise',
  LeakyRelu: 'elementwise',
  Softplus: 'elementwise',
  ReorderInput: 'datamove',
  ReorderOutput: 'datamove',
  LSTM: 'gemm',
  GRU: 'gemm',
};

const FLOATS: readonly Dtype[] = ['fp32', 'fp16', 'bf16'];

/**
 * Dtypes each op is built for: the ONNX opset-17 type constraints (Conv has no bf16, ReduceSum
 * no int8), narrowed to what is worth profiling (integer arithmetic only for Add/Mul on
 * int32/int64). Cast is fp32 -> fp16 or fp16 -> fp32. Pools, Concat and Resize: the float
 * types CNNs run in (fp32, fp16).
 */
export const OP_DTYPES: Record<KernelOp, readonly Dtype[]> = {
  // fp8: weight GEMMs of a model planned in fp8 on a datasheet GPU; no suite profiles them.
  MatMul: [...FLOATS, 'fp8'],
  Gemm: [...FLOATS, 'fp8'],
  Conv: ['fp32', 'fp16'],
  Add: [...FLOATS, 'int32', 'int64'],
  Mul: [...FLOATS, 'int32', 'int64'],
  Relu: FLOATS,
  Gelu: FLOATS,
  Sigmoid: FLOATS,
  ReduceSum: FLOATS,
  ReduceMean: FLOATS,
  Softmax: FLOATS,
  LayerNormalization: FLOATS,
  SkipLayerNormalization: FLOATS,
  Attention: FLOATS,
  Transpose: PROFILED_DTYPES,
  Cast: ['fp32', 'fp16'],
  CopyH2D: PROFILED_DTYPES,
  CopyD2H: PROFILED_DTYPES,
  MaxPool: ['fp32', 'fp16'],
  AveragePool: ['fp32', 'fp16'],
  GlobalAveragePool: ['fp32', 'fp16'],
  Concat: ['fp32', 'fp16'],
  Resize: ['fp32', 'fp16'],
  Div: ['fp32', 'fp16'],
  Clip: ['fp32', 'fp16'],
  Pow: ['fp32', 'fp16'],
  Sqrt: ['fp32', 'fp16'],
  Exp: ['fp32', 'fp16'],
  Log: ['fp32', 'fp16'],
  Tanh: ['fp32', 'fp16'],
  Erf: ['fp32', 'fp16'],
  HardSigmoid: ['fp32', 'fp16'],
  HardSwish: ['fp32', 'fp16'],
  LeakyRelu: ['fp32', 'fp16'],
  Softplus: ['fp32', 'fp16'],
  ReorderInput: ['fp32'],
  ReorderOutput: ['fp32'],
  LSTM: ['fp32', 'fp16'],
  GRU: ['fp32', 'fp16'],
};
