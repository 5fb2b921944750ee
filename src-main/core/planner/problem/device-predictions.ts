/** Each candidate device's predicted workload times, shared between devices alike within measurement noise. Pure. */
import type { Dtype } from '../../domain/measurement.js';
import type { Predictor } from '../../predictor/types.js';
import { count } from '../../text/plural.js';
import { predictWorkload, type WorkloadPrediction } from '../../workload/predict-workload.js';
import type { Workload } from '../../workload/types.js';
import type { PlanCandidate } from '../search/plan-candidate.js';

/** Measured features within this share of each other make devices alike (one prediction serves them). */
const ALIKE_FEATURES = 0.02;

const near = (a: number | undefined, b: number | undefined, tol: number): boolean =>
  a === b || (a !== undefined && b !== undefined && Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b)));

/** Same kind of device, the same dtypes measured, peaks, bandwidth and dispatch within `tol`. */
function alikeDevices(a: PlanCandidate, b: PlanCandidate, tol: number): boolean {
  const fa = a.features;
  const fb = b.features;
  const dtypes = Object.keys(fa.peakGflops);
  return (
    a.device.name === b.device.name &&
    a.device.kind === b.device.kind &&
    a.device.estimate === b.device.estimate &&
    fa.threads === fb.threads &&
    dtypes.length === Object.keys(fb.peakGflops).length &&
    dtypes.every((k) => near(fa.peakGflops[k as Dtype], fb.peakGflops[k as Dtype], tol)) &&
    near(fa.bandwidthGBps, fb.bandwidthGBps, tol) &&
    near(fa.dispatchUs, fb.dispatchUs, 5 * tol)
  );
}

/**
 * Each device's prediction; devices alike within measurement noise (a cluster's nodes of one GPU
 * model, each profiled on its own) share the first one's, so the searches see them as twins. A
 * slower node (a throttled GPU) keeps its own.
 */
export function predictAll(
  workload: Workload,
  trained: () => Predictor,
  candidates: readonly PlanCandidate[],
  warnings: string[],
): WorkloadPrediction[] {
  const reps: { c: PlanCandidate; p: WorkloadPrediction }[] = [];
  // Datasheet GPUs of one model are the same device by construction: only measured ones count here.
  let sharedMeasured = 0;
  const out = candidates.map((c) => {
    const rep = reps.find((r) => alikeDevices(r.c, c, ALIKE_FEATURES));
    if (rep) {
      if (c.device.estimate === 'profiled') sharedMeasured++;
      return rep.p;
    }
    const p = predictWorkload(workload, c.predictor ?? trained(), c.features, 'inference');
    reps.push({ c, p });
    return p;
  });
  if (sharedMeasured > 0) {
    const measured = candidates.filter((c) => c.device.estimate === 'profiled').length;
    warnings.push(
      `${count(sharedMeasured, 'measured device')} within ${ALIKE_FEATURES * 100}% of another of its kind use that one's predicted times (${count(candidates.length, 'device')}: ${measured} measured, ${candidates.length - measured} from datasheets)`,
    );
  }
  return out;
}
