/**
 * Whole-model plans: one device, or data parallel over a set of devices (each microbatch split in
 * whole samples in proportion to device speed, gradients all-reduced once per step). Pure.
 */
import { pricePlan, type PlanSpec, type StageSpec } from '../cost/plan-cost.js';
import { hybridSpace, tensorDegreesOf } from './group-space.js';
import { microbatchCandidates, type PlannerContext } from '../problem/problem.js';
import type { Plan, Schedule } from '../types.js';

export interface WholeModelOptions {
  schedule?: Schedule;
  microbatches?: readonly number[];
  /** Every subset is tried up to this many devices; beyond, the fastest-first prefixes (default 12). */
  maxExhaustiveDevices?: number;
}

/** Largest need/available ratio over the plan's devices (how far it is from fitting). */
function overflow(p: Plan): number {
  return p.memory.reduce((w, m) => Math.max(w, m.availableBytes > 0 ? m.neededBytes / m.availableBytes : Infinity), 0);
}

/**
 * The fastest feasible microbatch count for fixed stages (fewest microbatches on ties); when none
 * fits, the one closest to fitting. virtualStages: interleaved 1F1B's chunks a stage (1: none);
 * groups: the context- and expert-parallel degrees (absent: none).
 */
export function bestOverMicrobatches(
  ctx: PlannerContext,
  stages: readonly StageSpec[],
  microbatches: readonly number[],
  schedule: Schedule,
  virtualStages = 1,
  groups: Pick<PlanSpec, 'contextParallel' | 'expertParallel'> = {},
): Plan {
  let best: Plan | null = null;
  for (const m of microbatches) {
    const p = pricePlan(ctx, { stages, microbatches: m, schedule, virtualStages, ...groups });
    if (!best) best = p;
    else if (p.feasible !== best.feasible) {
      if (p.feasible) best = p;
    } else if (p.feasible ? p.stepUs < best.stepUs : overflow(p) < overflow(best)) best = p;
  }
  if (!best) throw new Error('no microbatch counts to try');
  return best;
}

/** One plan per device: all layers there. */
export function singleDevicePlans(ctx: PlannerContext, opts: WholeModelOptions = {}): Plan[] {
  const ms = opts.microbatches ?? microbatchCandidates(ctx.problem.batch);
  const L = ctx.problem.layers.length;
  return ctx.problem.devices.map((d) =>
    bestOverMicrobatches(ctx, [{ from: 0, to: L, devices: [d.id] }], ms, opts.schedule ?? '1f1b'),
  );
}

/** Feasible first, then by step time. */
export function rank(plans: readonly Plan[]): Plan[] {
  return [...plans].sort((a, b) => Number(b.feasible) - Number(a.feasible) || a.stepUs - b.stepUs);
}

/**
 * Device sets of two or more to try: all of them, or fastest-first prefixes past the limit (every
 * size up to 32, then powers of two and all of them: a cluster has hundreds of devices).
 */
function dataParallelSets(ctx: PlannerContext, maxExhaustive = 12): { sets: string[][]; exhaustive: boolean } {
  const ids = ctx.problem.devices.map((d) => d.id);
  const D = ids.length;
  if (D <= maxExhaustive) {
    const sets: string[][] = [];
    for (let mask = 1; mask < 1 << D; mask++) {
      const set = ids.filter((_, i) => mask & (1 << i));
      if (set.length >= 2) sets.push(set);
    }
    return { sets, exhaustive: true };
  }
  const L = ctx.problem.layers.length;
  const speed = ids.map((id, i) => ({ id, t: ctx.tables.perSampleUs(i, 0, L) })).sort((a, b) => a.t - b.t);
  const sets: string[][] = [];
  for (let n = 2; n <= D; n++) {
    if (n <= 32 || (n & (n - 1)) === 0 || n === D) sets.push(speed.slice(0, n).map((s) => s.id));
  }
  return { sets, exhaustive: false };
}

/** One plan per device set (two or more devices), best microbatch count each. */
export function dataParallelPlans(
  ctx: PlannerContext,
  opts: WholeModelOptions = {},
): { plans: Plan[]; exhaustive: boolean } {
  const ms = opts.microbatches ?? microbatchCandidates(ctx.problem.batch);
  const L = ctx.problem.layers.length;
  const { sets, exhaustive } = dataParallelSets(ctx, opts.maxExhaustiveDevices);
  const plans = sets.map((devices) =>
    bestOverMicrobatches(ctx, [{ from: 0, to: L, devices }], ms, opts.schedule ?? '1f1b'),
  );
  return { plans, exhaustive };
}

/** Replica counts tried on a class: every one up to this, then powers of two and the whole class. */
const EVERY_REPLICA_COUNT_UP_TO = 32;

/**
 * Replica counts of tp devices each for a class of `size` devices: every count up to 32, then
 * powers of two and the most the class holds. A class has hundreds of devices on a cluster (256
 * H100s: 255 group sizes, each priced over all its devices), and its devices are alike, so counts
 * in between only move the step time between their neighbours'; dataParallelSets bounds its sets
 * the same way.
 */
function replicaCounts(size: number, tp: number): number[] {
  const most = Math.floor(size / tp);
  const out: number[] = [];
  for (let r = tp === 1 ? 2 : 1; r <= most; r++) {
    if (r <= EVERY_REPLICA_COUNT_UP_TO || (r & (r - 1)) === 0 || r === most) out.push(r);
  }
  return out;
}

/**
 * One-stage plans on groups of like devices (same name and memory): for each class, each allowed
 * tensor-parallel degree t (1 included) and each group of n ≥ 2 devices of the class that t
 * divides (its first n; past 32 replicas, powers of two and the whole class: replicaCounts), the
 * whole model on n / t replicas of t devices, best microbatch count each. Searches without
 * pipelines (ZeRO-2/3) try these instead of every device set.
 */
export function likeGroupPlans(ctx: PlannerContext, opts: WholeModelOptions = {}): Plan[] {
  const ms = opts.microbatches ?? microbatchCandidates(ctx.problem.batch);
  const L = ctx.problem.layers.length;
  const degrees = tensorDegreesOf(ctx.problem);
  const plans: Plan[] = [];
  for (const c of hybridSpace(ctx.problem).classes) {
    for (const tp of degrees) {
      for (const n of replicaCounts(c.devices.length, tp).map((r) => r * tp)) {
        const devices = c.devices.slice(0, n).map((i) => ctx.tables.deviceIds[i] as string);
        plans.push(bestOverMicrobatches(ctx, [{ from: 0, to: L, devices, tp }], ms, opts.schedule ?? '1f1b'));
      }
    }
  }
  return plans;
}

/**
 * The whole model on one tensor-parallel group of every device when they are of several kinds
 * (each layer at its slowest member's pace), at each allowed degree that divides the devices:
 * likeGroupPlans only groups devices of one kind. Serving favours such a group (a decode step
 * reads 1/tp of the weights on each member at once).
 */
export function mixedGroupPlans(ctx: PlannerContext, opts: WholeModelOptions = {}): Plan[] {
  const ms = opts.microbatches ?? microbatchCandidates(ctx.problem.batch);
  const D = ctx.problem.devices.length;
  if (D < 2 || hybridSpace(ctx.problem).classes.length < 2) return [];
  const devices = ctx.problem.devices.map((d) => d.id);
  const L = ctx.problem.layers.length;
  return tensorDegreesOf(ctx.problem)
    .filter((tp) => tp > 1 && D % tp === 0)
    .map((tp) => bestOverMicrobatches(ctx, [{ from: 0, to: L, devices, tp }], ms, opts.schedule ?? '1f1b'));
}
