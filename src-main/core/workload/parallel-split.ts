/**
 * How many of a CPU's intra-op threads ONNX Runtime (1.30, CPU provider) splits a node's work
 * across: ORT decides per op, from a cost model, and MLAS by its own thresholds. A node it does
 * not split runs at its 1-thread time whatever the thread count; one split into fewer blocks
 * than threads gains at most that many. From ORT's source (line numbers of the files as read):
 *
 * - ThreadPool::ParallelFor (onnxruntime/core/common/threadpool.cc, ParallelFor(n, TensorOpCost)):
 *   runs f(0, n) on the caller when `!ShouldParallelizeLoop(n)` (n <= 1) or when
 *   `CostModel::numThreads(n, cost, d_of_p) == 1`, CostModel being Eigen's TensorCostModel
 *   (unsupported/Eigen/CXX11/src/Tensor/TensorCostModel.h): total = n * (bytes_loaded * 11/64
 *   + bytes_stored * 11/64 + compute_cycles); threads = int((total - 100000) / 100000 + 0.9),
 *   clamped to [1, d_of_p]. So a loop is split only from 210,000 cost units on.
 * - Activations (core/providers/cpu/activation/activations.h, ElementWiseKernel::Compute):
 *   TryParallelFor(n elements, {sizeof(T), sizeof(T), f.Cost()}), Cost() per functor (ACTIVATION_COST).
 * - Add, Sub, Mul (core/providers/cpu/math/element_wise_ops.cc, UntypedBroadcastTwo with
 *   unit_cost 1.0): one span split by {max input element size, output element size, 1.0} per
 *   element, or spans split at span times that: the same total, n * 2.375 for fp32.
 * - MatMul, Gemm (core/mlas/lib/sgemm.cpp, MlasGemmBatch): target = int(M*N*K / 65536) + 1
 *   threads (MLAS_SGEMM_THREAD_COMPLEXITY), at most the pool's; ThreadsPerGemm =
 *   ceil(target / batch), at most ceil(N / 16) when N > M (MLAS_SGEMM_STRIDEN_THREAD_ALIGN),
 *   else M; ThreadsPerGemm * batch work items go to MlasTrySimpleParallel.
 * - Conv, plain (core/mlas/lib/convolve.cpp, MlasConvPrepare and MlasConv): by the algorithm
 *   MlasConvPrepare picks, per group (FilterCount filters, OutputSize positions, K = channels x
 *   window): a pointwise conv (1x1, stride 1, unpadded) is GemmDirect, and a conv with more
 *   filters than output positions is ExpandThenGemm (im2col on the caller, then MlasGemm): both
 *   run the threaded GEMM, split as MlasGemmBatch splits a FilterCount x OutputSize x K GEMM
 *   (below), a GemmDirect of several batches or groups over them. Only the others are
 *   ExpandThenGemmSegmented: the same complexity rule, then the output split in strides aligned
 *   to 16, a stride that covers the whole output leaving 1 thread; with several batches or
 *   groups, those as work items. (Silero VAD's STFT conv, 258 filters over 3 positions: a
 *   threaded GEMM, 22 -> 16.6 µs from 1 to 2 threads in bench:prediction run r, Zen 4.)
 * - Conv, NCHWc (core/mlas/lib/snchwc.cpp, MlasNchwcConv): `WorkBlock.tids =
 *   MlasGetMaximumThreadCount(ThreadPool)` unconditionally, the work (PrepareWork's TotalWork:
 *   batch x groups x filter sets of 4 blocks x output rows) cut evenly over them by
 *   MlasPartitionWork: split however small, but a map of few rows splits unevenly. NCHWc global
 *   pools (MlasNchwcPool) the same over batch x channel blocks.
 * - ReorderOutput, NCHWc to NCHW (core/mlas/lib/reorder.cpp, MlasReorderOutputNchw): split above
 *   1,024 elements over min(threads, batch x channel blocks), evenly (MlasPartitionWork).
 * - LayerNormalization (core/providers/cpu/nn/layer_norm_impl.cc): TryBatchParallelFor over its
 *   rows, min(rows, threads) batches.
 * Other ops: null (not known here; priced as today, on the device's thread count). Pure.
 */
import { convOutDims } from '../kernels/cost.js';
import type { WorkloadNode } from './types.js';

/** Eigen's TensorCostModel constants (device cycles), as ORT's ParallelFor uses them. */
const EIGEN_COST_MODEL = {
  startupCycles: 100_000,
  perThreadCycles: 100_000,
  /** Cost of a loaded and of a stored byte: an L2 hit (11 cycles) per 64-byte line. */
  loadCyclesPerByte: 11 / 64,
  storeCyclesPerByte: 11 / 64,
} as const;

/** MLAS_SGEMM_THREAD_COMPLEXITY: multiply-adds per thread before MLAS adds one. */
const MLAS_GEMM_THREAD_COMPLEXITY = 65_536;

/** MLAS_SGEMM_STRIDEN_THREAD_ALIGN: columns per thread stride are a multiple of this. */
const MLAS_STRIDE_N_ALIGN = 16;

/** compute_cycles per element that ORT's activation functors declare (activations.h, Cost()). */
const ACTIVATION_COST = {
  Relu: 1,
  Sigmoid: 2,
  Tanh: 1,
  Softsign: 1,
  ThresholdedRelu: 1,
  HardSigmoid: 0.5,
  Selu: 4,
  Softplus: 15,
  LeakyRelu: 25,
  Elu: 30,
} as const;

/** compute_cycles per element of the binary ops that pass unit_cost 1.0 to UntypedBroadcastTwo. */
const BINARY_UNIT_COST: Readonly<Record<string, number>> = { Add: 1, Sub: 1, Mul: 1 };

/** One loop iteration's cost as ORT states it (TensorOpCost). */
export interface LoopCost {
  bytesLoaded: number;
  bytesStored: number;
  computeCycles: number;
}

/** Threads Eigen's cost model gives a loop of `iterations` at `cost` each, of `maxThreads` (ThreadPool::ParallelFor). */
export function eigenThreads(iterations: number, cost: LoopCost, maxThreads: number): number {
  if (iterations <= 1 || maxThreads <= 1) return 1;
  const m = EIGEN_COST_MODEL;
  const total =
    iterations *
    (cost.bytesLoaded * m.loadCyclesPerByte + cost.bytesStored * m.storeCyclesPerByte + cost.computeCycles);
  const threads = Math.trunc((total - m.startupCycles) / m.perThreadCycles + 0.9);
  return Math.min(maxThreads, Math.max(1, threads));
}

/** MLAS's target threads for `multiplyAdds` of GEMM-like work, of `maxThreads`. */
function mlasTarget(multiplyAdds: number, maxThreads: number): number {
  return Math.min(maxThreads, Math.floor(multiplyAdds / MLAS_GEMM_THREAD_COMPLEXITY) + 1);
}

/** Threads MLAS splits a batch of `batch` [M, K] x [K, N] GEMMs across (MlasGemmBatch). */
export function mlasGemmThreads(m: number, n: number, k: number, batch: number, maxThreads: number): number {
  const target = mlasTarget(m * n * k, maxThreads);
  const b = Math.max(1, batch);
  const perGemm = Math.min(Math.ceil(target / b), n > m ? Math.ceil(n / MLAS_STRIDE_N_ALIGN) : Math.max(1, m));
  return Math.min(maxThreads, Math.max(1, perGemm * b));
}

/** Threads of a plain (not NCHWc) MLAS conv, group 1 (MlasConvPrepare): complexity, then 16-aligned output strides. */
export function mlasConvThreads(filters: number, outputSize: number, k: number, maxThreads: number): number {
  let threads = mlasTarget(filters * outputSize * k, maxThreads);
  if (threads <= 1) return 1;
  let stride = Math.ceil(outputSize / threads);
  stride = Math.ceil(stride / MLAS_STRIDE_N_ALIGN) * MLAS_STRIDE_N_ALIGN;
  if (stride >= outputSize) return 1;
  if (stride * (threads - 1) >= outputSize) threads--;
  return threads;
}

const FP32_BYTES = 4;

/** A conv's output rows and positions from its kernel shape (H, W are the input's; 'same' padding assumed). */
function convOutput(s: Record<string, number>): { rows: number; size: number } {
  const stride = Math.max(1, s['stride'] ?? 1);
  const rows = Math.max(1, Math.ceil((s['H'] ?? 1) / stride));
  const cols = Math.max(1, Math.ceil((s['W'] ?? 1) / stride));
  return { rows, size: rows * cols };
}

/** Filters an NCHWc conv kernel computes per pass over its input: MaxFilterCount blocks (snchwc.cpp FilterSetSize). */
const NCHWC_FILTER_SET_BLOCKS = 4;

/**
 * How far `units` equal work units spread over `threads` (MlasPartitionWork's even split): the
 * busiest thread does ceil(units / threads), so the work takes that share of its 1-thread time.
 */
export function partitionSpeedup(units: number, threads: number): number {
  const u = Math.max(1, Math.floor(units));
  return u / Math.ceil(u / Math.max(1, threads));
}

/**
 * An NCHWc conv's work units (snchwc.cpp PrepareWork): batch x groups x filter sets x output
 * rows, a filter set being 4 blocks of output channels; a depthwise conv's: batch x channel
 * blocks x output rows.
 */
export function nchwcConvUnits(s: Record<string, number>, block: number): number {
  const batch = Math.max(1, s['N'] ?? 1);
  const groups = Math.max(1, s['groups'] ?? 1);
  const filters = Math.max(1, s['K'] ?? 1);
  const rows = convOutput(s).rows;
  if (groups > 1 && (s['C'] ?? 1) / groups === 1) return batch * Math.ceil(filters / block) * rows;
  return batch * groups * Math.ceil(filters / groups / (block * NCHWC_FILTER_SET_BLOCKS)) * rows;
}

/** MlasConvPrepare's algorithms for a plain (not NCHWc) fp32 conv. */
export const MLAS_CONV_ALGORITHMS = ['GemmDirect', 'ExpandThenGemm', 'ExpandThenGemmSegmented'] as const;
export type MlasConvAlgorithm = (typeof MLAS_CONV_ALGORITHMS)[number];

/** A plain conv's GEMM per group: FilterCount x OutputSize x K, its output positions from its own padding. */
function plainConvGemm(s: Record<string, number>): { filters: number; positions: number; k: number } {
  const groups = Math.max(1, s['groups'] ?? 1);
  const [ho, wo] = convOutDims(s);
  return {
    filters: Math.max(1, Math.floor((s['K'] ?? 1) / groups)),
    positions: Math.max(1, ho) * Math.max(1, wo),
    k: Math.max(1, Math.floor((s['C'] ?? 1) / groups)) * (s['R'] ?? 1) * (s['S'] ?? 1),
  };
}

/** The algorithm MlasConvPrepare picks for a plain conv's kernel shape (its 2-D special cases aside). */
export function mlasConvAlgorithm(s: Record<string, number>): MlasConvAlgorithm {
  const pointwise = (s['R'] ?? 1) === 1 && (s['S'] ?? 1) === 1 && (s['stride'] ?? 1) === 1;
  if (pointwise) return 'GemmDirect';
  const g = plainConvGemm(s);
  return g.filters > g.positions ? 'ExpandThenGemm' : 'ExpandThenGemmSegmented';
}

function convThreads(s: Record<string, number>, maxThreads: number, block: number): number {
  if (s['nchwc']) return partitionSpeedup(nchwcConvUnits(s, block), maxThreads);
  const items = Math.max(1, s['N'] ?? 1) * Math.max(1, s['groups'] ?? 1);
  const g = plainConvGemm(s);
  const algorithm = mlasConvAlgorithm(s);
  // ExpandThenGemm runs its batches and groups one after another, each GEMM threaded.
  if (algorithm === 'ExpandThenGemm' || (algorithm === 'GemmDirect' && items === 1))
    return mlasGemmThreads(g.filters, g.positions, g.k, 1, maxThreads);
  if (items > 1) return partitionSpeedup(items, maxThreads);
  return mlasConvThreads(g.filters, g.positions, g.k, maxThreads);
}

/**
 * MlasReorderOutputNchw (reorder.cpp): one thread up to 1,024 elements or a single task, else
 * min(threads, tasks) threads over batch x channel blocks. (An NHWC reorder,
 * MlasReorderOutputNhwc, runs on one thread; its kernel shape does not say which it is.)
 */
function reorderOutputThreads(s: Record<string, number>, maxThreads: number, block: number): number {
  const batch = Math.max(1, s['N'] ?? 1);
  const channels = Math.max(1, s['C'] ?? 1);
  const tasks = batch * Math.ceil(channels / block);
  if (batch * channels * (s['H'] ?? 1) * (s['W'] ?? 1) <= 1024 || tasks <= 1) return 1;
  return partitionSpeedup(tasks, Math.min(maxThreads, tasks));
}

const GEMM_OPS = new Set(['MatMul', 'FusedMatMul', 'Gemm', 'FusedGemm']);
const CONV_OPS = new Set(['Conv', 'FusedConv']);
const GLOBAL_POOL_OPS = new Set(['GlobalAveragePool', 'GlobalMaxPool']);

/**
 * How many threads' worth of speed-up ORT can give `node` at `maxThreads` intra-op threads: 1
 * when it is not split, the threads it is split across, or less when its work units do not
 * divide evenly among them (3 NCHWc rows on 2 threads: 1.5). Null when its kernel's parallel
 * decision is not modelled here. Read by the node's own op (a Max priced as the Add kernel
 * runs another loop than Add's), its sizes from its kernel shape; `nchwcBlock` is the graph's
 * NCHWc block (16 with AVX-512, 8 with AVX2).
 */
export function threadsUsed(
  node: Pick<WorkloadNode, 'opType' | 'kernel' | 'dtype'>,
  maxThreads: number,
  nchwcBlock = 16,
): number | null {
  if (maxThreads <= 1) return 1;
  const k = node.kernel;
  if (!k || node.dtype !== 'fp32') return null;
  const s = k.shape;
  const perElement = ACTIVATION_COST[node.opType as keyof typeof ACTIVATION_COST] ?? BINARY_UNIT_COST[node.opType];
  if (perElement !== undefined) {
    const cost = { bytesLoaded: FP32_BYTES, bytesStored: FP32_BYTES, computeCycles: perElement };
    return eigenThreads(s['n'] ?? 1, cost, maxThreads);
  }
  if (GEMM_OPS.has(node.opType) && (k.op === 'MatMul' || k.op === 'Gemm')) {
    return mlasGemmThreads(s['M'] ?? 1, s['N'] ?? 1, s['K'] ?? 1, s['B'] ?? 1, maxThreads);
  }
  if (CONV_OPS.has(node.opType) && k.op === 'Conv')
    return s['transpose'] ? null : convThreads(s, maxThreads, nchwcBlock);
  if (GLOBAL_POOL_OPS.has(node.opType) && s['nchwc']) {
    // MlasNchwcPool: batch x channel blocks x output rows (one, for a global pool), over every thread.
    return partitionSpeedup(Math.max(1, s['N'] ?? 1) * Math.ceil((s['C'] ?? 1) / nchwcBlock), maxThreads);
  }
  if (node.opType === 'ReorderOutput' && k.op === 'ReorderOutput')
    return reorderOutputThreads(s, maxThreads, nchwcBlock);
  if (node.opType === 'LayerNormalization') return Math.min(maxThreads, Math.max(1, s['rows'] ?? 1));
  return null;
}

/**
 * A split node's time inside a model at N threads: its prediction at N threads, but never below
 * an ideal split of its 1-thread time over the threads ORT gives it plus what one parallel op
 * costs the pool (dispatch, the barrier at its end; RunOverhead.parallelOpUs, measured by the
 * profile). A kernel label is a chained or traced timing at N threads and holds that cost
 * already; a prediction that promises more than the split allows (a small node priced from
 * larger kernels' speed-ups) is raised to it.
 */
export function splitNodeUs(atThreadsUs: number, oneThreadUs: number, threads: number, parallelOpUs: number): number {
  return Math.max(atThreadsUs, oneThreadUs / Math.max(1, threads) + Math.max(0, parallelOpUs));
}
