/**
 * Plans for a homogeneous cluster of nodes (N nodes of g identical GPUs, the usual case at
 * scale): the 3D space Megatron-LM runs, searched without the per-device DP. Pure.
 *
 * The space (one problem: its ZeRO stage and recomputation are the caller's variant):
 * - tp ∈ the allowed tensor-parallel degrees that divide g (a tensor-parallel group inside a node);
 * - pp ∈ 1..min(L, N/tp) stages, each on the same number of GPUs, w = tp·dp, taken in node order
 *   (stage i on GPUs [i·w, (i+1)·w) of the nodes in label order; replica r of a stage its GPUs
 *   [r·tp, (r+1)·tp));
 * - dp ∈ 1..⌊N/(tp·pp)⌋ replicas, no more than the samples of a microbatch (every count up to 32,
 *   then powers of two and the most that fit, as whole-model.ts replicaCounts);
 * - m ∈ the microbatch counts; every split of the L layers into pp contiguous ranges.
 *
 * Each candidate (tp, pp, dp, m) is priced with the cost tables (cost/stage-cost.ts), on the same
 * objective as pricePlan (cost/plan-cost.ts):
 *
 *   step = Σ t_i + d·Σ c_k + Σ a_i + (m − 1)·max(max t_i, max c_k)
 *
 * Stages of equal groups of identical GPUs take t(l, e) = n·(P[e] − P[l]) (their time adds up over
 * layers), so Σ t_i is the same for every split and Σ t + (m − 1)·Σ t / pp bounds the candidate
 * from below: candidates are visited by that bound and the search stops at the first whose bound
 * is not below the best step found (drawn from a heap, in stable order, not sorted whole); one
 * whose bound plus d·Σ (the least cut after each stage) is not below it is skipped, as every
 * split pays at least that. A candidate's best split is exact: for each cap T among the
 * stage and cut times (ascending, from the least that admits a split), a DP over (stage, end
 * layer) finds G(T), the least d·Σ c + Σ a over splits whose stages and cuts take at most T and
 * whose stages fit in memory with their microbatches in flight; the candidate's step is the least
 * Σ t + G(T) + (m − 1)·(the split's own bottleneck), and the caps stop when Σ t + G(∞) + (m − 1)·T
 * cannot beat the best. Stages whose GPUs sit alike in their nodes (the same offset in a node)
 * share their sync, cut and memory tables; that is exact when every node pair has the same network
 * (the stated network of a homogeneous cluster), and the plans returned are priced by pricePlan on
 * their own devices.
 */
import type { EvenStageTimer } from '../cost/even-stage-timer.js';
import { pricePlan, type StageSpec } from '../cost/plan-cost.js';
import { microbatchesInFlight } from '../memory/memory.js';
import type { PlannerContext } from '../problem/problem.js';
import type { Plan, Schedule } from '../types.js';
import { nodeClasses } from './cluster-search.js';
import { memoryClassKey, tensorDegreesOf } from './group-space.js';
import { ascending } from './ascending.js';

export interface UniformSearchOptions {
  schedule: Schedule;
  microbatches: readonly number[];
  /** Only plans faster than this are sought (default Infinity). */
  bound?: number | undefined;
  /** One stage only (ZeRO-2/3: DeepSpeed does not pipeline them). */
  singleStage?: boolean;
  /** Plans returned, the fastest candidates' (default 5). */
  keep?: number;
}

export interface UniformSearchResult {
  plans: Plan[];
  /** Candidates (tp, pp, dp, m) whose split was searched, of those in the space. */
  searched: number;
  candidates: number;
}

/** The GPUs of a homogeneous node cluster in node order, and GPUs a node; null when the problem is not one. */
export function uniformNodes(ctx: PlannerContext): { order: number[]; perNode: number } | null {
  const { problem, tables } = ctx;
  const classes = nodeClasses(problem);
  const first = problem.devices[0];
  if (!first || classes.length !== 1 || problem.devices.some((d) => d.kind !== 'gpu')) return null;
  const key = memoryClassKey(first);
  if (problem.devices.some((d, i) => memoryClassKey(d) !== key || !tables.sameTimes(0, i))) return null;
  const machines = (classes[0] as { machines: number[][] }).machines;
  return { order: machines.flat(), perNode: (machines[0] as number[]).length };
}

/** Each GPU's node ("node 3"), by id, in a homogeneous node cluster. */
export function nodeIndexOf(
  devices: readonly { id: string }[],
  nodes: { order: number[]; perNode: number },
): Map<string, string> {
  const out = new Map<string, string>();
  nodes.order.forEach((d, i) => out.set(devices[d]?.id ?? '', `node ${Math.floor(i / nodes.perNode)}`));
  return out;
}

/** A plan with each GPU named by its node, sorted in each stage: the same plan on other GPUs of the same nodes. */
export function onNodes<P extends { stages: readonly StageSpec[] }>(p: P, nodeOf: ReadonlyMap<string, string>): P {
  const stages = p.stages.map((s) => ({ ...s, devices: s.devices.map((d) => nodeOf.get(d) ?? d).sort() }));
  return { ...p, stages };
}

/** Replica counts: every one up to 32, then powers of two and the most. */
function replicaChoices(most: number): number[] {
  const out: number[] = [];
  for (let r = 1; r <= most; r++) if (r <= 32 || (r & (r - 1)) === 0 || r === most) out.push(r);
  return out;
}

interface Candidate {
  tp: number;
  pp: number;
  dp: number;
  m: number;
  /** Σ t over the stages (any split). */
  total: number;
  bound: number;
}

interface Found {
  step: number;
  cand: Candidate;
  /** Stage ends (layer indices), pp of them, the last L. */
  ends: number[];
}

/** Tables of one (tp, dp, samples a microbatch) shape, shared by its pp and m. */
class Shape {
  readonly timer: EvenStageTimer;
  private readonly syncs = new Map<number, Float64Array>();
  private readonly cuts = new Map<number, Float64Array>();
  private readonly cutFloors = new Map<number, number>();
  private sortedTimes: Float64Array | null = null;

  constructor(
    private readonly ctx: PlannerContext,
    private readonly order: readonly number[],
    private readonly perNode: number,
    /** Stage device lists by width and offset, shared by every shape of the search. */
    private readonly devs: Map<string, number[]>,
    readonly tp: number,
    readonly dp: number,
    readonly samples: number,
  ) {
    this.timer = ctx.tables.evenStageTimer(this.devices(0), samples, tp);
  }

  get width(): number {
    return this.tp * this.dp;
  }

  /** Where stage i starts in its node: stages alike there cost alike. */
  offset(i: number): number {
    return (i * this.width) % this.perNode;
  }

  /** The GPUs of the first stage at stage i's offset (one array per width and offset: the tables cache by identity). */
  devices(i: number): number[] {
    const key = `${this.width}/${this.offset(i)}`;
    let d = this.devs.get(key);
    if (!d) {
      d = this.order.slice(i * this.width, (i + 1) * this.width);
      this.devs.set(key, d);
    }
    return d;
  }

  /** Exposed gradient sync a(l, e) of a stage at stage i's offset (NaN until asked). */
  sync(i: number, l: number, e: number): number {
    const L = this.ctx.tables.layerCount;
    const o = this.offset(i);
    let row = this.syncs.get(o);
    if (!row) {
      row = new Float64Array((L + 1) * (L + 1)).fill(NaN);
      this.syncs.set(o, row);
    }
    const k = l * (L + 1) + e;
    let v = row[k] as number;
    if (Number.isNaN(v)) {
      v = this.ctx.tables.gradientSyncUs(this.devices(i), l, e, this.tp, this.samples);
      row[k] = v;
    }
    return v;
  }

  /** Cut times after stage i (index: the next stage's first layer). */
  cutRow(i: number): Float64Array {
    const o = this.offset(i);
    let row = this.cuts.get(o);
    if (!row) {
      const next = this.order.slice((i + 1) * this.width, (i + 2) * this.width);
      row = Float64Array.from(this.ctx.tables.cutRow(this.devices(i), next, this.samples));
      this.cuts.set(o, row);
    }
    return row;
  }

  /** The least cut after stage i over every place it may fall (layers 1..L−1 next): a floor for any split's. */
  cutFloor(i: number): number {
    const o = this.offset(i);
    let v = this.cutFloors.get(o);
    if (v === undefined) {
      const row = this.cutRow(i);
      v = Infinity;
      for (let l = 1; l < row.length - 1; l++) v = Math.min(v, row[l] as number);
      this.cutFloors.set(o, v);
    }
    return v;
  }

  /** Every stage time t(l, e), ascending. */
  stageTimes(): Float64Array {
    if (!this.sortedTimes) {
      const L = this.ctx.tables.layerCount;
      const out: number[] = [];
      for (let l = 0; l < L; l++) for (let e = l + 1; e <= L; e++) out.push(this.timer.time(l, e));
      this.sortedTimes = Float64Array.from(out).sort();
    }
    return this.sortedTimes;
  }
}

/** Per (shape, in flight, m): the furthest end e for which [l, e) fits, per first layer l. */
function fitEnds(ctx: PlannerContext, shape: Shape, inFlight: number, m: number): Int32Array {
  const { tables, problem } = ctx;
  const L = tables.layerCount;
  const available = (problem.devices[0] as { memoryBytes: number }).memoryBytes;
  const samples = Math.ceil(shape.samples / shape.dp);
  const out = new Int32Array(L);
  let e = 0;
  for (let l = 0; l < L; l++) {
    e = Math.max(e, l);
    const fits = (to: number): boolean =>
      tables.deviceNeed({ from: l, to, tp: shape.tp, replicas: shape.dp, samples, inFlight, microbatches: m })
        .totalBytes <= available;
    while (e < L && fits(e + 1)) e++;
    out[l] = e;
  }
  return out;
}

export function uniformSearch(ctx: PlannerContext, opts: UniformSearchOptions): UniformSearchResult {
  const out: UniformSearchResult = { plans: [], searched: 0, candidates: 0 };
  const nodes = uniformNodes(ctx);
  if (!nodes) return out;
  const { problem, tables } = ctx;
  const L = tables.layerCount;
  const N = nodes.order.length;
  const training = problem.mode === 'training';
  const shapes = new Map<string, Shape>();
  const lists = new Map<string, number[]>();
  const shapeOf = (tp: number, dp: number, samples: number): Shape => {
    const key = `${tp}/${dp}/${samples}`;
    let s = shapes.get(key);
    if (!s) {
      s = new Shape(ctx, nodes.order, nodes.perNode, lists, tp, dp, samples);
      shapes.set(key, s);
    }
    return s;
  };
  const cands: Candidate[] = [];
  for (const tp of tensorDegreesOf(problem).filter((t) => nodes.perNode % t === 0 && t <= N)) {
    for (const m of opts.microbatches) {
      const samples = problem.batch / m;
      for (let pp = 1; pp <= (opts.singleStage ? 1 : Math.min(L, Math.floor(N / tp))); pp++) {
        for (const dp of replicaChoices(Math.min(Math.floor(N / (tp * pp)), samples))) {
          if (tp * dp * pp < 2) continue;
          const total = shapeOf(tp, dp, samples).timer.time(0, L);
          if (!Number.isFinite(total)) continue;
          out.candidates++;
          const bound = total + (m - 1) * (total / pp);
          // Not below the caller's bound: never searched (the loop below stops there).
          if (bound < (opts.bound ?? Infinity)) cands.push({ tp, pp, dp, m, total, bound });
        }
      }
    }
  }
  const keep = opts.keep ?? 5;
  const found: Found[] = [];
  let best = opts.bound ?? Infinity;
  const fits = new Map<string, Int32Array>();
  // By bound (ties in the order listed); the search stops after the first few.
  for (const i of ascending(Float64Array.from(cands, (c) => c.bound))) {
    const cand = cands[i] as Candidate;
    const worst = found.length >= keep ? (found[keep - 1] as Found).step : Infinity;
    if (cand.bound >= Math.min(best, worst)) break;
    const shape = shapeOf(cand.tp, cand.dp, problem.batch / cand.m);
    // Its cuts add at least their floors (d·Σ c): a candidate that cannot beat the limit with them is
    // skipped (a relative 1e-12 below, so rounding never skips one that could).
    let floor = cand.bound;
    for (let s = 0; s + 1 < cand.pp; s++) floor += (training ? 2 : 1) * shape.cutFloor(s);
    if (floor * (1 - 1e-12) >= Math.min(best, worst)) continue;
    out.searched++;
    const fitOf = (i: number): Int32Array => {
      const inFlight = microbatchesInFlight(opts.schedule, problem.mode, i, cand.pp, cand.m);
      const key = `${cand.tp}/${cand.dp}/${shape.samples}/${inFlight}/${cand.m}`;
      let f = fits.get(key);
      if (!f) {
        f = fitEnds(ctx, shape, inFlight, cand.m);
        fits.set(key, f);
      }
      return f;
    };
    const r = bestSplit(shape, cand, fitOf, training ? 2 : 1, Math.min(best, worst), L);
    if (!r) continue;
    found.push(r);
    found.sort((a, b) => a.step - b.step);
    found.length = Math.min(found.length, keep);
    best = Math.min(best, r.step);
  }
  for (const f of found) {
    const w = f.cand.tp * f.cand.dp;
    const stages: StageSpec[] = f.ends.map((to, i) => ({
      from: i === 0 ? 0 : (f.ends[i - 1] as number),
      to,
      devices: nodes.order.slice(i * w, (i + 1) * w).map((d) => tables.deviceIds[d] as string),
      ...(f.cand.tp > 1 ? { tp: f.cand.tp } : {}),
    }));
    out.plans.push(pricePlan(ctx, { stages, microbatches: f.cand.m, schedule: opts.schedule }));
  }
  return out;
}

/** The DP under cap T: least d·Σ c + Σ a and the stage ends, or null when no split is allowed. */
function cappedSplit(
  shape: Shape,
  cand: Candidate,
  fitOf: (i: number) => Int32Array,
  d: number,
  T: number,
  L: number,
): { value: number; ends: number[] } | null {
  const { pp } = cand;
  let prev = new Float64Array(L + 1).fill(Infinity);
  const from: Int32Array[] = [];
  const fit0 = fitOf(0);
  for (let e = 1; e <= L; e++) {
    if (shape.timer.time(0, e) <= T && e <= (fit0[0] as number)) prev[e] = shape.sync(0, 0, e);
  }
  for (let i = 1; i < pp; i++) {
    const cur = new Float64Array(L + 1).fill(Infinity);
    const arg = new Int32Array(L + 1).fill(-1);
    const cut = shape.cutRow(i - 1);
    const fit = fitOf(i);
    for (let e = i + 1; e <= L; e++) {
      // Earlier starts take longer and hold more (fit ends rise with l): past either, none is allowed.
      for (let l = e - 1; l >= i; l--) {
        if (shape.timer.time(l, e) > T || e > (fit[l] as number)) break;
        const before = prev[l] as number;
        if (before === Infinity || (cut[l] as number) > T) continue;
        const v = before + d * (cut[l] as number) + shape.sync(i, l, e);
        if (v < (cur[e] as number)) {
          cur[e] = v;
          arg[e] = l;
        }
      }
    }
    from.push(arg);
    prev = cur;
  }
  const value = prev[L] as number;
  if (value === Infinity) return null;
  const ends = [L];
  for (let i = pp - 2; i >= 0; i--) ends.unshift((from[i] as Int32Array)[ends[0] as number] as number);
  return { value, ends };
}

/** The least step of a candidate over its splits (exact, see the file comment), when under `limit`. */
function bestSplit(
  shape: Shape,
  cand: Candidate,
  fitOf: (i: number) => Int32Array,
  d: number,
  limit: number,
  L: number,
): Found | null {
  const stepOf = (r: { value: number; ends: number[] }): number => {
    let max = 0;
    r.ends.forEach((to, i) => {
      const fromL = i === 0 ? 0 : (r.ends[i - 1] as number);
      max = Math.max(max, shape.timer.time(fromL, to));
      if (i > 0) max = Math.max(max, shape.cutRow(i - 1)[fromL] as number);
    });
    return cand.total + r.value + (cand.m - 1) * max;
  };
  const free = cappedSplit(shape, cand, fitOf, d, Infinity, L);
  if (!free) return null;
  let found: Found = { step: stepOf(free), cand, ends: free.ends };
  if (cand.m === 1 || cand.pp === 1) return found.step < limit ? found : null;
  // Caps: every stage time and every cut time, ascending.
  const cutTimes: number[] = [];
  for (let i = 0; i + 1 < cand.pp; i++) for (const c of shape.cutRow(i)) if (Number.isFinite(c)) cutTimes.push(c);
  const caps = mergeSorted(shape.stageTimes(), Float64Array.from(cutTimes).sort());
  // The least cap that admits a split (feasibility grows with T).
  let lo = 0;
  let hi = caps.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cappedSplit(shape, cand, fitOf, d, caps[mid] as number, L)) hi = mid;
    else lo = mid + 1;
  }
  for (let j = lo; j < caps.length; j++) {
    const T = caps[j] as number;
    if (j > lo && T === caps[j - 1]) continue;
    if (cand.total + free.value + (cand.m - 1) * T >= Math.min(limit, found.step)) break;
    const r = cappedSplit(shape, cand, fitOf, d, T, L);
    if (!r) continue;
    const step = stepOf(r);
    if (step < found.step) found = { step, cand, ends: r.ends };
  }
  return found.step < limit ? found : null;
}

function mergeSorted(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (a[i] as number) <= (b[j] as number))) out[k++] = a[i++] as number;
    else out[k++] = b[j++] as number;
  }
  return out;
}
