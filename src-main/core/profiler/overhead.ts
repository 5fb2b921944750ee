/**
 * What a run costs beyond its kernels: a fixed cost per run (session.run, the executor's
 * setup, binding a tiny input) and a cost per executed node (the executor's bookkeeping,
 * output allocation, the kernel call itself). Measured on each device from chains of 1..N
 * tiny nodes timed without the ORT trace, whose kernels do next to nothing:
 *
 *   T(N) = runUs + nodeUs * N        (a robust line over the chain lengths)
 *
 * A micro-kernel's label is its node's own time, so a whole model's prediction is
 * runUs + sum(node predictions) + nodeUs * (executed nodes).
 *
 * runUs is timed from Node, so it holds what the Node binding adds to every call (wrapping
 * the feeds, calling in, wrapping the outputs) besides ONNX Runtime's own per-run cost. The
 * binding is measured apart (fitBinding) from one-node models whose inputs and outputs grow:
 * per model, the untraced wall time from Node less the device's part (ORT's model_run of a
 * traced pass less what the ORT trace adds to it), fitted as perCallUs + bytes * nsPerByte.
 * Device time leaves it out (deviceRunUs); callers that run from Node add it back.
 *
 * On a CPU at more than one thread, a run may also pay for waking the intra-op pool at its
 * first parallel node. It is measured (fitWake) from chains of small square MatMuls that MLAS
 * splits across the threads: the chain's intercept at the device's thread count less the same
 * chain's intercept at one thread, where nothing is split. The same chains' slopes give what one
 * parallel node costs beyond an ideal split (fitParallelOp). Pure.
 */
import { encodeModel, OnnxDataType, type NodeDef, type TensorDef } from '../onnx/model-builder.js';
import { mlasGemmThreads } from '../workload/parallel-split.js';
import { fitLine, fitRobustLine, medianPairwiseSlope } from './device-summary.js';
import type { TraceReadings } from './trace-cost.js';

/** Chain lengths timed on each device. */
export const CHAIN_LENGTHS: readonly number[] = [1, 16, 64, 256];

/** Rounds over the chain lengths, each visiting every length in turn. */
export const CHAIN_ROUNDS = 3;

/** Elements of the chain's tensor: small enough that every kernel is a few nanoseconds. */
export const CHAIN_ELEMENTS = 16;

/**
 * Elements of the one-node models whose inputs and outputs the binding copies (4 bytes each):
 * up to 1 MiB each way. Bigger outputs (4 MiB) made the binding's time bimodal here (0.45 or
 * 2.5 ms for the same call, by the phase of Node's garbage collector).
 */
export const BINDING_ELEMENTS: readonly number[] = [CHAIN_ELEMENTS, 1 << 14, 1 << 18];

/** What the Node binding adds to a call: t = perCallUs + (input + output bytes) * nsPerByte / 1000. */
export interface BindingCost {
  perCallUs: number;
  nsPerByte: number;
  /** The one-node models it came from: input + output bytes -> binding µs (wall less device). */
  points: { bytes: number; bindingUs: number }[];
}

export interface RunOverhead {
  /** Fixed cost of one run, µs (includes binding a 64-byte input and output from the caller). */
  runUs: number;
  /** Cost of each executed node beyond its kernel's own time, µs. */
  nodeUs: number;
  /**
   * What the ORT trace adds to every node's trace time (µs): a tiny node's median trace
   * time. Kernel labels read from traces have it taken off; null when not measured. (Named
   * `profiler...` for ORT's profiler: stored profiles keep the key.)
   */
  profilerNodeUs: number | null;
  /**
   * The traced chain's per-node readings profilerNodeUs was read from, grouped by whole µs (before
   * any bound): kept so a stored profile can be read again. Absent in older profiles and off ORT.
   */
  profilerNodeReadings?: TraceReadings;
  /** The chain timings the fit came from: nodes -> median µs. */
  points: { nodes: number; medianUs: number }[];
  /** The Node binding's share of runUs and its cost per byte; null when not measured. */
  binding?: BindingCost | null;
  /**
   * What the ORT trace adds to model_run per node (inside and between node events, µs); null
   * when not measured. (Named `profiler...` for ORT's profiler: stored profiles keep the key.)
   */
  profilerRunNodeUs?: number | null;
  /**
   * What a run pays once for waking the intra-op pool at its first parallel node (µs, fitWake);
   * null when not measured (one thread, a GPU, an older profile).
   */
  wakeUs?: number | null;
  /**
   * What one node split across the intra-op pool costs beyond an ideal split of its 1-thread
   * time (µs, fitParallelOp): dispatching its blocks and the barrier at its end. Null when not
   * measured (one thread, a GPU, an older profile).
   */
  parallelOpUs?: number | null;
  /**
   * PyTorch in eager mode: what one op call costs beyond its work (the dispatch from Python),
   * the slope of its overhead chains (µs). It is inside every kernel's own time, so nodeUs is 0
   * there; a model that counts only bytes and FLOPs (the decode step) adds it per op. Null or
   * absent for ONNX Runtime.
   */
  dispatchUs?: number | null;
}

/** A device's per-run, per-node and Node binding costs (µs), as reported to users. */
export interface MeasuredOverhead {
  /** ONNX Runtime's own fixed cost per run, the binding's per-call part taken off. */
  runUs: number;
  /** Cost of each executed node beyond its kernel's own time. */
  nodeUs: number;
  /** What the Node binding adds to every call, and per MiB of inputs and outputs; null when not measured. */
  binding: { perCallUs: number; usPerMiB: number } | null;
  /** What a run pays once for waking the intra-op pool (µs); null when not measured. */
  wakeUs: number | null;
  /** What one node split across the pool costs beyond an ideal split (µs); null when not measured. */
  parallelOpUs: number | null;
}

/** What one call costs the Node binding for `ioBytes` of inputs and outputs (µs); 0 without a fit. */
export function bindingUs(binding: BindingCost | null | undefined, ioBytes: number): number {
  if (!binding) return 0;
  return binding.perCallUs + (Math.max(0, ioBytes) * binding.nsPerByte) / 1000;
}

/** The device's own per-run cost: runUs less the binding's per-call part, never below zero. */
export function deviceRunUs(o: { runUs: number; binding?: BindingCost | null }): number {
  return Math.max(0, o.runUs - (o.binding?.perCallUs ?? 0));
}

/** One one-node model as timed for the binding fit (µs): untraced wall, traced model_run. */
export interface BindingSample {
  bytes: number;
  wallUs: number;
  modelRunUs: number;
}

/**
 * The binding's cost per byte (µs): the lowest slope not below zero over pairs of sizes (0 when
 * every slope is; null with fewer than two sizes). A disturbed timing (another process, Node's
 * collector in its slow phase) is only ever slower: a slow size raises the slopes up to it and
 * lowers those past it, so the lowest slope not below zero is one no slow size inflated. The
 * median of the three pairs was not: one slow largest size moves two of them (two back-to-back
 * profiles here: a 2 MiB call at 4.1 ms where it takes 0.08 put 2.0 ns a byte in place of 0.03,
 * and predicted PaddleOCR det's 6.5 MB of inputs and outputs 13 ms slower).
 */
function lowestPairwiseSlope(points: readonly { bytes: number; bindingUs: number }[]): number | null {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i] as { bytes: number; bindingUs: number };
      const b = points[j] as { bytes: number; bindingUs: number };
      if (b.bytes !== a.bytes) slopes.push((b.bindingUs - a.bindingUs) / (b.bytes - a.bytes));
    }
  if (!slopes.length) return null;
  const rising = slopes.filter((v) => v >= 0);
  return rising.length ? Math.min(...rising) : 0;
}

/**
 * The binding's cost from one-node models: each model's wall time less its device time, where
 * the device time is ORT's model_run less `profilerRunNodeUs` (what the ORT trace adds to a run per
 * node, inside model_run). The per-byte cost is lowestPairwiseSlope's; the per-call cost is what
 * the smallest model paid beyond its bytes, kept within [0, runUs] (it is part of runUs).
 */
export function fitBinding(
  samples: readonly BindingSample[],
  profilerRunNodeUs: number,
  runUs: number,
): BindingCost | null {
  const points = samples
    .map((s) => ({ bytes: s.bytes, bindingUs: Math.max(0, s.wallUs - Math.max(0, s.modelRunUs - profilerRunNodeUs)) }))
    .sort((a, b) => a.bytes - b.bytes);
  const slope = lowestPairwiseSlope(points);
  const smallest = points[0];
  if (slope === null || !smallest) return null;
  const usPerByte = Math.max(0, slope);
  return {
    perCallUs: Math.min(Math.max(0, smallest.bindingUs - usPerByte * smallest.bytes), runUs),
    nsPerByte: usPerByte * 1000,
    points,
  };
}

/**
 * What the ORT trace adds to model_run per node: the traced runs' model_run grows by this much
 * more per chained node than the untraced wall time does (µs, never negative).
 */
export function traceRunNodeCost(
  traced: readonly { nodes: number; modelRunUs: number }[],
  nodeUs: number,
): number | null {
  const fit = fitLine(
    traced.map((p) => p.nodes),
    traced.map((p) => p.modelRunUs),
  );
  return fit ? Math.max(0, fit.b - nodeUs) : null;
}

/**
 * A model of `n` Relu nodes in a chain over a [1, elements] fp32 tensor ([1, 16] unless the
 * binding's bytes are the point). ORT fuses and eliminates nothing in it (Relu after Relu
 * is not an optimizer pattern), so it executes exactly `n` nodes.
 */
export function chainModel(n: number, elements = CHAIN_ELEMENTS): Uint8Array {
  return opChain(n, 'Relu', [1, elements], null);
}

/** Chain lengths of the pool's wake-up timing, at the device's thread count and at one thread. */
export const WAKE_CHAIN_LENGTHS: readonly number[] = [1, 4, 16];

/**
 * Side of the wake-up chain's square MatMuls: 64 x 64 x 64 is small (5 µs at one thread on the
 * 2-vCPU Zen 4 guest) but above MLAS's threshold for splitting a GEMM (3.5 µs a copy at two
 * threads there), so every node of the chain is a parallel one.
 */
export const WAKE_DIM = 64;

/**
 * A chain of `n` [d, d] x [d, d] MatMuls that share one weight (a permutation: values stay in
 * range). ORT fuses nothing in it, so it executes exactly `n` nodes, each split across the pool.
 */
export function parallelChainModel(n: number, d = WAKE_DIM): Uint8Array {
  const w = new Float32Array(d * d);
  for (let r = 0; r < d; r++) w[r * d + ((r + 1) % d)] = 1;
  return opChain(n, 'MatMul', [d, d], {
    name: 'W',
    dataType: OnnxDataType.FLOAT,
    dims: [d, d],
    rawData: new Uint8Array(w.buffer),
  });
}

/** `n` nodes of `opType` in a chain over one fp32 tensor of `dims`, each also reading `weight` when given. */
function opChain(n: number, opType: string, dims: number[], weight: TensorDef | null): Uint8Array {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`chain length must be a positive integer, got ${n}`);
  const nodes: NodeDef[] = [];
  for (let i = 0; i < n; i++) {
    const input = i === 0 ? 'X' : `t${i}`;
    const output = i === n - 1 ? 'Y' : `t${i + 1}`;
    const inputs = weight ? [input, weight.name] : [input];
    nodes.push({ opType, inputs, outputs: [output], name: `${opType.toLowerCase()}_${i}` });
  }
  const info = (name: string): { name: string; elemType: typeof OnnxDataType.FLOAT; dims: number[] } => ({
    name,
    elemType: OnnxDataType.FLOAT,
    dims,
  });
  const graph = { name: `${opType.toLowerCase()}_chain${n}`, nodes, inputs: [info('X')], outputs: [info('Y')] };
  return encodeModel({ graph: weight ? { ...graph, initializers: [weight] } : graph });
}

/**
 * What waking the pool adds to a run (µs): the parallel chain's intercept at the device's thread
 * count less its intercept at one thread (same model, same copies in and out, nothing split),
 * never negative. Null when either side does not determine a line.
 */
export function fitWake(
  atThreads: readonly { nodes: number; medianUs: number }[],
  atOneThread: readonly { nodes: number; medianUs: number }[],
): number | null {
  const line = (ps: readonly { nodes: number; medianUs: number }[]): { a: number } | null =>
    fitRobustLine(
      ps.map((p) => p.nodes),
      ps.map((p) => p.medianUs),
    );
  const many = line(atThreads);
  const one = line(atOneThread);
  return many && one ? Math.max(0, many.a - one.a) : null;
}

/**
 * What one parallel node costs beyond an ideal split (µs): the wake-up chain's time per MatMul at
 * the device's thread count less its 1-thread time per MatMul over the threads MLAS splits a
 * WAKE_DIM^3 GEMM across (mlasGemmThreads), never negative. Each MatMul of the chain is split,
 * so its time at N threads is the split work plus the pool's dispatch and barrier: the same
 * cost every split node of a model pays. Null when either chain does not determine a slope.
 */
export function fitParallelOp(
  atThreads: readonly { nodes: number; medianUs: number }[],
  atOneThread: readonly { nodes: number; medianUs: number }[],
  threads: number,
): number | null {
  const slope = (ps: readonly { nodes: number; medianUs: number }[]): number | null =>
    medianPairwiseSlope(
      ps.map((p) => p.nodes),
      ps.map((p) => p.medianUs),
    );
  const many = slope(atThreads);
  const one = slope(atOneThread);
  if (many === null || one === null) return null;
  return Math.max(0, many - one / mlasGemmThreads(WAKE_DIM, WAKE_DIM, WAKE_DIM, 1, threads));
}

/**
 * The fit of T(N) = runUs + nodeUs * N; null when the points do not determine a line.
 * Theil-Sen, not least squares: one chain length timed through a disturbance (52 µs for the
 * 64-node chain where the line says 23) had made a least-squares runUs 12-24 µs instead of
 * 8.5-10 in 18 of 80 stored bench profiles here; the median of pairwise slopes and of the intercepts moves little.
 */
export function fitOverhead(
  points: readonly { nodes: number; medianUs: number }[],
  traceNodeUs: number | null = null,
): RunOverhead | null {
  const fit = fitRobustLine(
    points.map((p) => p.nodes),
    points.map((p) => p.medianUs),
  );
  if (!fit) return null;
  return { runUs: Math.max(0, fit.a), nodeUs: Math.max(0, fit.b), profilerNodeUs: traceNodeUs, points: [...points] };
}

/**
 * What `nodes` traced nodes add to an untraced run of a real graph: their trace time less the
 * ORT trace's per-node cost, plus the executor's per-node cost (which a chained timing includes).
 * How every label read from a trace is made: a kernel's own nodes, and the reorders around it.
 */
export function tracedLabelUs(
  traceUs: number,
  nodes: number,
  overhead: Pick<RunOverhead, 'nodeUs' | 'profilerNodeUs'> | null,
): number {
  return withoutTraceCost(traceUs, nodes, overhead?.profilerNodeUs ?? null) + (overhead?.nodeUs ?? 0) * nodes;
}

/** A trace time with the ORT trace's own per-node cost taken off, never below a tenth of it. */
export function withoutTraceCost(traceUs: number, nodes: number, traceNodeUs: number | null): number {
  if (traceNodeUs === null || nodes <= 0) return traceUs;
  return Math.max(traceUs - traceNodeUs * nodes, traceUs * 0.1);
}
