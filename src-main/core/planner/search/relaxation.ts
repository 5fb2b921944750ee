/**
 * DARTS-style continuous relaxation: each layer holds softmax weights over the devices; gradient
 * descent (Adam) lowers the expected cost
 *   J = Σ_d E_d + (m − 1)·smoothmax_d E_d + Σ_l Σ_{d≠e} p_{l,d} p_{l+1,e} K_l(d, e) + λ Σ_d relu(M_d / cap_d − 1)²
 * (E_d expected compute on device d per microbatch, K_l the cut transfer after layer l, M_d the
 * expected memory), while the softmax temperature is lowered; then each layer takes its argmax
 * device, runs are merged until every device holds one contiguous range, and the microbatch count
 * is chosen on the real cost. The cuts are also rebalanced for that device order (smallest
 * bottleneck stage, by bisection) and the better of the two kept. Not exact. Pure.
 */
import { seededRandom } from '../../random.js';
import { groupBy } from '../../util/group-by.js';
import { microbatchesInFlight, parameterStateBytes } from '../memory/memory.js';
import { microbatchCandidates, type PlannerContext } from '../problem/problem.js';
import { bestOverMicrobatches } from './whole-model.js';
import type { Plan, Schedule } from '../types.js';

export interface RelaxationOptions {
  seed?: number;
  /** Gradient steps per microbatch count (default 300). */
  steps?: number;
  learningRate?: number;
  /** Softmax temperature, lowered geometrically from start to end. */
  temperature?: { start: number; end: number };
  schedule?: Schedule;
  microbatches?: readonly number[];
}

export interface Run {
  from: number;
  to: number;
  device: number;
}

/** Maximal runs of equal devices. */
function runsOf(assign: readonly number[]): Run[] {
  const runs: Run[] = [];
  assign.forEach((device, l) => {
    const last = runs[runs.length - 1];
    if (last && last.device === device) last.to = l + 1;
    else runs.push({ from: l, to: l + 1, device });
  });
  return runs;
}

/**
 * Contiguous stages from a per-layer device assignment: while a device has several runs, its
 * shortest run other than its longest joins the run before it (or after it, at the start).
 */
export function repairContiguous(assign: readonly number[]): Run[] {
  const a = [...assign];
  for (;;) {
    const runs = runsOf(a);
    const byDevice = groupBy(runs, (r) => r.device);
    const split = [...byDevice.values()].find((rs) => rs.length > 1);
    if (!split) return runs;
    const longest = split.reduce((x, y) => (y.to - y.from > x.to - x.from ? y : x));
    const victim = split.filter((r) => r !== longest).reduce((x, y) => (y.to - y.from < x.to - x.from ? y : x));
    const i = runs.indexOf(victim);
    const neighbour = runs[i > 0 ? i - 1 : i + 1] as Run;
    for (let l = victim.from; l < victim.to; l++) a[l] = neighbour.device;
  }
}

/** The relaxed cost for one microbatch count m: its terms per layer and device, and its weights. */
interface RelaxedCost {
  L: number;
  D: number;
  m: number;
  /** Compute per microbatch of layer l on device d at [l·D + d] (a large finite time where it has none). */
  w: Float64Array;
  /** Memory of layer l on device d at [l·D + d]. */
  bytes: Float64Array;
  /** K_l(d, e), the cut after layer l from d to e, at [(l·D + d)·D + e]. */
  K: Float64Array;
  /** Memory each device can use. */
  cap: number[];
  /** The sum of each layer's least time: the unit of J. */
  scale: number;
  /** Weight of the memory penalty. */
  lambda: number;
  /** Temperature of the smoothmax over devices. */
  tau: number;
}

function relaxedCost(ctx: PlannerContext, m: number, schedule: Schedule): RelaxedCost {
  const { problem, tables } = ctx;
  const L = problem.layers.length;
  const D = problem.devices.length;
  const b = problem.batch / m;
  const inFlight = microbatchesInFlight(schedule, problem.mode, 0, Math.min(D, L), m);
  // Costs; a device without a time for a layer gets a large finite one.
  const w = new Float64Array(L * D);
  const bytes = new Float64Array(L * D);
  let finiteMax = 0;
  let scale = 0;
  for (let l = 0; l < L; l++) {
    let best = Infinity;
    for (let d = 0; d < D; d++) {
      const t = b * tables.perSampleUs(d, l, l + 1);
      w[l * D + d] = t;
      if (Number.isFinite(t)) {
        finiteMax = Math.max(finiteMax, t);
        best = Math.min(best, t);
      }
      bytes[l * D + d] =
        parameterStateBytes(tables.params(l, l + 1), 1, problem) +
        tables.shardFrozenBytes(l, l + 1) +
        tables.activationBytesPerSample(l, l + 1) * b * inFlight +
        tables.residentBytesPerSample(l, l + 1) * problem.batch;
    }
    if (Number.isFinite(best)) scale += best;
  }
  const big = Math.max(1, finiteMax) * 1e3;
  for (let i = 0; i < L * D; i++) if (!Number.isFinite(w[i] as number)) w[i] = big;
  scale = Math.max(scale, 1e-9);
  const K = cutCosts(ctx, b, big);
  const cap = problem.devices.map((d) => Math.max(1, d.memoryBytes - problem.overheadBytes));
  return { L, D, m, w, bytes, K, cap, scale, lambda: 100 * scale, tau: 0.02 * scale };
}

/** K_l(d, e) for microbatches of b samples, both directions in training; `big` where no link. */
function cutCosts(ctx: PlannerContext, b: number, big: number): Float64Array {
  const L = ctx.problem.layers.length;
  const D = ctx.problem.devices.length;
  const training = ctx.problem.mode === 'training';
  const K = new Float64Array(Math.max(0, L - 1) * D * D);
  for (let l = 0; l + 1 < L; l++) {
    for (let d = 0; d < D; d++) {
      for (let e = 0; e < D; e++) {
        if (d === e) continue;
        const c = ctx.tables.cutUs([d], [e], l, b) * (training ? 2 : 1);
        K[(l * D + d) * D + e] = Number.isFinite(c) ? c : big;
      }
    }
  }
  return K;
}

/** The descent's state and scratch, per [l·D + d] or per device d. */
interface Descent {
  /** Logits, and Adam's first and second moments. */
  theta: Float64Array;
  mom: Float64Array;
  vel: Float64Array;
  /** Softmax weights p and dJ/dp (scaled by 1/scale). */
  p: Float64Array;
  g: Float64Array;
  /** Expected compute E_d and memory M_d, and the smoothmax weights σ_d of E. */
  E: Float64Array;
  M: Float64Array;
  sigma: Float64Array;
}

/** Softmax weights per layer after the gradient descent for one microbatch count. */
function relax(ctx: PlannerContext, m: number, schedule: Schedule, opts: RelaxationOptions, seed: number): number[] {
  const c = relaxedCost(ctx, m, schedule);
  const rand = seededRandom(seed);
  const n = c.L * c.D;
  const steps = opts.steps ?? 300;
  const lr = opts.learningRate ?? 0.1;
  const temp = opts.temperature ?? { start: 1, end: 0.05 };
  const theta = new Float64Array(n);
  for (let i = 0; i < n; i++) theta[i] = (rand() - 0.5) * 0.2;
  const s: Descent = {
    theta,
    mom: new Float64Array(n),
    vel: new Float64Array(n),
    p: new Float64Array(n),
    g: new Float64Array(n),
    E: new Float64Array(c.D),
    M: new Float64Array(c.D),
    sigma: new Float64Array(c.D),
  };
  for (let step = 0; step < steps; step++) {
    const T = temp.start * Math.pow(temp.end / temp.start, step / Math.max(1, steps - 1));
    softmaxWeights(c, s, T);
    expectedLoads(c, s);
    costGradient(c, s);
    adamStep(c, s, T, lr, step);
  }
  return argmaxDevices(c, theta);
}

/** p: each layer's softmax of theta / T over the devices. */
function softmaxWeights({ L, D }: RelaxedCost, { theta, p }: Descent, T: number): void {
  for (let l = 0; l < L; l++) {
    let mx = -Infinity;
    for (let d = 0; d < D; d++) mx = Math.max(mx, (theta[l * D + d] as number) / T);
    let z = 0;
    for (let d = 0; d < D; d++) {
      const v = Math.exp((theta[l * D + d] as number) / T - mx);
      p[l * D + d] = v;
      z += v;
    }
    for (let d = 0; d < D; d++) p[l * D + d] = (p[l * D + d] as number) / z;
  }
}

/** E and M under p, and sigma, the smoothmax weights of E (temperature tau). */
function expectedLoads({ L, D, w, bytes, tau }: RelaxedCost, { p, E, M, sigma }: Descent): void {
  E.fill(0);
  M.fill(0);
  for (let l = 0; l < L; l++) {
    for (let d = 0; d < D; d++) {
      E[d] = (E[d] as number) + (p[l * D + d] as number) * (w[l * D + d] as number);
      M[d] = (M[d] as number) + (p[l * D + d] as number) * (bytes[l * D + d] as number);
    }
  }
  let emax = -Infinity;
  for (let d = 0; d < D; d++) emax = Math.max(emax, (E[d] as number) / tau);
  let zs = 0;
  for (let d = 0; d < D; d++) {
    sigma[d] = Math.exp((E[d] as number) / tau - emax);
    zs += sigma[d] as number;
  }
  for (let d = 0; d < D; d++) sigma[d] = (sigma[d] as number) / zs;
}

/** g = dJ/dp, scaled by 1/scale. */
function costGradient(c: RelaxedCost, { p, g, M, sigma }: Descent): void {
  const { L, D, m, w, bytes, K, cap, scale, lambda } = c;
  for (let l = 0; l < L; l++) {
    for (let d = 0; d < D; d++) {
      let v = (w[l * D + d] as number) * (1 + (m - 1) * (sigma[d] as number));
      for (let e = 0; e < D; e++) {
        if (e === d) continue;
        if (l + 1 < L) v += (p[(l + 1) * D + e] as number) * (K[(l * D + d) * D + e] as number);
        if (l > 0) v += (p[(l - 1) * D + e] as number) * (K[((l - 1) * D + e) * D + d] as number);
      }
      const over = (M[d] as number) / (cap[d] as number) - 1;
      if (over > 0) v += (lambda * 2 * over * (bytes[l * D + d] as number)) / (cap[d] as number);
      g[l * D + d] = v / scale;
    }
  }
}

/** The gradient through the softmax (temperature T), then one Adam step on theta. */
function adamStep(
  { L, D }: RelaxedCost,
  { theta, mom, vel, p, g }: Descent,
  T: number,
  lr: number,
  step: number,
): void {
  for (let l = 0; l < L; l++) {
    let mean = 0;
    for (let d = 0; d < D; d++) mean += (p[l * D + d] as number) * (g[l * D + d] as number);
    for (let d = 0; d < D; d++) {
      const i = l * D + d;
      const grad = ((p[i] as number) * ((g[i] as number) - mean)) / T;
      mom[i] = 0.9 * (mom[i] as number) + 0.1 * grad;
      vel[i] = 0.999 * (vel[i] as number) + 0.001 * grad * grad;
      const mh = (mom[i] as number) / (1 - Math.pow(0.9, step + 1));
      const vh = (vel[i] as number) / (1 - Math.pow(0.999, step + 1));
      theta[i] = (theta[i] as number) - (lr * mh) / (Math.sqrt(vh) + 1e-12);
    }
  }
}

/** Each layer's device of largest logit (the first on ties). */
function argmaxDevices({ L, D }: RelaxedCost, theta: Float64Array): number[] {
  const assign: number[] = [];
  for (let l = 0; l < L; l++) {
    let arg = 0;
    for (let d = 1; d < D; d++) if ((theta[l * D + d] as number) > (theta[l * D + arg] as number)) arg = d;
    assign.push(arg);
  }
  return assign;
}

/**
 * Cuts for a fixed device order that minimize the slowest stage's compute (bisection on the
 * bottleneck, greedy fill); devices left without layers are dropped. Null when the order cannot
 * hold the layers.
 */
function rebalance(ctx: PlannerContext, order: readonly number[], samples: number): Run[] | null {
  const L = ctx.problem.layers.length;
  const t = (d: number, from: number, to: number): number => samples * ctx.tables.perSampleUs(d, from, to);
  const fill = (cap: number): Run[] | null => {
    const runs: Run[] = [];
    let from = 0;
    for (const device of order) {
      if (from === L) break;
      let to = from;
      while (to < L && t(device, from, to + 1) <= cap) to++;
      if (to > from) runs.push({ from, to, device });
      from = to;
    }
    return from === L ? runs : null;
  };
  let hi = Math.max(...order.map((d) => t(d, 0, L)).filter(Number.isFinite));
  if (!Number.isFinite(hi) || !fill(hi)) return null;
  let lo = 0;
  for (let i = 0; i < 60 && hi - lo > 1e-9 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (fill(mid)) hi = mid;
    else lo = mid;
  }
  return fill(hi);
}

export function relaxationSearch(ctx: PlannerContext, opts: RelaxationOptions = {}): Plan {
  const schedule = opts.schedule ?? '1f1b';
  const ms = opts.microbatches ?? microbatchCandidates(ctx.problem.batch);
  const ids = ctx.tables.deviceIds;
  let best: Plan | null = null;
  ms.forEach((m, i) => {
    const runs = repairContiguous(relax(ctx, m, schedule, opts, (opts.seed ?? 1) * 7919 + i));
    const balanced = rebalance(
      ctx,
      runs.map((r) => r.device),
      ctx.problem.batch / m,
    );
    for (const candidate of balanced ? [runs, balanced] : [runs]) {
      const stages = candidate.map((r) => ({ from: r.from, to: r.to, devices: [ids[r.device] as string] }));
      const plan = bestOverMicrobatches(ctx, stages, ms, schedule);
      if (
        !best ||
        (plan.feasible && !best.feasible) ||
        (plan.feasible === best.feasible && plan.stepUs < best.stepUs)
      ) {
        best = plan;
      }
    }
  });
  const out = best as Plan | null;
  if (!out) throw new Error('relaxation: no microbatch counts to try');
  return out;
}
