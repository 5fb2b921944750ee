/**
 * The nodes measure-model measured, stored as measurements (source "model") in a run of their
 * own, so the predictor learns from the user's own models; a shape already stored is not stored
 * again (déjà vu).
 */
import type { Measurement } from '../../core/domain/measurement.js';
import type { EpConfig } from '../../core/domain/execution-provider.js';
import { summarize } from '../../core/profiler/timing-stats.js';
import { KERNEL_OPS } from '../../core/kernels/types.js';
import type { WorkloadNode } from '../../core/workload/types.js';
import { ProfileRepo } from '../../adapters/store/profile-repo.js';
import type { Database } from '../../adapters/store/types.js';
import type { DeviceGroup } from '../predict/training-data.js';

/**
 * The measured nodes as measurements (source "model") in a run of their own, so the
 * next `train` learns from the user's model; a shape already stored is not stored again.
 */
export function storeNodes(
  db: Database,
  m: {
    device: DeviceGroup;
    ep: EpConfig;
    ortVersion: string;
    workloadName: string;
    nodes: { node: WorkloadNode; samples: number[] }[];
    /** When the measuring began: the run spans it, not only the storing. */
    began: Date;
  },
): { inserted: number; alreadyStored: number } {
  const profiles = new ProfileRepo(db);
  const threads = m.ep.name === 'cpu' ? m.ep.threads : null;
  const run = profiles.createRun({
    machineId: m.device.machineId,
    deviceKey: m.device.deviceKey,
    suite: `model:${m.workloadName}`,
    executionProvider: m.ep.name,
    threads,
    runtimeVersion: m.ortVersion,
    began: m.began,
  });
  const measurements: Measurement[] = [];
  for (const { node, samples } of m.nodes) {
    const s = summarize(samples.filter((v) => v > 0));
    if (!node.kernel || !node.family || !(KERNEL_OPS as readonly string[]).includes(node.kernel.op)) continue;
    if (!(s.medianUs > 0)) continue;
    measurements.push({
      runId: run.id,
      deviceKey: m.device.deviceKey,
      op: node.kernel.op,
      family: node.family,
      shape: node.kernel.shape,
      dtype: node.dtype,
      flops: node.flops,
      bytes: node.bytes,
      executionProvider: m.ep.name,
      threads,
      runtimeVersion: m.ortVersion,
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
  const stored = profiles.insertMeasurements(run.id, measurements);
  profiles.finishRun(run.id, 'complete', null, [
    `measured ${m.workloadName}: ${stored.inserted} new node shapes, ${stored.skipped} already stored`,
  ]);
  return { inserted: stored.inserted, alreadyStored: stored.skipped };
}
