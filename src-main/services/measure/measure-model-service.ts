/**
 * `measure-model`: run the user's real model under ONNX Runtime (end to end with
 * ORT trace off; a short traced pass attributes time to nodes), and set measured
 * against predicted, end to end and per node. Measured nodes are stored
 * as measurements (source "model"), so the predictor learns from the user's own
 * models; a shape already stored is not stored again (déjà vu). With `traceFile`, ORT's
 * own trace of the traced pass (Chrome trace JSON: Perfetto, chrome://tracing) is kept
 * there.
 */
import type { MachineDeviceId } from '../../core/domain/device-id.js';
import { recordCheck } from '../predict/prediction-band.js';
import type { ModelBand } from '../../core/predictor/model-band.js';
import { UserError } from '../../core/errors.js';
import type { Dtype } from '../../core/domain/measurement.js';
import { summarize, type StoppingRule } from '../../core/profiler/timing-stats.js';
import { fromNodeUs, ioBytes, type WorkloadPrediction } from '../../core/workload/predict-workload.js';
import type { Database } from '../../adapters/store/types.js';
import type { KernelRunner } from '../../adapters/ort/kernel-runner.js';
import { resolveWorkload, type WorkloadSpecOptions } from '../workload/workload-service.js';
import { deviceOverhead } from '../workload/stored-device-figures.js';
import { bandTarget, epFor, executedWorkload, predictExecuted } from '../predict/model-prediction-service.js';
import { localMachineId } from '../machine/machine-service.js';
import { attributeNodes } from './model-attribution.js';
import type { WorkloadNode } from '../../core/workload/types.js';
import { checkWritableFile } from '../../adapters/files/check-writable.js';
import { keepTrace, type KeptTrace } from './kept-trace.js';
import { storeNodes } from './model-node-store.js';
import { measuredConditionsWarnings, watchCpuTiming, type ConditionsProbe } from '../profile/run-conditions-service.js';
import { machineStateWarning, type MachineState } from '../../core/profiler/machine-state.js';
import { watchMachineState, type StateTimer } from './machine-state-probe.js';

/** One executed node as ONNX Runtime ran it (its name is ORT's: `conv2d_494.tmp_0_nchwc`, `ReorderOutput_token_3`). */
export interface MeasuredNode {
  name: string;
  opType: string;
  measuredUs: number;
  predictedUs: number | null;
  /** The file's nodes it computes, its main one first (a fusion lists all it absorbed); empty when none. */
  fileNodes: string[];
  /** For a reorder ORT inserted: "inserted by ORT before <file node>" (after, for a ReorderOutput); else null. */
  inserted: string | null;
}

/**
 * One node of the model file, with the time of the executed nodes whose main file node it is
 * (predict-model gives an executed node's time to the same file node): the table predict-model
 * and measure-model share, so that the two join on the file's node name.
 */
export interface FileNodeMeasurement {
  name: string;
  opType: string;
  measuredUs: number;
  /** The prediction of this file node (predict-model's NODE row), null without one. */
  predictedUs: number | null;
  /** The executed nodes whose time is here: ORT's names, with the other file nodes each absorbed. */
  executed: { name: string; opType: string; fileNodes: string[]; inserted: string | null }[];
}

export interface ModelMeasurement {
  workload: string;
  /** The device across machines (MachineDeviceId: machineId/deviceKey/ep[/Nt]). */
  device: MachineDeviceId;
  medianMs: number;
  p10Ms: number;
  p90Ms: number;
  repetitions: number;
  /** Each untraced pass's median, ms, in time order: medianMs is the lower one's (the runner's passes). */
  passMediansMs: number[];
  /** What makes this measurement doubtful (passes that disagree, load, the machine off its profiled speed); empty when none. */
  warnings: string[];
  /**
   * The machine's state around the timing (machine-state-probe.ts): its calibration model's time
   * before and after over the profile's; null when not read. When `off`, the check is kept but not
   * used for the bands.
   */
  machineState: MachineState | null;
  /**
   * Sum of the nodes' times, ms: the traced pass's per-node times less the ORT trace's cost,
   * scaled down to the untraced end to end less the per-run cost and the binding's copies
   * where they exceed it (the ORT trace slows every node down), never up (model-attribution.ts).
   */
  nodesSumMs: number;
  /** End to end (untraced) minus the node sum: run, binding (in whatever phase it ran) and per-node overhead, ms. */
  frameworkOverheadMs: number;
  /** Median end to end of the traced pass, ms: what the ORT trace itself costs, next to medianMs. */
  profiledMs: number;
  predicted: WorkloadPrediction | null;
  /** (predicted - measured) / measured of the whole model. */
  errorPct: number | null;
  /**
   * The prediction's 90% band (as timed from Node) and whether the measured time fell inside it;
   * null without a prediction. The band is the one predict-model printed before this run, which
   * is then kept as a check of this model for the bands of others (`check`), unless the machine ran
   * off its profiled speed.
   */
  band: { lowMs: number; highMs: number; inside: boolean; from: string; n: number; check: boolean } | null;
  /** Error of the node sum alone, against the predicted node sum. */
  nodeErrorPct: number | null;
  /** Per executed node that ran (ORT's names), slowest first. */
  nodes: MeasuredNode[];
  /** Per node of the file that took time, slowest first: the names predict-model uses. */
  fileNodes: FileNodeMeasurement[];
  /** Nodes of the file (its graph, If branches inlined): the count `workload add` and predict-model print. */
  fileNodeCount: number;
  /** Trace nodes that match no executed node (name or op type differ). */
  unmatchedNodes: number;
  stored: { inserted: number; alreadyStored: number };
  outputShapes: Record<string, number[]>;
  /** With `traceFile`: where ORT's trace of the traced pass was written, and what it holds. */
  trace?: KeptTrace;
}

/**
 * At least a second of runs, as a timing loop would take: a model of 0.14 ms stopped after ~60
 * runs (8 ms), and one such loop in four read 0.25 ms here while the others read 0.14.
 */
const RULE: StoppingRule = {
  warmupRuns: 3,
  minRepetitions: 10,
  maxRepetitions: 20_000,
  targetCi: 0.02,
  budgetMs: 3000,
  minDurationMs: 1000,
};

export async function measureModel(
  db: Database,
  runner: KernelRunner,
  spec: string,
  opts: WorkloadSpecOptions & {
    device: string;
    threads?: number;
    /** Keep ORT's trace of the traced pass in this file (checked before anything runs). */
    traceFile?: string;
    /** The host's CPU times around the timing on a CPU (run-conditions-service.ts); absent: not read. */
    conditions?: ConditionsProbe;
    /** Times the profile's calibration model before and after the timing on a CPU (machine-state-probe.ts); absent: not read. */
    machineState?: StateTimer;
  },
): Promise<ModelMeasurement> {
  const resolved = resolveWorkload(db, spec, opts);
  if (!resolved.filePath)
    throw new UserError('measure-model runs an .onnx file (catalog models have no weights to run)');
  const w = resolved.workload;
  if (!w.inputs?.length) throw new UserError(`no graph inputs known for ${w.name}`);
  const traceFile = opts.traceFile !== undefined ? checkWritableFile(opts.traceFile) : null;
  const x = await executedWorkload(db, runner, spec, opts);
  const device = x.device;
  const ep = epFor(device, localMachineId(db));
  if (!ep) throw new UserError(`${opts.device} is not a device of this machine: measure-model runs here`);
  // The stored run spans the measuring (its "took"), though it is stored once the nodes are known.
  const began = new Date();
  const info = await runner.start();
  const watch = await watchCpuTiming(ep.name === 'cpu', opts.conditions);
  const state = await watchMachineState(db, device, ep, opts.machineState);
  const outcome = await runner.runModel({
    modelPath: resolved.filePath,
    inputs: w.inputs.map((i) => ({
      name: i.name,
      dims: i.dims,
      dtype: (i.dtype === 'other' ? 'fp32' : i.dtype) as Dtype,
    })),
    ep,
    rule: RULE,
    ...(traceFile ? { keepTrace: true } : {}),
  });
  if (!outcome.ok) throw new UserError(`running ${w.name} failed (${outcome.kind}): ${outcome.error}`);
  const machineState = await state.finish();
  const conditions = await watch.finish();
  const trace = traceFile ? keepTrace(outcome.traceFile, traceFile, [db.name]) : null;
  let predicted: WorkloadPrediction | null = null;
  try {
    predicted = predictExecuted(db, x, opts);
  } catch {
    predicted = null;
  }
  // The trace names the nodes that ran: the executed graph's when it is known.
  const ranNodes = x.run ? x.run.workload.nodes : w.nodes;
  const ranPredictions = predicted?.executed ?? predicted?.nodes ?? [];
  const attributed = attributeNodes(outcome, ranNodes, deviceOverhead(db, device), ioBytes(x.run?.workload ?? w));
  const toFile = (i: number): number[] => (x.run ? (x.run.executedToSource[i] ?? []) : [i]);
  const nodes: MeasuredNode[] = attributed.nodes.map((a) => {
    const fileNodes = toFile(a.index).map((j) => w.nodes[j]?.name ?? String(j));
    const opType = ranNodes[a.index]?.opType ?? '';
    return {
      name: a.name,
      opType,
      measuredUs: a.measuredUs,
      predictedUs: ranPredictions[a.index]?.timeUs ?? null,
      fileNodes,
      inserted: insertedNote(opType, fileNodes[0]),
    };
  });
  const byFile = fileNodeTable(
    w.nodes,
    attributed.nodes.map((a, i) => ({ node: nodes[i] as MeasuredNode, file: toFile(a.index)[0] })),
    predicted,
  );
  const measured = attributed.nodes;
  const unmatched = attributed.unmatched;
  const e2e = summarize(outcome.wallUs);
  const stored = storeNodes(db, {
    device,
    ep,
    ortVersion: info.ortVersion,
    workloadName: w.name,
    nodes: measured.map((m) => ({ node: ranNodes[m.index] as WorkloadNode, samples: m.samples })),
    began,
  });
  const nodesSum = { medianUs: nodes.reduce((a, n) => a + n.measuredUs, 0) };
  const band = predicted?.band90 ? bandOutcome(predicted.band90, e2e.medianUs, machineState?.off !== true) : null;
  if (predicted)
    recordCheck(
      db,
      { ...bandTarget(x), label: w.name, predictor: predicted.predictor },
      e2e.medianUs,
      fromNodeUs(predicted),
      machineState,
    );
  const predictedNodeSum = predicted ? predicted.totalUs - (predicted.runOverheadUs ?? 0) : null;
  return {
    workload: w.name,
    device: device.deviceId,
    medianMs: e2e.medianUs / 1000,
    p10Ms: e2e.p10Us / 1000,
    p90Ms: e2e.p90Us / 1000,
    repetitions: e2e.repetitions,
    passMediansMs: (outcome.passMediansUs ?? [e2e.medianUs]).map((us) => us / 1000),
    warnings: [
      ...passWarnings(outcome.passMediansUs ?? []),
      ...measuredConditionsWarnings(conditions),
      ...[machineStateWarning(machineState)].filter((l): l is string => l !== null),
    ],
    machineState,
    nodesSumMs: nodesSum.medianUs / 1000,
    frameworkOverheadMs: (e2e.medianUs - nodesSum.medianUs) / 1000,
    profiledMs: summarize(outcome.tracedWallUs).medianUs / 1000,
    predicted,
    // Measured from Node: the prediction as a Node caller sees it (device time plus the binding).
    errorPct: predicted ? ((fromNodeUs(predicted) - e2e.medianUs) / e2e.medianUs) * 100 : null,
    band,
    nodeErrorPct: predictedNodeSum !== null ? ((predictedNodeSum - nodesSum.medianUs) / nodesSum.medianUs) * 100 : null,
    nodes: nodes.sort((a, b) => b.measuredUs - a.measuredUs),
    fileNodes: byFile,
    fileNodeCount: w.nodes.length,
    unmatchedNodes: unmatched,
    stored,
    outputShapes: outcome.outputShapes,
    ...(trace ? { trace } : {}),
  };
}

function bandOutcome(b: ModelBand, measuredUs: number, check: boolean): NonNullable<ModelMeasurement['band']> {
  return {
    lowMs: b.lowUs / 1000,
    highMs: b.highUs / 1000,
    inside: measuredUs >= b.lowUs && measuredUs <= b.highUs,
    from: b.from,
    n: b.n,
    check,
  };
}

/** What a reorder ORT inserted says of itself: before the file node it feeds, after the one it reads. */
function insertedNote(opType: string, fileNode: string | undefined): string | null {
  if (opType !== 'ReorderInput' && opType !== 'ReorderOutput') return null;
  if (fileNode === undefined) return 'inserted by ORT';
  return `inserted by ORT ${opType === 'ReorderInput' ? 'before' : 'after'} ${fileNode}`;
}

/**
 * The executed nodes' times per node of the file: each goes to its main file node, as
 * predict-model's do (model-prediction-service onUserGraph); an executed node of no file
 * node keeps a row of its own under its ORT name.
 */
function fileNodeTable(
  file: readonly WorkloadNode[],
  ran: readonly { node: MeasuredNode; file: number | undefined }[],
  predicted: WorkloadPrediction | null,
): FileNodeMeasurement[] {
  const rows = new Map<string, FileNodeMeasurement>();
  for (const { node, file: index } of ran) {
    const own = index === undefined ? undefined : file[index];
    const key = own ? `file:${index}` : `ran:${node.name}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        name: own?.name ?? node.name,
        opType: own?.opType ?? node.opType,
        measuredUs: 0,
        predictedUs: own && index !== undefined ? (predicted?.nodes[index]?.timeUs ?? null) : null,
        executed: [],
      };
      rows.set(key, row);
    }
    row.measuredUs += node.measuredUs;
    row.executed.push({ name: node.name, opType: node.opType, fileNodes: node.fileNodes, inserted: node.inserted });
  }
  return [...rows.values()].sort((a, b) => b.measuredUs - a.measuredUs);
}

/** Passes further apart than this (relative to the lower) say the machine was busy for one of them. */
const PASS_DISAGREEMENT = 0.1;

/** A warning when the untraced passes disagree: something else ran on the machine during one. */
export function passWarnings(mediansUs: readonly number[]): string[] {
  if (mediansUs.length < 2) return [];
  const lo = Math.min(...mediansUs);
  const hi = Math.max(...mediansUs);
  if (!(lo > 0) || hi / lo - 1 <= PASS_DISAGREEMENT) return [];
  return [
    `the untraced passes disagree by ${((hi / lo - 1) * 100).toFixed(0)}% (${mediansUs.map((u) => (u / 1000).toFixed(3)).join(' and ')} ms): something else was running; the lower is reported, re-run on a quiet machine to confirm it`,
  ];
}

/** Measured against predicted time per layer of the stored or catalog workload (µs). */
export interface LayerComparison {
  name: string;
  measuredUs: number;
  predictedUs: number;
}

/** The measurement's nodes summed by the layers of the workload as stored, beside the layer predictions. */
export function layerComparison(
  db: Database,
  spec: string,
  m: ModelMeasurement,
  opts: WorkloadSpecOptions = {},
): LayerComparison[] {
  const { workload } = resolveWorkload(db, spec, opts);
  const measuredByName = new Map(m.fileNodes.map((n) => [n.name, n.measuredUs]));
  return workload.layers.map((l) => {
    const names = l.nodes.map((i) => workload.nodes[i]?.name ?? '');
    return {
      name: l.name,
      measuredUs: names.reduce((s, n) => s + (measuredByName.get(n) ?? 0), 0),
      predictedUs: m.predicted?.layers[l.index]?.timeUs ?? 0,
    };
  });
}
