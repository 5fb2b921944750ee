/**
 * `pipedejavu compare A B [C ...]`: machines side by side: each profiled device's roofline (peaks,
 * bandwidth, ridge, dispatch), its efficiency per op family (the median kernel's share of the
 * roofline bound it could reach), and, for a chosen workload, its predicted time.
 */
import type { Mode } from '../../core/planner/types.js';
import type { OptimizingRunner } from './executed-graph-service.js';
import { machineFor } from '../machine/machine-service.js';
import { predictOnMachine } from '../predict/model-prediction-service.js';
import { rooflinesWithPoints } from '../profile/roofline-service.js';
import type { RooflinePoint } from '../../core/domain/roofline-point.js';
import type { ComparedDevice, ComparedMachine, Comparison } from '../../core/domain/comparison.js';
import type { DeviceSummary } from '../../core/profiler/device-summary.js';
import { UserError } from '../../core/errors.js';
import { groupBy } from '../../core/util/group-by.js';
import { deviceIdOf } from '../../core/domain/device-id.js';
import type { Database } from '../../adapters/store/types.js';

export type { Comparison };

export interface CompareRequest {
  machines: readonly string[];
  workload?: string;
  mode?: Mode;
  batch?: number;
  seq?: number;
  image?: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** Each family's median achieved / attainable (min of the dtype's peak and bandwidth x intensity). */
function familyEfficiency(summary: DeviceSummary, points: readonly RooflinePoint[]): Record<string, number> {
  const bw = summary.bandwidthGBps;
  const efficiencies = points.flatMap((p) => {
    const peak = summary.peakGflops[p.dtype as keyof DeviceSummary['peakGflops']] ?? summary.peakGflops.fp32;
    if (!peak || !bw || p.flops <= 0) return [];
    const bound = Math.min(peak, bw * p.intensity);
    return bound > 0 ? [{ family: p.family, efficiency: Math.min(1, p.gflops / bound) }] : [];
  });
  const byFamily = groupBy(
    efficiencies,
    (e) => e.family,
    (e) => e.efficiency,
  );
  return Object.fromEntries([...byFamily].sort(([a], [b]) => a.localeCompare(b)).map(([f, xs]) => [f, median(xs)]));
}

export async function compareMachines(
  db: Database,
  newRunner: () => OptimizingRunner & { close(): Promise<void> },
  req: CompareRequest,
): Promise<Comparison> {
  if (req.machines.length < 2)
    throw new UserError('compare needs at least two machines (ids or labels; see pipedejavu machines)');
  const machines: ComparedMachine[] = [];
  let workload: Comparison['workload'] = null;
  for (const name of req.machines) {
    const m = machineFor(db, name);
    const names = new Map(m.devices.map((d) => [d.key, d.name]));
    const devices: ComparedDevice[] = rooflinesWithPoints(db, m.id).map((r) => ({
      id: r.id,
      label: r.label,
      deviceKey: r.deviceKey,
      name: names.get(r.deviceKey) ?? r.deviceKey,
      executionProvider: r.executionProvider,
      threads: r.threads,
      summary: r.summary,
      familyEfficiency: familyEfficiency(r.summary, r.points),
    }));
    if (req.workload && devices.length > 0) {
      const mode = req.mode ?? 'inference';
      const p = await predictOnMachine(db, newRunner, {
        workload: req.workload,
        mode,
        machineId: m.id,
        ...(req.batch !== undefined ? { batch: req.batch } : {}),
        ...(req.seq !== undefined ? { seq: req.seq } : {}),
        ...(req.image !== undefined ? { image: req.image } : {}),
      });
      const byId = new Map(p.predictions.map((x) => [deviceIdOf(x.device), x]));
      for (const d of devices) {
        const hit = byId.get(d.id);
        if (hit) d.predictedUs = hit.prediction.totalUs;
      }
      workload = { name: p.workload.name, mode, batch: req.batch ?? 1, predictor: p.predictor };
    }
    machines.push({ id: m.id, label: m.label, source: m.source, devices });
  }
  return { machines, workload };
}
