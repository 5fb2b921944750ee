/** Checks a planning problem and bundles it with its cost tables. Pure. */
import { UserError } from '../../errors.js';
import { alphaBetaCostModel, type CostModel } from '../cost/cost-model.js';
import { CostTables } from '../cost/stage-cost.js';
import type { PlanProblem } from '../types.js';
import { recomputedBackwardParts } from '../memory/recompute.js';

export interface PlannerContext {
  problem: PlanProblem;
  cost: CostModel;
  tables: CostTables;
}

/** Layer lists already checked (a search's variants share them; 16,384 GPUs' times are long to read again). */
const validLayers = new WeakSet<readonly PlanProblem['layers'][number][]>();

/** Time records already checked: the variants of a search share most of them. */
const validTimes = new WeakSet<Record<string, number>>();

/** Whether every time of a record is a number >= 0. */
function timesValid(times: Record<string, number>): boolean {
  if (validTimes.has(times)) return true;
  for (const id in times) if (!((times[id] as number) >= 0)) return false;
  validTimes.add(times);
  return true;
}

/** Throws a UserError saying what is wrong with the problem. */
function validateProblem(problem: PlanProblem): void {
  if (problem.devices.length === 0) {
    throw new UserError('no devices to plan on: add at least one device (a local GPU or CPU, or a virtual device)');
  }
  if (problem.layers.length === 0) throw new UserError('the workload has no layers to place');
  if (!Number.isInteger(problem.batch) || problem.batch < 1) {
    throw new UserError(`batch must be a positive whole number of samples, got ${problem.batch}`);
  }
  if (!(problem.bytesPerParam > 0)) throw new UserError(`bytesPerParam must be positive, got ${problem.bytesPerParam}`);
  if (!(problem.overheadBytes >= 0)) throw new UserError(`overheadBytes must be >= 0, got ${problem.overheadBytes}`);
  const seen = new Set<string>();
  for (const d of problem.devices) {
    if (seen.has(d.id)) throw new UserError(`device ${d.id} is listed twice`);
    seen.add(d.id);
  }
  if (validLayers.has(problem.layers)) return;
  problem.layers.forEach((l, i) => {
    // A recomputed layer's backward times are sums of two records: valid when both are.
    const parts = recomputedBackwardParts(l);
    const backwardValid = (parts && parts.every(timesValid)) || timesValid(l.backwardUs);
    const bad = !timesValid(l.forwardUs) || !backwardValid;
    if (bad) throw new UserError(`layer ${i} (${l.name}) has a negative or non-numeric time`);
    const held = (l.residentBytesPerSample ?? 0) + (l.frozenBytes ?? 0);
    if (!(l.params >= 0) || !(l.outBytesPerSample >= 0) || !(l.activationBytesPerSample >= 0) || !(held >= 0)) {
      throw new UserError(`layer ${i} (${l.name}) has a negative or non-numeric size`);
    }
  });
  validLayers.add(problem.layers);
}

export function plannerContext(problem: PlanProblem, cost: CostModel = alphaBetaCostModel(problem)): PlannerContext {
  validateProblem(problem);
  return { problem, cost, tables: new CostTables(problem, cost) };
}

/** Microbatch counts tried: the divisors of the batch up to `max` (whole, equal microbatches). */
export function microbatchCandidates(batch: number, max = 64): number[] {
  const out: number[] = [];
  for (let m = 1; m <= Math.min(batch, max); m++) if (batch % m === 0) out.push(m);
  return out;
}
