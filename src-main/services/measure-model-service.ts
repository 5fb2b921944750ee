/**
 * `measure-model`: run the user's real model under ONNX Runtime with profiling, and
 * set measured against predicted, end to end and per node. Measured nodes are stored
 * as measurements (source "model"), so the predictor learns from the user's own
 * models; a shape already stored is not stored again (déjà vu).
 */
import { UserError } from '../core/errors.js';
import type { Dtype, Measurement } from '../core/domain/measurement.js';
import { summarize } from '../core/profiler/timing-stats.js';
import { KERNEL_OPS } from '../core/kernels/types.js';
import type { WorkloadPrediction } from '../core/workload/predict-workload.js';
import { ProfileRepo } from '../adapters/store/profile-repo.js';
import type { Database } from '../adapters/store/types.js';
import type { KernelRunner } from '../adapters/ort/kernel-runner.js';
import type { EpConfig } from '../adapters/ort/protocol.js';
import { pickDevice, predictModel, resolveWorkload, type WorkloadSpecOptions } from './workload-service.js';

export interface MeasuredNode {
  name: string;
  opType: string;
  measuredUs: number;
  predictedUs: number | null;
}

export interface ModelMeasurement {
  workload: string;
  device: string;
  medianMs: number;
  p10Ms: number;
  p90Ms: number;
  repetitions: number;
  /** Sum of ORT's per-node kernel times per run (median), ms. */
  nodesSumMs: number;
  /** End to end minus the node sum: session, binding and scheduling overhead, ms. */
  frameworkOverheadMs: number;
  predicted: WorkloadPrediction | null;
  /** (predicted - measured) / measured of the whole model. */
  errorPct: number | null;
  /** Error of the node sum alone, against the predicted node sum. */
  nodeErrorPct: number | null;
  nodes: MeasuredNode[];
  /** ORT nodes that match no node of the file (fused by graph optimization). */
  unmatchedNodes: number;
  stored: { inserted: number; alreadyStored: number };
  outputShapes: Record<string, number[]>;
}

const RULE = { warmupRuns: 3, minRepetitions: 10, maxRepetitions: 200, targetCi: 0.02, budgetMs: 3000 };

export async function measureModel(
  db: Database,
  runner: KernelRunner,
  spec: string,
  opts: WorkloadSpecOptions & { device: string; threads?: number },
): Promise<ModelMeasurement> {
  const resolved = resolveWorkload(db, spec, opts);
  if (!resolved.filePath)
    throw new UserError('measure-model runs an .onnx file (catalog models have no weights to run)');
  const w = resolved.workload;
  if (!w.inputs?.length) throw new UserError(`no graph inputs known for ${w.name}`);
  const device = pickDevice(db, opts.device, opts.threads);
  const ep: EpConfig =
    opts.device === 'cpu'
      ? { name: 'cpu', threads: device.threads ?? 1 }
      : opts.device.startsWith('cuda:')
        ? { name: 'cuda', deviceId: Number(opts.device.slice(5)) }
        : { name: 'webgpu', deviceId: Number(opts.device.split(':')[1] ?? 0) };
  const info = await runner.start();
  const outcome = await runner.runModel({
    modelPath: resolved.filePath,
    inputs: w.inputs.map((i) => ({
      name: i.name,
      dims: i.dims,
      dtype: (i.dtype === 'other' ? 'fp32' : i.dtype) as Dtype,
    })),
    ep,
    rule: RULE,
  });
  if (!outcome.ok) throw new UserError(`running ${w.name} failed (${outcome.kind}): ${outcome.error}`);
  const e2e = summarize(outcome.wallUs);
  const nodesSum = summarize(outcome.kernelUs);
  let predicted: WorkloadPrediction | null = null;
  try {
    predicted = predictModel(db, spec, {
      ...opts,
      device: opts.device,
      ...(device.threads !== null ? { threads: device.threads } : {}),
    });
  } catch {
    predicted = null;
  }
  const byName = new Map(w.nodes.map((n, i) => [n.name, i]));
  const nodes: MeasuredNode[] = [];
  let unmatched = 0;
  const measurements: Measurement[] = [];
  const profiles = new ProfileRepo(db);
  const run = profiles.createRun({
    machineId: device.machineId,
    deviceKey: device.deviceKey,
    suite: `model:${w.name}`,
    executionProvider: ep.name,
    threads: ep.name === 'cpu' ? ep.threads : null,
    runtimeVersion: info.ortVersion,
  });
  for (const [name, samples] of Object.entries(outcome.byNodeUs)) {
    const s = summarize(samples.filter((v) => v > 0).length ? samples.filter((v) => v > 0) : [1e-3]);
    const idx = byName.get(name);
    const node = idx === undefined ? undefined : w.nodes[idx];
    if (!node || node.opType !== outcome.nodeOps[name]) {
      unmatched++;
      continue;
    }
    nodes.push({
      name,
      opType: node.opType,
      measuredUs: s.medianUs,
      predictedUs: predicted?.nodes[idx as number]?.timeUs ?? null,
    });
    if (node.kernel && node.family && (KERNEL_OPS as readonly string[]).includes(node.kernel.op) && s.medianUs > 0) {
      measurements.push({
        runId: run.id,
        deviceKey: device.deviceKey,
        op: node.kernel.op,
        family: node.family,
        shape: node.kernel.shape,
        dtype: node.dtype,
        flops: node.flops,
        bytes: node.bytes,
        executionProvider: ep.name,
        threads: ep.name === 'cpu' ? ep.threads : null,
        runtimeVersion: info.ortVersion,
        stats: {
          medianUs: s.medianUs,
          p10Us: Math.min(s.p10Us, s.medianUs),
          p90Us: Math.max(s.p90Us, s.medianUs),
          cv: s.cv,
          repetitions: s.repetitions,
          wallMedianUs: null,
        },
        source: 'model',
      });
    }
  }
  const stored = profiles.insertMeasurements(run.id, measurements);
  profiles.finishRun(run.id, 'complete', null, [
    `measured ${w.name}: ${stored.inserted} new node shapes, ${stored.skipped} already stored`,
  ]);
  const predictedNodeSum = predicted ? predicted.totalUs : null;
  return {
    workload: w.name,
    device: device.deviceId,
    medianMs: e2e.medianUs / 1000,
    p10Ms: e2e.p10Us / 1000,
    p90Ms: e2e.p90Us / 1000,
    repetitions: e2e.repetitions,
    nodesSumMs: nodesSum.medianUs / 1000,
    frameworkOverheadMs: (e2e.medianUs - nodesSum.medianUs) / 1000,
    predicted,
    errorPct: predicted ? ((predicted.totalUs - e2e.medianUs) / e2e.medianUs) * 100 : null,
    nodeErrorPct: predictedNodeSum !== null ? ((predictedNodeSum - nodesSum.medianUs) / nodesSum.medianUs) * 100 : null,
    nodes: nodes.sort((a, b) => b.measuredUs - a.measuredUs),
    unmatchedNodes: unmatched,
    stored: { inserted: stored.inserted, alreadyStored: stored.skipped },
    outputShapes: outcome.outputShapes,
  };
}
