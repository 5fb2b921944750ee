/**
 * Whole-model prediction: every node of a workload through one predictor on one
 * device, summed per layer and in total, with the share of time per op family.
 * Nodes without a predictor family get a fallback estimate (their bytes at the
 * device's bandwidth plus dispatch) and are flagged; shape-only nodes cost nothing.
 * Training: backward ≈ 2x forward, so a step costs about 3x the forward pass.
 *
 * With the device's measured overhead (core/profiler/overhead.ts) the whole run pays the
 * per-run cost once. Micro-kernels are labelled by what one more such node adds to a run
 * (the executor's per-node cost included), so predicted nodes already carry the per-node
 * cost; fallback estimates get it added. overheadUs reports both parts. On a CPU at more than
 * one thread, a run with a node that can run in parallel (a predicted node that is not one of
 * the one-thread ops) also pays the pool's measured wake-up once (RunOverhead.wakeUs).
 *
 * On a CPU profiled at more than one thread, the nodes ONNX Runtime runs on one thread (kernels
 * with no parallel loop, one-thread-ops.ts, and those its cost model or MLAS's thresholds do not
 * split at their size, parallel-split.ts) are predicted on the same CPU's 1-thread profile, when
 * there is one (PredictOptions.oneThread). A node it splits over k threads costs at least its
 * 1-thread time over k plus the measured cost of one parallel op (splitNodeUs).
 *
 * totalUs is device time: what ONNX Runtime spends in a run. What the Node binding adds to a
 * call (its per-call cost and its copies of the inputs and outputs) is reported apart in
 * `binding`, for callers who time runs from Node; it is never inside totalUs. Pure.
 */
import { weightsRunCold, withColdRead, type ColdWeights } from './cold-weights.js';
import type { PlanAssumptionsView } from '../planner/plan-assumptions.js';
import type { MachineDeviceId } from '../domain/device-id.js';
import type { ModelBand } from '../predictor/model-band.js';
import { DTYPE_BYTES } from '../domain/dtypes.js';
import { bindingUs, deviceRunUs, type BindingCost } from '../profiler/overhead.js';
import type { DeviceFeatures, Predictor } from '../predictor/types.js';
import { runsOnOneThread } from './one-thread-ops.js';
import { splitNodeUs, threadsUsed } from './parallel-split.js';
import type { Mode } from '../domain/mode.js';
import type { TensorShape, Workload, WorkloadNode } from './types.js';

export interface NodePrediction {
  index: number;
  name: string;
  opType: string;
  family: string | null;
  timeUs: number;
  lowUs: number;
  highUs: number;
  /**
   * 'predicted' by the model, 'fallback' estimate, or 'free': a shape-only op (Shape,
   * Unsqueeze, an inlined If's marker...), which does no work but still runs as a node and
   * costs the device's per-node overhead (a Constant never runs: 0).
   */
  how: 'predicted' | 'fallback' | 'free';
  warning: string | null;
  /** Its backward in a training step where the predictor prices it apart (µs); absent: twice timeUs. */
  backwardUs?: number;
}

export interface LayerPrediction {
  index: number;
  name: string;
  timeUs: number;
  lowUs: number;
  highUs: number;
}

export interface WorkloadPrediction {
  workload: string;
  predictor: string;
  /** The device across machines (MachineDeviceId: machineId/deviceKey/ep[/Nt]). */
  device: MachineDeviceId;
  mode: Mode;
  totalUs: number;
  lowUs: number;
  highUs: number;
  nodes: NodePrediction[];
  layers: LayerPrediction[];
  /** Fraction of the total per op family ('other' for fallback nodes). */
  familyShare: Record<string, number>;
  /** Per-run cost plus the per-node cost of every node that runs (µs), inside totalUs; 0 when not measured. */
  overheadUs: number;
  /** The per-run part of overheadUs (µs), the pool's wake-up included. */
  runOverheadUs: number;
  /**
   * What the Node binding adds to one call, outside totalUs: its per-call cost and its copies
   * of `ioBytes` of inputs and outputs (µs). A run timed from Node takes totalUs + us. Null
   * when the device's profile did not measure the binding apart (its per-call cost is then
   * inside runOverheadUs, as profiles before this field had it).
   */
  binding: { perCallUs: number; ioBytes: number; us: number } | null;
  /** The per-family calibration ratios applied (empty when the device has none). */
  calibration: Record<string, number>;
  /** Which graph was predicted: the file's, or the one ONNX Runtime executes on the device. */
  graph: 'file' | 'executed';
  /** With graph 'executed': every executed node's prediction and the user nodes it covers. */
  executed?: ExecutedNodePrediction[];
  /**
   * The 90% band of the whole run as timed from Node (fromNodeUs), by split conformal over held-out
   * residuals (predictor/model-band.ts); absent where none was computed (a workload of no device
   * profiled here). lowUs/highUs above are the nodes' own bands summed, a wider, older measure.
   */
  band90?: ModelBand;
  /**
   * What the figures rest on for a described model (catalog, config.json, GGUF): the sequence or
   * image it was built at, the batch and dtype, each marked asked or default, as `plan` states them;
   * absent for an ONNX graph (its own shapes).
   */
  assumptions?: PlanAssumptionsView;
  warnings: string[];
}

export interface ExecutedNodePrediction extends NodePrediction {
  /** Names of the user's nodes this executed node computes (fused, or its own). */
  sourceNodes: string[];
}

export interface PredictOptions {
  /** The device's measured per-run and per-node overhead (µs) and the binding's cost; none: nodes alone. */
  overhead?: {
    runUs: number;
    nodeUs: number;
    binding?: BindingCost | null;
    wakeUs?: number | null;
    /** What one node split across the intra-op pool costs beyond an ideal split (µs); RunOverhead.parallelOpUs. */
    parallelOpUs?: number | null;
  } | null;
  /** Per op family: measured / predicted on the device's calibration models (calibration.ts). */
  familyScale?: Record<string, number>;
  /**
   * The same CPU profiled at 1 thread, and its calibration: nodes ORT runs on one thread
   * whatever the thread count (one-thread-ops.ts) are predicted there. None: on the device.
   */
  oneThread?: { device: DeviceFeatures; familyScale?: Record<string, number> } | null;
  /** Where the weights come from memory on each run (cold-weights.ts); none: from cache, as profiled. */
  coldWeights?: ColdWeights | null;
}

/** Where a node is predicted: the device, or the same CPU at 1 thread. */
interface Target {
  device: DeviceFeatures;
  familyScale: Record<string, number>;
}

const TRAINING_FACTOR = 3;

function isFree(n: WorkloadNode): boolean {
  return n.family === null && n.flops === 0 && n.bytes === 0;
}

/** Each layer's time and band: the sums over its nodes' predictions. */
export function layerPredictions(w: Workload, nodes: readonly NodePrediction[]): LayerPrediction[] {
  const sum = (idx: readonly number[], f: (p: NodePrediction) => number): number =>
    idx.reduce((a, i) => a + f(nodes[i] as NodePrediction), 0);
  return w.layers.map((l) => ({
    index: l.index,
    name: l.name,
    timeUs: sum(l.nodes, (p) => p.timeUs),
    lowUs: sum(l.nodes, (p) => p.lowUs),
    highUs: sum(l.nodes, (p) => p.highUs),
  }));
}

export function predictWorkload(
  w: Workload,
  predictor: Predictor,
  device: DeviceFeatures,
  mode: Mode,
  opts: PredictOptions = {},
): WorkloadPrediction {
  const factor = mode === 'training' ? TRAINING_FACTOR : 1;
  const perNode = (opts.overhead?.nodeUs ?? 0) * factor;
  const own: Target = { device, familyScale: opts.familyScale ?? {} };
  const oneThread: Target | null = opts.oneThread
    ? { device: opts.oneThread.device, familyScale: opts.oneThread.familyScale ?? {} }
    : null;
  const threads = device.threads ?? 1;
  const split = (n: WorkloadNode): number | null => (threads > 1 ? threadsUsed(n, threads, w.nchwcBlock) : null);
  const serial = (n: WorkloadNode): boolean => runsOnOneThread(n) || split(n) === 1;
  const targetOf = (n: WorkloadNode): Target => (oneThread && serial(n) ? oneThread : own);
  const byIndex = predictKernels(w, predictor, targetOf);
  if (oneThread)
    floorSplitNodes(
      w,
      byIndex,
      predictKernels(w, predictor, () => oneThread),
      split,
      opts,
    );
  const wakes = w.nodes.some((n, i) => byIndex.has(i) && !serial(n));
  const runUs =
    ((opts.overhead ? deviceRunUs(opts.overhead) : 0) + (wakes ? (opts.overhead?.wakeUs ?? 0) : 0)) * factor;
  const warnings = new Set<string>(w.warnings);
  const fallbackOps = new Set<string>();
  const cold = opts.coldWeights && weightsRunCold(w, opts.coldWeights) ? opts.coldWeights : null;
  const nodes: NodePrediction[] = w.nodes.map((n, index) => {
    const p = byIndex.get(index);
    if (p) {
      if (p.warning) warnings.add(`${n.family}: ${p.warning}`);
      const node = predictedNode(n, index, p, factor * (targetOf(n).familyScale[n.family ?? ''] ?? 1));
      return cold ? withColdRead(n, node, cold) : node;
    }
    if (isFree(n)) {
      const t = n.opType === 'Constant' ? 0 : perNode;
      return timedNode(n, index, 'free', t, t, t, null);
    }
    fallbackOps.add(n.opType);
    const t = (n.bytes / (device.bandwidthGBps * 1e3) + device.dispatchUs) * factor + perNode;
    const warning = `no predictor family for ${n.opType}: estimated from bytes moved`;
    return timedNode(n, index, 'fallback', t, t * 0.5, t * 3, warning);
  });
  if (fallbackOps.size)
    warnings.add(`estimated without a profile (bytes at measured bandwidth): ${[...fallbackOps].sort().join(', ')}`);
  const ran = nodes.filter((p) => p.opType !== 'Constant').length;
  const totalUs = runUs + nodes.reduce((a, p) => a + p.timeUs, 0);
  return {
    workload: w.name,
    predictor: predictor.name,
    device: device.deviceId,
    mode,
    totalUs,
    lowUs: runUs + nodes.reduce((a, p) => a + p.lowUs, 0),
    highUs: runUs + nodes.reduce((a, p) => a + p.highUs, 0),
    nodes,
    layers: layerPredictions(w, nodes),
    familyShare: familyShares(nodes, totalUs),
    overheadUs: runUs + perNode * ran,
    runOverheadUs: runUs,
    binding: bindingOf(w, opts.overhead?.binding),
    calibration: { ...(opts.familyScale ?? {}) },
    graph: 'file',
    warnings: [...warnings],
  };
}

/** A run as timed from Node: device time plus what the binding adds to the call (µs). */
export function fromNodeUs(p: Pick<WorkloadPrediction, 'totalUs' | 'binding'>): number {
  return p.totalUs + (p.binding?.us ?? 0);
}

/** Bytes of the graph's inputs and outputs as the caller passes and receives them. */
export function ioBytes(w: Workload): number {
  const bytes = (t: TensorShape): number =>
    t.dtype === 'other' ? 0 : t.dims.reduce((a, d) => a * Math.max(0, d), 1) * DTYPE_BYTES[t.dtype];
  return [...(w.inputs ?? []), ...(w.outputs ?? [])].reduce((a, t) => a + bytes(t), 0);
}

function bindingOf(w: Workload, binding: BindingCost | null | undefined): WorkloadPrediction['binding'] {
  if (!binding) return null;
  const io = ioBytes(w);
  return { perCallUs: binding.perCallUs, ioBytes: io, us: bindingUs(binding, io) };
}

type KernelPrediction = ReturnType<Predictor['predict']>[number];

/**
 * Raises each split node's prediction to splitNodeUs: its 1-thread prediction over the threads
 * ORT gives it, plus one parallel op's cost; its band moves with it. Family scales apply after.
 */
function floorSplitNodes(
  w: Workload,
  atThreads: Map<number, KernelPrediction>,
  atOneThread: Map<number, KernelPrediction>,
  split: (n: WorkloadNode) => number | null,
  opts: PredictOptions,
): void {
  const scaleOf = (n: WorkloadNode, s: Record<string, number> | undefined): number => s?.[n.family ?? ''] ?? 1;
  for (const [i, p] of atThreads) {
    const n = w.nodes[i] as WorkloadNode;
    const k = split(n);
    const one = atOneThread.get(i);
    if (k === null || k <= 1 || !one || runsOnOneThread(n) || p.timeUs <= 0) continue;
    const ownScale = scaleOf(n, opts.familyScale);
    const oneUs = one.timeUs * scaleOf(n, opts.oneThread?.familyScale);
    const t = splitNodeUs(p.timeUs * ownScale, oneUs, k, opts.overhead?.parallelOpUs ?? 0) / ownScale;
    const r = t / p.timeUs;
    if (r > 1) atThreads.set(i, { ...p, timeUs: t, lowUs: p.lowUs * r, highUs: p.highUs * r });
  }
}

/** The predictor's answer for every node that maps to a kernel family, by node index, each on its target's device. */
function predictKernels(
  w: Workload,
  predictor: Predictor,
  targetOf: (n: WorkloadNode) => Target,
): Map<number, KernelPrediction> {
  const queries = w.nodes.map((n, index) => ({ n, index })).filter(({ n }) => n.family !== null && n.kernel !== null);
  const predicted = predictor.predict(
    queries.map(({ n }) => ({
      op: n.kernel?.op ?? n.opType,
      family: n.family as string,
      shape: n.kernel?.shape ?? {},
      dtype: n.dtype,
      flops: n.flops,
      bytes: n.bytes,
      device: targetOf(n).device,
    })),
  );
  const byIndex = new Map<number, KernelPrediction>();
  queries.forEach((q, i) => {
    const p = predicted[i];
    if (p) byIndex.set(q.index, p);
  });
  return byIndex;
}

function predictedNode(n: WorkloadNode, index: number, p: KernelPrediction, scale: number): NodePrediction {
  const node = timedNode(
    n,
    index,
    'predicted',
    p.timeUs * scale,
    p.lowUs * scale,
    p.highUs * scale,
    p.warning,
    n.family,
  );
  return p.backwardUs === undefined ? node : { ...node, backwardUs: p.backwardUs * scale };
}

function timedNode(
  n: WorkloadNode,
  index: number,
  how: NodePrediction['how'],
  timeUs: number,
  lowUs: number,
  highUs: number,
  warning: string | null,
  family: string | null = null,
): NodePrediction {
  return { index, name: n.name, opType: n.opType, family, timeUs, lowUs, highUs, how, warning };
}

/** Each family's share of the total time (free nodes left out: their time is overhead, as the per-run cost is; the unfamilied as 'other'). */
function familyShares(nodes: readonly NodePrediction[], totalUs: number): Record<string, number> {
  const share: Record<string, number> = {};
  for (const p of nodes) {
    if (p.how === 'free') continue;
    const k = p.family ?? 'other';
    share[k] = (share[k] ?? 0) + (totalUs > 0 ? p.timeUs / totalUs : 0);
  }
  return share;
}
