/**
 * FROZEN REFERENCE, tests only: the planner's exact pipeline search as it was before the speed-up
 * (src-main/core/planner/pipeline-dp.ts at commit ca6f10c), kept unchanged so that
 * dp-vs-reference.test.ts can check the optimised search finds the same optimum on instances too
 * large for brute force. Do not optimise or fix this copy. (It ignored the optimizer-offload
 * sync of one-device stages, since fixed: compare only problems without offload.)
 *
 * Original header follows.
 */
/**
 * Exact search over pipeline plans: contiguous layer ranges on ordered groups of devices (see
 * group-space.ts), for each microbatch count. Pure.
 *
 * What it minimizes, for a fixed microbatch count m (evaluate.ts):
 *   step = Σ t_i + d·Σ c_k + Σ a_i + (m − 1) · max(max t_i, max c_k)
 * over every plan of the space whose stages fit in memory (activations in flight by the schedule).
 *
 * How (Alpa's inter-operator DP): for a cap T on the stage and cut times, a DP over suffixes
 * (suffix-dp.ts) finds
 *   G(T) = min Σ t_i + d·Σ c_k + Σ a_i  subject to t_i ≤ T, c_k ≤ T, memory fits,
 * and the optimum is min over T of G(T) + (m − 1)·T, T ranging over every distinct stage and cut
 * time, searched by branch and bound (cap-search.ts) with the same answer as trying every T.
 * Microbatch counts are searched largest first; by default a count stops as soon as it cannot beat
 * the best so far, so `best` is exact and each count's plan is its optimum when flagged `exact`.
 */
import { minOverCap } from './cap-search.js';
import { pricePlan } from '../../../../../src-main/core/planner/cost/plan-cost.js';
import { pipelineSpace, type GroupSpace } from '../../../../../src-main/core/planner/search/group-space.js';
import { microbatchCandidates, type PlannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { shapeOf, SuffixDp } from './suffix-dp.js';
import type { Plan, Schedule } from '../../../../../src-main/core/planner/types.js';

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
}

export interface MicrobatchResult {
  microbatches: number;
  /** Best plan found for this m, or null when none was (none fits, or none beats the best of other counts). */
  plan: Plan | null;
  /** plan is this m's optimum (always with exactPerMicrobatch; else when it beat the counts searched before). */
  exact: boolean;
  /** DP runs (values of T) the branch and bound needed. */
  dpRuns: number;
  /** Distinct stage and cut times (the T axis). */
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
export function dpStateCount(ctx: PlannerContext, space: GroupSpace, schedule: Schedule): number {
  const s = shapeOf(space, ctx, schedule);
  return ctx.problem.layers.length * s.groups.length * s.usages * s.stageDim;
}

/** The best plan of the space for each microbatch count, and the best of all. */
export function pipelineSearch(ctx: PlannerContext, opts: PipelineSearchOptions = {}): PipelineSearchResult {
  const schedule = opts.schedule ?? '1f1b';
  const space = opts.space ?? pipelineSpace(ctx.problem);
  const ms = opts.microbatches ?? microbatchCandidates(ctx.problem.batch);
  const shape = shapeOf(space, ctx, schedule);
  const states = ctx.problem.layers.length * shape.groups.length * shape.usages * shape.stageDim;
  const maxStates = opts.maxStates ?? 4e6;
  if (states > maxStates) {
    return {
      best: null,
      byMicrobatches: [],
      dpRuns: 0,
      skipped: `${space.name} search skipped: ${states.toExponential(1)} DP states (limit ${maxStates.toExponential(1)})`,
    };
  }
  const byMicrobatches: MicrobatchResult[] = [];
  let best: Plan | null = null;
  let dpRuns = 0;
  let bound = Infinity;
  const L = ctx.problem.layers.length;
  for (const m of [...ms].sort((a, b) => b - a)) {
    // Since issue 46 a stage's gradient sync hides behind a microbatch's compute: one table per m.
    const sync = new Float64Array(shape.groups.length * L * (L + 1)).fill(NaN);
    const dp = new SuffixDp(ctx, shape, m, schedule, sync);
    const r = minOverCap(dp.candidates, m - 1, (cap) => dp.solve(cap), opts.exactPerMicrobatch ? Infinity : bound);
    dpRuns += r.runs;
    const plan = r.solution ? pricePlan(ctx, r.solution.spec) : null;
    const exact = opts.exactPerMicrobatch === true || r.total < bound || r.solution === null;
    byMicrobatches.push({ microbatches: m, plan, exact, dpRuns: r.runs, tmaxCandidates: dp.candidates.length });
    bound = Math.min(bound, r.total);
    if (plan && (!best || plan.stepUs < best.stepUs)) best = plan;
  }
  byMicrobatches.sort((a, b) => a.microbatches - b.microbatches);
  return { best, byMicrobatches, dpRuns };
}
