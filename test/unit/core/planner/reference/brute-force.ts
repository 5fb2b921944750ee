/**
 * Every plan of a space, priced one by one: the reference the DP is tested against, for small
 * instances only. Pure.
 */
import { pricePlan, type PlanSpec } from '../../../../../src-main/core/planner/cost/plan-cost.js';
import {
  groupAllowed,
  pipelineSpace,
  tensorDegreesOf,
  type GroupSpace,
} from '../../../../../src-main/core/planner/search/group-space.js';
import { microbatchCandidates, type PlannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import type { Plan, Schedule } from '../../../../../src-main/core/planner/types.js';

/** Device indices of each stage for a sequence of (class, size) choices in pipeline order. */
interface GroupChoice {
  cls: number;
  size: number;
  /** Tensor-parallel degree (absent: 1). */
  tp?: number;
}

function assignGroups(space: GroupSpace, seq: readonly GroupChoice[]): number[][] {
  const taken = space.classes.map(() => 0);
  const out: number[][] = new Array<number[]>(seq.length);
  for (let i = seq.length - 1; i >= 0; i--) {
    const g = seq[i] as GroupChoice;
    const c = space.classes[g.cls];
    const t = taken[g.cls] as number;
    if (!c || g.size < 1 || g.size > c.maxGroupSize || t + g.size > c.devices.length) {
      throw new Error(`group ${g.cls}/${g.size} does not fit its class`);
    }
    out[i] = c.devices.slice(t, t + g.size);
    taken[g.cls] = t + g.size;
  }
  return out;
}

export interface BruteForceOptions {
  schedule?: Schedule;
  microbatches?: readonly number[];
  space?: GroupSpace;
  /** Stop with an error past this many plans (default 2e6). */
  maxPlans?: number;
}

export interface BruteForceResult {
  /** The fastest feasible plan, or null. */
  best: Plan | null;
  evaluated: number;
}

/** Ordered splits of [0, L) into p non-empty ranges, as cut positions. */
function* compositions(L: number, p: number): Generator<number[]> {
  const cuts: number[] = [];
  function* rec(start: number, left: number): Generator<number[]> {
    if (left === 1) {
      yield [...cuts, L];
      return;
    }
    for (let c = start + 1; c <= L - left + 1; c++) {
      cuts.push(c);
      yield* rec(c, left - 1);
      cuts.pop();
    }
  }
  yield* rec(0, p);
}

/** Sequences of p (class, size, tensor-parallel degree) choices that the classes can supply. */
function* groupSequences(space: GroupSpace, p: number, degrees: readonly number[]): Generator<GroupChoice[]> {
  const left = space.classes.map((c) => c.devices.length);
  const seq: GroupChoice[] = [];
  function* rec(): Generator<GroupChoice[]> {
    if (seq.length === p) {
      yield [...seq];
      return;
    }
    for (let cls = 0; cls < space.classes.length; cls++) {
      const c = space.classes[cls];
      if (!c) continue;
      for (let size = 1; size <= Math.min(c.maxGroupSize, left[cls] as number); size++) {
        left[cls] = (left[cls] as number) - size;
        for (const tp of degrees) {
          if (!groupAllowed(space, size, tp)) continue;
          seq.push({ cls, size, tp });
          yield* rec();
          seq.pop();
        }
        left[cls] = (left[cls] as number) + size;
      }
    }
  }
  yield* rec();
}

export function bruteForce(ctx: PlannerContext, opts: BruteForceOptions = {}): BruteForceResult {
  const schedule = opts.schedule ?? '1f1b';
  const space = opts.space ?? pipelineSpace(ctx.problem);
  const ms = opts.microbatches ?? microbatchCandidates(ctx.problem.batch);
  const maxPlans = opts.maxPlans ?? 2e6;
  const L = ctx.problem.layers.length;
  const D = space.classes.reduce((n, c) => n + c.devices.length, 0);
  const ids = ctx.tables.deviceIds;
  let best: Plan | null = null;
  let evaluated = 0;
  const degrees = space.name === 'pipeline' ? [1] : tensorDegreesOf(ctx.problem);
  for (let p = 1; p <= Math.min(L, D); p++) {
    for (const seq of groupSequences(space, p, degrees)) {
      const groups = assignGroups(space, seq);
      for (const ends of compositions(L, p)) {
        for (const m of ms) {
          if (++evaluated > maxPlans) throw new Error(`brute force: more than ${maxPlans} plans`);
          const spec: PlanSpec = {
            stages: ends.map((to, i) => ({
              from: i === 0 ? 0 : (ends[i - 1] as number),
              to,
              devices: (groups[i] as number[]).map((d) => ids[d] as string),
              ...((seq[i]?.tp ?? 1) > 1 ? { tp: seq[i]?.tp } : {}),
            })),
            microbatches: m,
            schedule,
          };
          const plan = pricePlan(ctx, spec);
          if (plan.feasible && (!best || plan.stepUs < best.stepUs)) best = plan;
        }
      }
    }
  }
  return { best, evaluated };
}
