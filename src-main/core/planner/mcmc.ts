/**
 * FlexFlow-style stochastic search over pipeline plans with one device per stage: random moves
 * (shift a cut, swap two stages' devices, put an unused device on a stage, split a stage onto an
 * unused device, merge two stages, change the microbatch count), accepted by the Metropolis rule on
 * log step time, annealed, seeded. Plans that do not fit pay a penalty growing with the overflow.
 * Not exact: it returns the best feasible plan it met. Pure.
 */
import { seededRandom } from '../random.js';
import { evaluatePlan, type PlanSpec } from './evaluate.js';
import { microbatchCandidates, type PlannerContext } from './problem.js';
import { bestOverMicrobatches } from './single-and-dp.js';
import type { Plan, Schedule } from './types.js';

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

export function energyOf(plan: Plan): number {
  if (!Number.isFinite(plan.stepUs)) return 1e9;
  const over = plan.memory.reduce((w, m) => Math.max(w, m.neededBytes / Math.max(1, m.availableBytes)), 0);
  return Math.log(Math.max(plan.stepUs, 1e-9)) + (plan.feasible ? 0 : 2 + 10 * Math.max(0, over - 1));
}

export function mcmcSearch(ctx: PlannerContext, opts: McmcOptions = {}): Plan {
  const rand = seededRandom(opts.seed ?? 1);
  const schedule = opts.schedule ?? '1f1b';
  const ms = [...(opts.microbatches ?? microbatchCandidates(ctx.problem.batch))];
  const L = ctx.problem.layers.length;
  const D = ctx.problem.devices.length;
  const ids = ctx.tables.deviceIds;
  const iterations = opts.iterations ?? 4000;
  const t0 = opts.temperature ?? 0.05;
  const pick = (n: number): number => Math.floor(rand() * n);

  const toSpec = (s: State): PlanSpec => ({
    stages: s.ends.map((to, i) => ({
      from: i === 0 ? 0 : (s.ends[i - 1] as number),
      to,
      devices: [ids[s.devs[i] as number] as string],
    })),
    microbatches: ms[s.mi] as number,
    schedule,
  });

  let state = initial();
  let plan = evaluatePlan(ctx, toSpec(state));
  let energy = energyOf(plan);
  let best = plan;
  let bestEnergy = energy;

  for (let it = 0; it < iterations; it++) {
    const temp = t0 * Math.pow(0.05, it / Math.max(1, iterations - 1));
    const next = propose(state);
    if (!next) continue;
    const p = evaluatePlan(ctx, toSpec(next));
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

  function better(p: Plan, e: number, b: Plan, be: number): boolean {
    if (p.feasible !== b.feasible) return p.feasible;
    return p.feasible ? p.stepUs < b.stepUs : e < be;
  }

  function initial(): State {
    if (opts.start) {
      const st = opts.start;
      const mi = ms.indexOf(st.microbatches);
      return {
        ends: st.stages.map((s) => s.to),
        devs: st.stages.map((s) => ctx.tables.deviceIndex(s.devices[0] as string)),
        mi: mi >= 0 ? mi : 0,
      };
    }
    let bestStart: { plan: Plan; dev: number } | null = null;
    ctx.problem.devices.forEach((d, dev) => {
      const p = bestOverMicrobatches(ctx, [{ from: 0, to: L, devices: [d.id] }], ms, schedule);
      if (!bestStart || better(p, energyOf(p), bestStart.plan, energyOf(bestStart.plan))) bestStart = { plan: p, dev };
    });
    const chosen = bestStart as { plan: Plan; dev: number } | null;
    if (!chosen) throw new Error('mcmc: no devices');
    return { ends: [L], devs: [chosen.dev], mi: Math.max(0, ms.indexOf(chosen.plan.microbatches)) };
  }

  function propose(s: State): State | null {
    const p = s.ends.length;
    const unused = [...Array(D).keys()].filter((d) => !s.devs.includes(d));
    const ends = [...s.ends];
    const devs = [...s.devs];
    let mi = s.mi;
    switch (pick(6)) {
      case 0: {
        // Shift a cut.
        if (p < 2) return null;
        const k = pick(p - 1);
        const step = (1 + pick(3)) * (rand() < 0.5 ? -1 : 1);
        const v = (ends[k] as number) + step;
        const lo = k === 0 ? 0 : (ends[k - 1] as number);
        if (v <= lo || v >= (ends[k + 1] as number)) return null;
        ends[k] = v;
        break;
      }
      case 1: {
        // Swap two stages' devices.
        if (p < 2) return null;
        const a = pick(p);
        const b = (a + 1 + pick(p - 1)) % p;
        [devs[a], devs[b]] = [devs[b] as number, devs[a] as number];
        break;
      }
      case 2: {
        // An unused device takes over a stage.
        if (unused.length === 0) return null;
        devs[pick(p)] = unused[pick(unused.length)] as number;
        break;
      }
      case 3: {
        // Split a stage; the new half goes to an unused device.
        if (unused.length === 0) return null;
        const i = pick(p);
        const from = i === 0 ? 0 : (ends[i - 1] as number);
        const to = ends[i] as number;
        if (to - from < 2) return null;
        const cut = from + 1 + pick(to - from - 1);
        const fresh = unused[pick(unused.length)] as number;
        ends.splice(i, 0, cut);
        if (rand() < 0.5) devs.splice(i, 0, fresh);
        else devs.splice(i + 1, 0, fresh);
        break;
      }
      case 4: {
        // Merge two neighbours onto one of their devices.
        if (p < 2) return null;
        const k = pick(p - 1);
        ends.splice(k, 1);
        devs.splice(rand() < 0.5 ? k : k + 1, 1);
        break;
      }
      default: {
        if (ms.length < 2) return null;
        mi = Math.min(ms.length - 1, Math.max(0, mi + (rand() < 0.5 ? -1 : 1)));
        if (mi === s.mi) return null;
      }
    }
    return { ends, devs, mi };
  }
}
