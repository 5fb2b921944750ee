/**
 * FlexFlow-style stochastic search over pipeline plans with one device per stage: random moves
 * (shift a cut, swap two stages' devices, put an unused device on a stage, split a stage onto an
 * unused device, merge two stages, change the microbatch count), accepted by the Metropolis rule on
 * log step time, annealed, seeded. Plans that do not fit pay a penalty growing with the overflow.
 * Not exact: it returns the best feasible plan it met. Pure.
 */
import { seededRandom } from '../../random.js';
import { pricePlan, type PlanSpec } from '../cost/plan-cost.js';
import { microbatchCandidates, type PlannerContext } from '../problem/problem.js';
import { bestOverMicrobatches } from './whole-model.js';
import type { Plan, Schedule } from '../types.js';

export interface McmcOptions {
  seed?: number;
  /** Proposals (default 4000). */
  iterations?: number;
  /** Starting temperature on log step time (default 0.05: a 5% worse plan is taken with p ≈ 1/e). */
  temperature?: number;
  schedule?: Schedule;
  microbatches?: readonly number[];
  /** Starting plan (one device per stage); default: the fastest single device that fits. */
  start?: PlanSpec;
}

interface State {
  /** Stage ends; the last is the layer count. */
  ends: number[];
  /** Device index per stage. */
  devs: number[];
  /** Index into the microbatch candidates. */
  mi: number;
}

function energyOf(plan: Plan): number {
  if (!Number.isFinite(plan.stepUs)) return 1e9;
  const over = plan.memory.reduce((w, m) => Math.max(w, m.neededBytes / Math.max(1, m.availableBytes)), 0);
  return Math.log(Math.max(plan.stepUs, 1e-9)) + (plan.feasible ? 0 : 2 + 10 * Math.max(0, over - 1));
}

/** What a walk needs besides its state: the problem, the random source, the microbatch candidates. */
interface Walk {
  ctx: PlannerContext;
  rand: () => number;
  /** A uniform integer in [0, n). */
  pick: (n: number) => number;
  ms: readonly number[];
  schedule: Schedule;
}

export function mcmcSearch(ctx: PlannerContext, opts: McmcOptions = {}): Plan {
  const rand = seededRandom(opts.seed ?? 1);
  const walk: Walk = {
    ctx,
    rand,
    pick: (n) => Math.floor(rand() * n),
    ms: [...(opts.microbatches ?? microbatchCandidates(ctx.problem.batch))],
    schedule: opts.schedule ?? '1f1b',
  };
  const iterations = opts.iterations ?? 4000;
  const t0 = opts.temperature ?? 0.05;

  let state = initialState(walk, opts.start);
  let plan = pricePlan(ctx, toSpec(walk, state));
  let energy = energyOf(plan);
  let best = plan;
  let bestEnergy = energy;

  for (let it = 0; it < iterations; it++) {
    const temp = t0 * Math.pow(0.05, it / Math.max(1, iterations - 1));
    const next = propose(walk, state);
    if (!next) continue;
    const p = pricePlan(ctx, toSpec(walk, next));
    const e = energyOf(p);
    if (e <= energy || rand() < Math.exp(-(e - energy) / temp)) {
      state = next;
      plan = p;
      energy = e;
      if (better(p, e, best, bestEnergy)) {
        best = p;
        bestEnergy = e;
      }
    }
  }
  return best;
}

/** Feasible beats infeasible; then the faster feasible plan, or the lower energy. */
function better(p: Plan, e: number, b: Plan, be: number): boolean {
  if (p.feasible !== b.feasible) return p.feasible;
  return p.feasible ? p.stepUs < b.stepUs : e < be;
}

function toSpec(w: Walk, s: State): PlanSpec {
  const ids = w.ctx.tables.deviceIds;
  return {
    stages: s.ends.map((to, i) => ({
      from: i === 0 ? 0 : (s.ends[i - 1] as number),
      to,
      devices: [ids[s.devs[i] as number] as string],
    })),
    microbatches: w.ms[s.mi] as number,
    schedule: w.schedule,
  };
}

/** The given start, else every layer on the device (and microbatch count) that does best alone. */
function initialState(w: Walk, start: PlanSpec | undefined): State {
  const { ctx, ms } = w;
  if (start) {
    const mi = ms.indexOf(start.microbatches);
    return {
      ends: start.stages.map((s) => s.to),
      devs: start.stages.map((s) => ctx.tables.deviceIndex(s.devices[0] as string)),
      mi: mi >= 0 ? mi : 0,
    };
  }
  const L = ctx.problem.layers.length;
  let bestStart: { plan: Plan; dev: number } | null = null;
  ctx.problem.devices.forEach((d, dev) => {
    const p = bestOverMicrobatches(ctx, [{ from: 0, to: L, devices: [d.id] }], ms, w.schedule);
    if (!bestStart || better(p, energyOf(p), bestStart.plan, energyOf(bestStart.plan))) bestStart = { plan: p, dev };
  });
  const chosen = bestStart as { plan: Plan; dev: number } | null;
  if (!chosen) throw new Error('mcmc: no devices');
  return { ends: [L], devs: [chosen.dev], mi: Math.max(0, ms.indexOf(chosen.plan.microbatches)) };
}

/** A proposal being built from a state (copies of its arrays), with the devices it leaves unused. */
interface Draft extends State {
  unused: number[];
}

/** A random move on the draft; false when it does not apply to it. */
type Move = (w: Walk, d: Draft) => boolean;

/** Shift a cut by 1 to 3 layers. */
const shiftCut: Move = ({ rand, pick }, { ends }) => {
  const p = ends.length;
  if (p < 2) return false;
  const k = pick(p - 1);
  const step = (1 + pick(3)) * (rand() < 0.5 ? -1 : 1);
  const v = (ends[k] as number) + step;
  const lo = k === 0 ? 0 : (ends[k - 1] as number);
  if (v <= lo || v >= (ends[k + 1] as number)) return false;
  ends[k] = v;
  return true;
};

/** Swap two stages' devices. */
const swapDevices: Move = ({ pick }, { devs }) => {
  const p = devs.length;
  if (p < 2) return false;
  const a = pick(p);
  const b = (a + 1 + pick(p - 1)) % p;
  [devs[a], devs[b]] = [devs[b] as number, devs[a] as number];
  return true;
};

/** An unused device takes over a stage. */
const replaceDevice: Move = ({ pick }, { devs, unused }) => {
  if (unused.length === 0) return false;
  devs[pick(devs.length)] = unused[pick(unused.length)] as number;
  return true;
};

/** Split a stage; the new half goes to an unused device. */
const splitStage: Move = ({ rand, pick }, { ends, devs, unused }) => {
  if (unused.length === 0) return false;
  const i = pick(ends.length);
  const from = i === 0 ? 0 : (ends[i - 1] as number);
  const to = ends[i] as number;
  if (to - from < 2) return false;
  const cut = from + 1 + pick(to - from - 1);
  const fresh = unused[pick(unused.length)] as number;
  ends.splice(i, 0, cut);
  if (rand() < 0.5) devs.splice(i, 0, fresh);
  else devs.splice(i + 1, 0, fresh);
  return true;
};

/** Merge two neighbours onto one of their devices. */
const mergeStages: Move = ({ rand, pick }, { ends, devs }) => {
  if (ends.length < 2) return false;
  const k = pick(ends.length - 1);
  ends.splice(k, 1);
  devs.splice(rand() < 0.5 ? k : k + 1, 1);
  return true;
};

/** The next microbatch count up or down. */
const changeMicrobatches: Move = ({ rand, ms }, d) => {
  if (ms.length < 2) return false;
  const mi = Math.min(ms.length - 1, Math.max(0, d.mi + (rand() < 0.5 ? -1 : 1)));
  if (mi === d.mi) return false;
  d.mi = mi;
  return true;
};

const MOVES: readonly Move[] = [shiftCut, swapDevices, replaceDevice, splitStage, mergeStages, changeMicrobatches];

/** One random move from s, or null when the move drawn does not apply. */
function propose(w: Walk, s: State): State | null {
  const D = w.ctx.problem.devices.length;
  const draft: Draft = {
    ends: [...s.ends],
    devs: [...s.devs],
    mi: s.mi,
    unused: [...Array(D).keys()].filter((d) => !s.devs.includes(d)),
  };
  const move = MOVES[w.pick(MOVES.length)] as Move;
  if (!move(w, draft)) return null;
  return { ends: draft.ends, devs: draft.devs, mi: draft.mi };
}
