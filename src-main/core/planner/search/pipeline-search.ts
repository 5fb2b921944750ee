/**
 * Exact search over pipeline plans: contiguous layer ranges on ordered groups of devices (see
 * group-space.ts), for each microbatch count. Pure.
 *
 * What it minimizes, for a fixed microbatch count m (cost/plan-cost.ts):
 *   step = Σ t_i + d·Σ c_k + Σ a_i + (m − 1) · max(max t_i, max c_k)
 * over every plan of the space whose stages fit in memory (activations in flight by the schedule).
 *
 * How (Alpa's inter-operator DP): for a cap T on the stage and cut times, a DP over suffixes
 * (suffix-dp.ts) finds
 *   G(T) = min Σ t_i + d·Σ c_k + Σ a_i  subject to t_i ≤ T, c_k ≤ T, memory fits,
 * and the optimum is min over T of G(T) + (m − 1)·T, T ranging over every distinct stage and cut
 * time, searched by branch and bound (cap-search.ts) with the same answer as trying every T. Only
 * caps that could matter are searched: T ≥ the least cap a relaxation of the DP allows (mayFit:
 * below it G(T) = ∞), and floor + (m − 1)·T below the best so far, floor being a lower bound of
 * G (sumFloor); the least such cap is solved first, as with many microbatches the optimum sits
 * near it.
 * Microbatch counts are searched largest first; by default a count stops as soon as it cannot beat
 * the best so far (before its tables are built when a lower bound of its step, SuffixDp.stepFloor,
 * already cannot), so `best` is exact and each count's plan is its optimum when flagged `exact`.
 */
import { leastPassing, minOverCap, sortedDistinct } from './cap-search.js';
import { pricePlan } from '../cost/plan-cost.js';
import { pipelineSpace, type GroupSpace } from './group-space.js';
import { microbatchCandidates, type PlannerContext } from '../problem/problem.js';
import { dpStateCount, dpStateSpace } from './dp-state-space.js';
import { SuffixDp, type DpSolution } from './suffix-dp.js';
import type { Plan, Schedule } from '../types.js';

export interface PipelineSearchOptions {
  schedule?: Schedule;
  /** Microbatch counts to try (each must divide the batch); default: divisors of the batch up to 64. */
  microbatches?: readonly number[];
  /** Default: pipelineSpace (every ordered sequence of distinct devices). */
  space?: GroupSpace;
  /** Refuse spaces whose DP table would exceed this many states (default 4e6, about 100 MB). */
  maxStates?: number;
  /**
   * Find the optimum of every microbatch count (slower). By default a count's search stops once
   * it cannot beat the best of the counts already searched (largest first); `best` is exact either way.
   */
  exactPerMicrobatch?: boolean;
  /**
   * Only plans whose step is below this are sought (default Infinity): a caller that already
   * holds a plan this good, and knows this space's steps are lower bounds of its own, prunes with it.
   */
  bound?: number;
}

export interface MicrobatchResult {
  microbatches: number;
  /** Best plan found for this m, or null when none was (none fits, or none beats the best of other counts). */
  plan: Plan | null;
  /** plan is this m's optimum (always with exactPerMicrobatch; else when it beat the counts searched before). */
  exact: boolean;
  /** DP runs (values of T) the branch and bound needed. */
  dpRuns: number;
  /** Caps the branch and bound searched: distinct stage and cut times that could give a better plan. */
  tmaxCandidates: number;
}

export interface PipelineSearchResult {
  best: Plan | null;
  byMicrobatches: MicrobatchResult[];
  dpRuns: number;
  /** Set when the space was too large to search exactly. */
  skipped?: string;
}

/** Size of the DP table the space needs (states per run). */
export function spaceStateCount(ctx: PlannerContext, space: GroupSpace, schedule: Schedule): number {
  return dpStateCount(space, ctx, schedule);
}

/** The best plan of the space for each microbatch count, and the best of all. */
export function pipelineSearch(ctx: PlannerContext, opts: PipelineSearchOptions = {}): PipelineSearchResult {
  const schedule = opts.schedule ?? '1f1b';
  const space = opts.space ?? pipelineSpace(ctx.problem);
  const ms = opts.microbatches ?? microbatchCandidates(ctx.problem.batch);
  const states = dpStateCount(space, ctx, schedule);
  const maxStates = opts.maxStates ?? 4e6;
  if (states > maxStates) {
    return {
      best: null,
      byMicrobatches: [],
      dpRuns: 0,
      skipped: `${space.name} search skipped: ${states.toExponential(1)} DP states (limit ${maxStates.toExponential(1)})`,
    };
  }
  const stateSpace = dpStateSpace(space, ctx, schedule);
  const byMicrobatches: MicrobatchResult[] = [];
  let best: Plan | null = null;
  let dpRuns = 0;
  let bound = opts.bound ?? Infinity;
  const dp = new SuffixDp(ctx, stateSpace, schedule);
  try {
    for (const m of [...ms].sort((a, b) => b - a)) {
      const r = searchCount(ctx, dp, m, opts.exactPerMicrobatch ? Infinity : bound);
      // With no bound from other counts nothing was cut, so "none" means none fits.
      const exact = opts.exactPerMicrobatch === true || r.total < bound || bound === Infinity;
      byMicrobatches.push({ ...r.result, exact });
      dpRuns += r.result.dpRuns;
      bound = Math.min(bound, r.total);
      const plan = r.result.plan;
      if (plan && (!best || plan.stepUs < best.stepUs)) best = plan;
    }
  } finally {
    dp.release();
  }
  byMicrobatches.sort((a, b) => a.microbatches - b.microbatches);
  return { best, byMicrobatches, dpRuns };
}

/** One microbatch count's best plan below the limit (none when it cannot beat it), and its DP objective. */
function searchCount(
  ctx: PlannerContext,
  dp: SuffixDp,
  m: number,
  limit: number,
): { result: Omit<MicrobatchResult, 'exact'>; total: number } {
  const w = m - 1;
  // No plan of this count can beat the limit: its tables are not even built.
  if (limit < Infinity && (dp.stepFloor(m) >= limit || !mayBeat(dp, m, limit)))
    return { result: { microbatches: m, plan: null, dpRuns: 0, tmaxCandidates: 0 }, total: Infinity };
  dp.prepare(m);
  // A better plan's largest time c has floor + w·c below the limit, and is at least the least
  // cap T0 the relaxation (mayFit) allows. T0 is solved first; only the caps that could still
  // beat its plan too are sorted and searched.
  const floor = dp.sumFloor();
  const values = dp.capValues(floor, w, limit);
  const t0 = leastPassing(values, (c) => dp.mayFit(c));
  let caps: Float64Array = new Float64Array(0);
  let first: DpSolution | null = null;
  if (t0 < Infinity) {
    first = dp.solve(t0);
    const beat = first ? Math.min(limit, first.value + w * first.actualMax) : limit;
    caps = sortedDistinct(values.filter((c) => c >= t0 && (c === t0 || floor + w * c < beat)));
  }
  const r = minOverCap(caps, w, (cap) => dp.solve(cap), limit, floor, { solution: first });
  if (t0 < Infinity) r.runs++;
  const plan = r.solution ? pricePlan(ctx, r.solution.spec) : null;
  return { result: { microbatches: m, plan, dpRuns: r.runs, tmaxCandidates: caps.length }, total: r.total };
}

/**
 * Whether a plan with m microbatches might beat `limit`, before the count's tables (false: none
 * can). Its largest time c has G + (m − 1)·c < limit with G ≥ sumFloor ≥ sumFloorBefore, so every
 * stage time is at most the c that leaves; the relaxation the search applies to each cap first
 * (mayFit), on ranges computed as it asks them (SuffixDp.probe), refuses as the search would.
 */
export function mayBeat(dp: SuffixDp, m: number, limit: number): boolean {
  const floor = dp.sumFloorBefore(m);
  if (!(floor < limit)) return false;
  // 1e-9 of the limit above the cap: a cap whose sum with the floor rounds below the limit stays under it.
  const tmax = m > 1 ? (limit - floor + 1e-9 * limit) / (m - 1) : Infinity;
  dp.probe(m);
  return dp.mayFit(tmax);
}
