/**
 * Devices that share one prediction share one entry in every layer's time records: a cluster's
 * 16,384 datasheet GPUs of one kind are one key, so building, checking and reading the records
 * costs O(kinds x layers), not O(GPUs x layers). Pure.
 */
import type { PlanProblem } from '../types.js';

/** The key of a device's times in the problem's layer records (problem.timesOf): its own id unless it shares another's. */
export function timesKey(problem: Pick<PlanProblem, 'timesOf'>, id: string): string {
  return problem.timesOf?.[id] ?? id;
}

/**
 * The devices the layers' records are keyed by (the first of each distinct prediction object, with
 * it) and each other device's key (`timesOf`, absent when no two share one). Devices that share a
 * prediction have equal times on every layer by construction, so keying them once is exact.
 */
export function sharedTimes<C extends { device: { id: string } }, P extends object>(
  candidates: readonly C[],
  predictions: readonly P[],
): { candidates: C[]; predictions: P[]; timesOf?: Record<string, string> } {
  const first = new Map<P, string>();
  const keyed: C[] = [];
  const keyedPredictions: P[] = [];
  const timesOf: Record<string, string> = {};
  let shared = false;
  candidates.forEach((c, j) => {
    const p = predictions[j];
    const key = p !== undefined ? first.get(p) : undefined;
    if (key !== undefined) {
      timesOf[c.device.id] = key;
      shared = true;
      return;
    }
    if (p !== undefined) first.set(p, c.device.id);
    keyed.push(c);
    keyedPredictions.push(p as P);
  });
  return { candidates: keyed, predictions: keyedPredictions, ...(shared ? { timesOf } : {}) };
}
