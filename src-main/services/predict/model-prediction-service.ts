/**
 * `predict-model`: a whole model's time on a profiled device, predicted on the graph ONNX
 * Runtime really executes there (fused and layout-converted nodes, the reorders between
 * them), not on the graph in the file. Every executed node is costed and predicted, plus
 * the device's per-run and per-node overhead; the result still speaks of the user's model:
 * each executed node's time goes to the user node it came from, so per-node and per-layer
 * reports (and the planner's layers) keep the user's names. Catalog models, devices that
 * ORT cannot run here and models it cannot optimize are predicted on the file's graph,
 * with a warning saying so.
 */
import { predictionAssumptions } from './prediction-assumptions.js';
import { predictionBand, type BandTarget } from './prediction-band.js';
import type { Dtype } from '../../core/domain/measurement.js';
import { isTorchEpName } from '../../core/domain/execution-provider.js';
import { UserError } from '../../core/errors.js';
import { mapExecutedNodes, nchwcChannelHints } from '../../core/workload/executed-graph.js';
import { importOnnxModel } from '../../core/workload/from-onnx.js';
import { inlineBranches } from '../../core/workload/inline-branches.js';
import {
  layerPredictions,
  type ExecutedNodePrediction,
  type NodePrediction,
  type WorkloadPrediction,
} from '../../core/workload/predict-workload.js';
import type { Workload } from '../../core/workload/types.js';
import type { Mode } from '../../core/domain/mode.js';
import { readOnnxModel } from '../../adapters/files/read-onnx.js';
import type { EpConfig } from '../../core/domain/execution-provider.js';
import type { Database } from '../../adapters/store/types.js';
import { executedGraph, type OptimizingRunner } from '../measure/executed-graph-service.js';
import { localMachineId, machineFor } from '../machine/machine-service.js';
import { chooseStoredPredictor } from './predictor-service.js';
import type { ColdWeightsOption } from './stream-rate.js';
import { loadTrainingData, type DeviceGroup } from './training-data.js';
import {
  pickDevice,
  predictOnDevice,
  resolveWorkload,
  type ResolvedWorkload,
  type WorkloadSpecOptions,
} from '../workload/workload-service.js';
import { count } from '../../core/text/plural.js';

export type PredictModelOptions = WorkloadSpecOptions & {
  /** false: leave out the calibration models' per-family ratios (benchmarks compare both). */
  calibrate?: boolean;
  /** How weights a run reads from memory are priced (stream-rate.ts); benchmarks compare them. */
  coldWeights?: ColdWeightsOption;
  device: string;
  threads?: number;
  machine?: string;
  predictor?: string;
};

/** The EP a profiled device runs on here, or null for devices of other machines and EPs ORT lacks. */
export function epFor(device: DeviceGroup, localMachineId: string | null): EpConfig | null {
  if (device.machineId !== localMachineId) return null;
  if (device.executionProvider === 'cpu') return { name: 'cpu', threads: device.threads ?? 1 };
  const index = Number(device.deviceKey.split(':')[1] ?? 0);
  if (device.executionProvider === 'cuda') return { name: 'cuda', deviceId: index };
  if (device.executionProvider === 'webgpu') return { name: 'webgpu', deviceId: index };
  return null;
}

/** A model's executed graph on a device, as a workload, with its map to the user's nodes. */
export interface ExecutedWorkload {
  user: ResolvedWorkload;
  device: DeviceGroup;
  /** The executed graph costed node by node, or null (with the reason) when it cannot be had. */
  run: { workload: Workload; executedToSource: number[][] } | null;
  why: string | null;
}

export async function executedWorkload(
  db: Database,
  runner: OptimizingRunner,
  spec: string,
  opts: PredictModelOptions,
): Promise<ExecutedWorkload> {
  return executedOn(
    db,
    runner,
    resolveWorkload(db, spec, opts),
    pickDevice(db, opts.device, opts.threads, opts.machine, opts.mode),
  );
}

/** The executed graph of a resolved workload on one profiled device (or why there is none). */
async function executedOn(
  db: Database,
  runner: OptimizingRunner,
  user: ResolvedWorkload,
  device: DeviceGroup,
): Promise<ExecutedWorkload> {
  const none = (why: string | null): ExecutedWorkload => ({ user, device, run: null, why });
  if (!user.filePath) return none(null);
  // PyTorch runs the model's ops eagerly as written: the file's graph is what runs there.
  if (isTorchEpName(device.executionProvider)) return none(null);
  const ep = epFor(device, localMachineId(db));
  if (!ep) return none('the device is not on this machine, so its executed graph cannot be made here');
  const { bytes, model: file } = readOnnxModel(user.filePath);
  const executed = await executedGraph(db, runner, user.filePath, bytes, ep);
  if (!executed.ok) return none(executed.reason);
  const inputs = Object.fromEntries((user.workload.inputs ?? []).map((i) => [i.name, i.dims]));
  // Both graphs with their If branches inlined as the user's workload has them, so indices agree.
  const source = inlineBranches(file, { inputs });
  const ran = inlineBranches(executed.model, { inputs });
  const map = mapExecutedNodes(source, ran);
  const nchwcChannels = nchwcChannelHints(source, ran, map);
  const workload = importOnnxModel(ran, { name: user.workload.name, inputs, nchwcChannels }).workload;
  return { user, device, run: { workload, executedToSource: map.executedToSource }, why: null };
}

export async function predictModelExecuted(
  db: Database,
  runner: OptimizingRunner,
  spec: string,
  opts: PredictModelOptions,
): Promise<WorkloadPrediction> {
  const x = await executedWorkload(db, runner, spec, opts);
  const assumptions = predictionAssumptions(db, spec, opts, x.user.workload);
  return { ...predictExecuted(db, x, opts), ...(assumptions ? { assumptions } : {}) };
}

/** The prediction of a prepared executed workload (or of the file's graph when there is none). */
export function predictExecuted(
  db: Database,
  x: ExecutedWorkload,
  opts: { mode?: Mode; predictor?: string; calibrate?: boolean; coldWeights?: ColdWeightsOption },
): WorkloadPrediction {
  const p = x.run
    ? onUserGraph(x.user.workload, predictOnDevice(db, x.run.workload, x.device, opts), x.run.executedToSource)
    : predictOnDevice(db, x.user.workload, x.device, opts);
  if (!x.run && x.why)
    p.warnings.unshift(`predicted on the graph in the file, not the one ONNX Runtime executes: ${x.why}`);
  return { ...p, band90: predictionBand(db, p, bandTarget(x)) };
}

/** Who a prediction's band is for: the device, its thread count, and the model (its content, else its name). */
export function bandTarget(x: Pick<ExecutedWorkload, 'user' | 'device'>): BandTarget {
  return {
    machineId: x.device.machineId,
    deviceKey: x.device.deviceKey,
    threads: x.device.threads ?? null,
    model: x.user.contentHash ?? x.user.workload.name,
  };
}

/**
 * The executed graph's prediction told in the user's nodes and layers: an executed node's
 * time goes to the first user node it covers (the conv of a conv+BN+ReLU fusion); user
 * nodes fused into another, folded or eliminated cost nothing themselves.
 */
export function onUserGraph(
  user: Workload,
  executed: WorkloadPrediction,
  executedToSource: readonly (readonly number[])[],
): WorkloadPrediction {
  const byUser = user.nodes.map(() => ({ timeUs: 0, lowUs: 0, highUs: 0, executed: [] as number[] }));
  const unmapped: number[] = [];
  executed.nodes.forEach((p, i) => {
    const target = executedToSource[i]?.[0];
    const slot = target === undefined ? undefined : byUser[target];
    if (!slot) {
      unmapped.push(i);
      return;
    }
    slot.timeUs += p.timeUs;
    slot.lowUs += p.lowUs;
    slot.highUs += p.highUs;
    slot.executed.push(i);
  });
  const nodes: NodePrediction[] = user.nodes.map((n, index) => {
    const s = byUser[index] as (typeof byUser)[number];
    // Told by the executed node that takes its time (a Reshape ORT put first is not the conv).
    const main = s.executed
      .map((i) => executed.nodes[i])
      .reduce<NodePrediction | undefined>((a, p) => (p && (!a || p.timeUs > a.timeUs) ? p : a), undefined);
    return {
      index,
      name: n.name,
      opType: n.opType,
      family: n.family,
      timeUs: s.timeUs,
      lowUs: s.lowUs,
      highUs: s.highUs,
      how: s.executed.length === 0 ? 'free' : (main?.how ?? 'predicted'),
      warning: s.executed.map((i) => executed.nodes[i]?.warning).find((w) => w) ?? null,
    };
  });
  const layers = layerPredictions(user, nodes);
  const executedNodes: ExecutedNodePrediction[] = executed.nodes.map((p, i) => ({
    ...p,
    sourceNodes: (executedToSource[i] ?? []).map((j) => user.nodes[j]?.name ?? String(j)),
  }));
  const warnings = [...executed.warnings];
  if (unmapped.length)
    warnings.push(
      `${count(unmapped.length, 'executed node')} ${unmapped.length === 1 ? 'maps' : 'map'} to no node of the file; their time is in the total only`,
    );
  return { ...executed, workload: user.name, nodes, layers, executed: executedNodes, graph: 'executed', warnings };
}

/** Per user layer: the executed nodes whose main user node lies in it, slowest first. */
export function executedByLayer(
  user: Workload,
  p: WorkloadPrediction,
): { name: string; opType: string; timeUs: number; sourceNodes: string[] }[][] {
  const layerOf = new Map<string, number>();
  user.layers.forEach((l, li) => l.nodes.forEach((n) => layerOf.set(user.nodes[n]?.name ?? '', li)));
  const out = user.layers.map(() => [] as { name: string; opType: string; timeUs: number; sourceNodes: string[] }[]);
  for (const e of p.executed ?? []) {
    const li = layerOf.get(e.sourceNodes[0] ?? '');
    if (li !== undefined)
      out[li]?.push({ name: e.name, opType: e.opType, timeUs: e.timeUs, sourceNodes: e.sourceNodes });
  }
  for (const l of out) l.sort((a, b) => b.timeUs - a.timeUs);
  return out;
}

/**
 * A workload on every profiled device of a machine: on the executed graph where the device
 * runs here, on the file's graph elsewhere. The app's Workloads view shows this.
 */
async function predictOnEveryDevice(
  db: Database,
  runner: OptimizingRunner,
  user: ResolvedWorkload,
  devices: readonly DeviceGroup[],
  opts: { mode?: Mode; predictor?: string },
): Promise<{ device: DeviceGroup; prediction: WorkloadPrediction }[]> {
  const out = [];
  for (const device of devices) {
    const x = await executedOn(db, runner, user, device);
    out.push({ device, prediction: predictExecuted(db, x, opts) });
  }
  return out;
}

export interface MachinePredictionRequest {
  workload: string;
  mode: Mode;
  batch?: number;
  seq?: number;
  image?: number;
  /** Catalog models: the dtype to build them in. */
  dtype?: Dtype;
  dims?: Record<string, number>;
  inputs?: Record<string, number[]>;
  /** A machine's id or label; this machine when absent. */
  machineId?: string;
}

export interface MachinePrediction {
  workload: Workload;
  /** The predictor used (the most accurate kind trained). */
  predictor: string;
  predictions: { device: DeviceGroup; prediction: WorkloadPrediction }[];
}

/**
 * The app's Workloads view: a workload (batch 1 unless given) on every profiled device of a
 * machine. A runner is started (by `newRunner`) only when there is a device to predict on.
 */
export async function predictOnMachine(
  db: Database,
  newRunner: () => OptimizingRunner & { close(): Promise<void> },
  req: MachinePredictionRequest,
): Promise<MachinePrediction> {
  const resolved = resolveWorkload(db, req.workload, {
    batch: req.batch ?? 1,
    ...(req.seq !== undefined ? { seq: req.seq } : {}),
    ...(req.image !== undefined ? { image: req.image } : {}),
    ...(req.dtype !== undefined ? { dtype: req.dtype } : {}),
    dims: req.dims ?? {},
    inputs: req.inputs ?? {},
    mode: req.mode,
  });
  const machine = machineFor(db, req.machineId);
  const predictor = chooseStoredPredictor(db).name;
  const { devices } = loadTrainingData(db, { machineId: machine.id });
  if (devices.length === 0) throw new UserError(`${machine.label} has no profiled device yet: run a profile first`);
  const runner = newRunner();
  try {
    const predictions = await predictOnEveryDevice(db, runner, resolved, devices, { mode: req.mode });
    return { workload: resolved.workload, predictor, predictions };
  } finally {
    await runner.close();
  }
}
