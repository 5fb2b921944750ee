/**
 * The Workloads view's answers, built where the work runs (the job runner): a stored
 * workload's summary, and a workload's prediction on every profiled device of a machine.
 */
import type { WorkloadPredictionView, WorkloadSummaryView } from '../api/view-models.js';
import type { ApiRequest } from '../api/contract.js';
import { deviceIdOf } from '../core/domain/device-id.js';
import type { Workload } from '../core/workload/types.js';
import type { WorkloadPrediction } from '../core/workload/predict-workload.js';
import { executedByLayer, type MachinePrediction } from '../services/predict/model-prediction-service.js';
import type { DeviceGroup } from '../services/predict/training-data.js';
import { deviceLabel } from './device-labels.js';

export function workloadSummary(
  w: Workload,
  meta: { source: string; filePath: string | null; createdAt: string },
): WorkloadSummaryView {
  return {
    name: w.name,
    source: meta.source,
    filePath: meta.filePath,
    createdAt: meta.createdAt,
    nodes: w.nodes.length,
    layers: w.layers.length,
    params: w.layers.reduce((s, l) => s + l.params, 0),
    flops: w.layers.reduce((s, l) => s + l.flops, 0),
    warnings: w.warnings,
  };
}

/** One device's prediction as the Workloads view shows it (the 12 slowest executed nodes per layer). */
function deviceView(workload: Workload, d: DeviceGroup, p: WorkloadPrediction) {
  return {
    id: deviceIdOf(d),
    label: deviceLabel(d),
    totalUs: p.totalUs,
    lowUs: p.lowUs,
    highUs: p.highUs,
    band90: p.band90 ? { lowUs: p.band90.lowUs, highUs: p.band90.highUs, from: p.band90.from, n: p.band90.n } : null,
    layerUs: p.layers.map((l) => l.timeUs),
    familyShare: p.familyShare,
    overheadUs: p.overheadUs,
    bindingUs: p.binding?.us ?? null,
    graph: p.graph,
    executedByLayer: executedByLayer(workload, p).map((l) =>
      l.slice(0, 12).map((e) => ({ name: e.name, opType: e.opType, timeUs: e.timeUs })),
    ),
    warnings: p.warnings,
  };
}

/** The prediction view, less the last measurement of the workload (the app adds it: it keeps the jobs). */
export function predictionView(
  req: ApiRequest<'workload:predict'>,
  { workload, predictor, predictions }: MachinePrediction,
): Omit<WorkloadPredictionView, 'measured'> {
  const devices = predictions.map(({ device, prediction }) => deviceView(workload, device, prediction));
  return {
    workload: workload.name,
    mode: req.mode,
    batch: workload.bindings.batch ?? req.batch ?? 1,
    predictor,
    layers: workload.layers.map((l) => l.name),
    devices: devices.map(({ warnings: _w, ...p }) => p),
    warnings: [...new Set([...workload.warnings, ...devices.flatMap((p) => p.warnings)])].slice(0, 20),
  };
}
