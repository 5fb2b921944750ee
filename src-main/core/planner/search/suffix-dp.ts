/**
 * The DP under a cap T for one microbatch count m (Alpa's inner problem), over a group space
 * (group-space.ts). Pure.
 *
 *   G(T) = min Σ t_i + d·Σ c_k + Σ a_i  over plans with every t_i ≤ T and c_k ≤ T whose stages fit
 *
 * State: (first layer l of a suffix of the layers, the group g running the suffix's first stage,
 * the devices the suffix uses (a count per class), and, for 1F1B training with groups, the number
 * of stages in the suffix; 1F1B keeps min(stages, m) microbatches in flight on the suffix's first
 * stage). With one-device groups the stage count is the number of devices used. States are
 * computed a row (all l) at a time, on demand; a one-device stage's time is P[e] − P[l] for prefix
 * sums P, so its row is a sliding-window minimum (monotone deque), O(L); other rows are O(L²).
 * Each row keeps the range of l where it is finite, and rows built on it only visit that range.
 *
 * One SuffixDp serves every microbatch count of a search (prepare(m) rebuilds the m-dependent
 * tables in place), so the tables are allocated once.
 */
import type { CapSolution } from './cap-search.js';
import type { PlanSpec } from '../cost/plan-cost.js';
import { groupAllowed, tensorDegreesOf, type GroupSpace } from './group-space.js';
import type { PlannerContext } from '../problem/problem.js';
import type { Schedule } from '../types.js';

export interface Group {
  cls: number;
  /** The class's members [end − members, end). */
  end: number;
  /** Members of the class the group takes (devices / the class's unit). */
  members: number;
  /** Devices. */
  size: number;
  /** Tensor-parallel degree: size / tp replicas of tp devices. */
  tp: number;
  devs: number[];
}

export interface Shape {
  groups: Group[];
  stride: number[];
  radix: number[];
  usages: number;
  /** Stage count tracked in the state (1F1B training with groups); else derived or irrelevant. */
  explicitStages: boolean;
  stageDim: number;
  /** Members of every class: the most stages a plan can have. */
  totalMembers: number;
}

export function shapeOf(space: GroupSpace, ctx: PlannerContext, schedule: Schedule): Shape {
  const groups: Group[] = [];
  const stride: number[] = [];
  const radix: number[] = [];
  let usages = 1;
  const degrees = space.name === 'pipeline' ? [1] : tensorDegreesOf(ctx.problem);
  let totalMembers = 0;
  space.classes.forEach((c, cls) => {
    const unit = c.unit ?? 1;
    const count = Math.floor(c.devices.length / unit);
    totalMembers += count;
    stride.push(usages);
    radix.push(count + 1);
    usages *= count + 1;
    for (let end = 1; end <= count; end++) {
      for (let members = 1; members <= Math.min(end, c.maxGroupSize); members++) {
        const size = members * unit;
        for (const tp of degrees) {
          if (groupAllowed(space, size, tp, unit))
            groups.push({ cls, end, members, size, tp, devs: c.devices.slice((end - members) * unit, end * unit) });
        }
      }
    }
  });
  const singles = space.classes.every((c) => c.maxGroupSize <= 1);
  const explicitStages = ctx.problem.mode === 'training' && schedule === '1f1b' && !singles;
  return {
    groups,
    stride,
    radix,
    usages,
    explicitStages,
    stageDim: explicitStages ? Math.min(totalMembers, ctx.problem.layers.length) : 1,
    totalMembers,
  };
}

/**
 * The states a DP over the space would have (layers × groups × usages × stage counts), counted
 * without building the groups: a cluster's hybrid space can have 1e5 groups of 1e2 devices each.
 */
export function shapeStateCount(space: GroupSpace, ctx: PlannerContext, schedule: Schedule): number {
  const degrees = space.name === 'pipeline' ? [1] : tensorDegreesOf(ctx.problem);
  let groups = 0;
  let usages = 1;
  let totalMembers = 0;
  for (const c of space.classes) {
    const unit = c.unit ?? 1;
    const count = Math.floor(c.devices.length / unit);
    totalMembers += count;
    usages *= count + 1;
    for (let members = 1; members <= Math.min(count, c.maxGroupSize); members++) {
      const allowed = degrees.filter((tp) => groupAllowed(space, members * unit, tp, unit)).length;
      groups += allowed * (count - members + 1);
    }
  }
  const singles = space.classes.every((c) => c.maxGroupSize <= 1);
  const explicitStages = ctx.problem.mode === 'training' && schedule === '1f1b' && !singles;
  const stageDim = explicitStages ? Math.min(totalMembers, ctx.problem.layers.length) : 1;
  return ctx.problem.layers.length * groups * usages * stageDim;
}

/** Whether layers [from, to) fit in memory with `inFlight` microbatches in flight, each device taking its share of the samples. */
type StageFits = (from: number, to: number, inFlight: number, shares: readonly number[]) => boolean;

/** The memory test of the devices of group g, each serving its share of every one of the m microbatches. */
function stageFits(ctx: PlannerContext, g: Group, m: number): StageFits {
  const { problem, tables } = ctx;
  const devices = g.devs.map((d) => problem.devices[d]);
  const replicas = g.size / g.tp;
  return (from, to, inFlight, shares) => {
    // A cluster's group has dozens of devices with the same share: each share's need once.
    let lastShare = NaN;
    let lastNeed = 0;
    return devices.every((dev, j) => {
      const share = shares[j] ?? 0;
      if (share !== lastShare) {
        lastShare = share;
        lastNeed = tables.deviceNeed({
          from,
          to,
          tp: g.tp,
          replicas,
          samples: share,
          inFlight,
          microbatches: m,
        }).totalBytes;
      }
      return dev !== undefined && lastNeed <= dev.memoryBytes;
    });
  };
}

export interface DpSolution extends CapSolution {
  spec: PlanSpec;
}

/** The DP tables of a search: prepare(m) per microbatch count, then solve(T) per cap. */
export class SuffixDp {
  private readonly L: number;
  private readonly LL: number;
  private readonly GI: number;
  private readonly cutFactor: number;
  private readonly inference: boolean;
  private readonly gpipe: boolean;
  /** Groups whose devices take the same time for every layer: memory and time grow with the range. */
  private readonly even: Uint8Array;
  private samples = 0;
  private m = 0;
  /** The cap of the current solve. */
  private tmax = 0;
  private readonly time: Float64Array;
  /** Largest number of microbatches in flight the stage fits with (0: never). */
  private readonly fit: Int32Array;
  private readonly link: Float64Array;
  private readonly digitSum: Int32Array;
  /** Groups that can run the first stage of a suffix using `u`. */
  private readonly starts: Int32Array[];
  private readonly rest: Int32Array;
  private readonly fDone: Uint8Array;
  private readonly nDone: Uint8Array;
  /** Finite range [lo, hi] of each F and N row (inclusive; empty when lo > hi). */
  private readonly fLo: Int32Array;
  private readonly fHi: Int32Array;
  private readonly nLo: Int32Array;
  private readonly nHi: Int32Array;
  private readonly pref: Float64Array;
  private readonly linear: Uint8Array;
  private readonly dqE: Int32Array;
  private readonly dqV: Float64Array;
  private readonly F: Float64Array;
  private readonly Fend: Int32Array;
  private readonly N: Float64Array;
  private readonly Nnext: Int32Array;
  /** Scratch: the furthest end per microbatches in flight (prepare), the relaxation's starts. */
  private reach: Int32Array;
  private readonly relaxStart: Int32Array;
  /** Pipeline space (one device per class): the prefix bound below applies. */
  private readonly oneEach: boolean;
  /** Per usage v (pipeline space): a furthest layer the devices of v can cover from layer 0. */
  private readonly prefixEnd: Int32Array;
  private readonly capBuffer: Float64Array;

  constructor(
    private readonly ctx: PlannerContext,
    private readonly shape: Shape,
    private readonly schedule: Schedule,
    /** Gradient sync per (group, from, to), filled on first use (NaN until then) for each m (it hides behind a microbatch's compute). */
    private readonly sync: Float64Array = new Float64Array(
      shape.groups.length * ctx.problem.layers.length * (ctx.problem.layers.length + 1),
    ).fill(NaN),
  ) {
    const { problem, tables } = ctx;
    const L = problem.layers.length;
    this.L = L;
    this.LL = L * (L + 1);
    const GI = shape.groups.length;
    this.GI = GI;
    this.inference = problem.mode === 'inference';
    this.gpipe = schedule === 'gpipe';
    this.cutFactor = problem.mode === 'training' ? 2 : 1;
    this.time = new Float64Array(GI * this.LL);
    this.fit = new Int32Array(GI * this.LL);
    this.link = new Float64Array(GI * GI * L);
    // One tensor-parallel replica is even too: its samples never move, and its time adds up over layers.
    this.even = Uint8Array.from(shape.groups, (g) =>
      g.size === g.tp || g.devs.every((d) => tables.sameTimes(d, g.devs[0] as number)) ? 1 : 0,
    );
    this.digitSum = new Int32Array(shape.usages);
    this.starts = [];
    for (let u = 0; u < shape.usages; u++) {
      let sum = 0;
      const digits = shape.radix.map((r, c) => {
        const d = Math.floor(u / (shape.stride[c] as number)) % r;
        sum += d;
        return d;
      });
      this.digitSum[u] = sum;
      this.starts.push(Int32Array.from(shape.groups.flatMap((g, gid) => (digits[g.cls] === g.end ? [gid] : []))));
    }
    this.rest = Int32Array.from(shape.groups, (g) => g.members * (shape.stride[g.cls] as number));
    const rows = GI * shape.usages * shape.stageDim;
    this.fDone = new Uint8Array(rows);
    this.nDone = new Uint8Array(rows);
    this.fLo = new Int32Array(rows);
    this.fHi = new Int32Array(rows);
    this.nLo = new Int32Array(rows);
    this.nHi = new Int32Array(rows);
    this.F = new Float64Array(rows * L);
    this.Fend = new Int32Array(rows * L);
    this.N = new Float64Array(rows * L);
    this.Nnext = new Int32Array(rows * L);
    this.dqE = new Int32Array(L);
    this.dqV = new Float64Array(L);
    this.pref = new Float64Array(GI * (L + 1));
    this.linear = new Uint8Array(GI);
    this.reach = new Int32Array(0);
    this.relaxStart = new Int32Array(shape.usages);
    this.oneEach = shape.radix.every((r) => r === 2) && shape.groups.every((g) => g.size === 1);
    this.prefixEnd = new Int32Array(shape.usages);
    this.capBuffer = new Float64Array(GI * this.LL + GI * GI * L);
  }

  /** Rebuilds the stage times, memory fits, cut times and prefix sums for m microbatches. */
  prepare(m: number): void {
    const { L, shape } = this;
    this.m = m;
    const samples = this.ctx.problem.batch / m;
    this.samples = samples;
    this.sync.fill(NaN);
    const cap = this.inference ? 1 : this.gpipe ? m : Math.min(m, shape.totalMembers);
    this.time.fill(Infinity);
    this.fit.fill(0);
    if (this.reach.length < (cap + 1) * L) this.reach = new Int32Array((cap + 1) * L);
    shape.groups.forEach((g, gid) => {
      const fits = stageFits(this.ctx, g, m);
      if (this.even[gid]) this.fillEvenStages(g, gid, fits, samples, cap);
      else this.fillUnevenStages(g, gid, fits, samples, cap);
    });
    this.fillLinks(samples);
    this.fillPrefixes(samples);
  }

  /** Stage times and fits of group gid when its devices differ: the split (so the memory) changes with the range. */
  private fillUnevenStages(g: Group, gid: number, fits: StageFits, samples: number, cap: number): void {
    const { L, LL, time, fit } = this;
    const tables = this.ctx.tables;
    // Every range is checked.
    for (let from = 0; from < L; from++) {
      for (let to = from + 1; to <= L; to++) {
        const k = gid * LL + from * (L + 1) + to;
        const split = tables.stageSplit(g.devs, from, to, samples, g.tp);
        if (!Number.isFinite(split.timeUs)) break;
        let lo = 0;
        let hi = cap;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (fits(from, to, mid, split.shares)) lo = mid;
          else hi = mid - 1;
        }
        fit[k] = lo;
        time[k] = split.timeUs;
      }
    }
  }

  /**
   * Stage times and fits of group gid when its devices are alike. They split evenly whatever the
   * layers, so a range fits only if every range inside it does, with at least as many microbatches
   * in flight: for each count f in flight, the furthest end that fits from `from` never falls as
   * `from` grows (two pointers).
   */
  private fillEvenStages(g: Group, gid: number, fits: StageFits, samples: number, cap: number): void {
    const { L, LL, time, fit, reach } = this;
    const tables = this.ctx.tables;
    const shares = tables.stageSplit(g.devs, 0, 1, samples, g.tp).shares;
    const timeOf = tables.evenStageTimer(g.devs, samples, g.tp);
    const finiteEnd = (from: number, to: number): boolean => Number.isFinite(timeOf(from, to));
    for (let f = 1; f <= cap; f++) {
      const ro = f * L;
      let t = 0;
      for (let from = 0; from < L; from++) {
        if (t < from) t = from;
        const limit = f === 1 ? L : (reach[ro - L + from] as number);
        if (t > limit) t = limit;
        while (t < limit && finiteEnd(from, t + 1) && fits(from, t + 1, f, shares)) t++;
        reach[ro + from] = t;
      }
    }
    for (let from = 0; from < L; from++) {
      const end = cap >= 1 ? (reach[L + from] as number) : from;
      let f = cap;
      const base = gid * LL + from * (L + 1);
      for (let to = from + 1; to <= end; to++) {
        while (f > 1 && (reach[f * L + from] as number) < to) f--;
        fit[base + to] = f;
        time[base + to] = timeOf(from, to);
      }
    }
  }

  /** Cut times between each pair of groups that can follow each other, at each cut. */
  private fillLinks(samples: number): void {
    const { L, GI, link } = this;
    const groups = this.shape.groups;
    const tables = this.ctx.tables;
    link.fill(Infinity);
    groups.forEach((a, ga) => {
      groups.forEach((b, gb) => {
        // b follows a: another class, or the devices of a's class just below a's.
        if (a.cls === b.cls && b.end !== a.end - a.members) return;
        const row = tables.cutRow(a.devs, b.devs, samples);
        link.set(row.subarray(1), (ga * GI + gb) * L + 1);
      });
    });
  }

  /**
   * Prefix times of one-device groups whose device runs every layer (the sliding-window path).
   * Such a stage's gradient sync (optimizer offload, else 0) is proportional to its parameters, so
   * it telescopes too.
   */
  private fillPrefixes(samples: number): void {
    const { L, linear, pref } = this;
    const tables = this.ctx.tables;
    linear.fill(0);
    this.shape.groups.forEach((g, gid) => {
      const d = g.devs[0] as number;
      if (g.size !== 1 || !Number.isFinite(tables.perSampleUs(d, 0, L))) return;
      linear[gid] = 1;
      for (let e = 0; e <= L; e++) {
        pref[gid * (L + 1) + e] =
          samples * tables.perSampleUs(d, 0, e) + tables.gradientSyncUs(g.devs, 0, e, 1, samples);
      }
    });
  }

  /**
   * A lower bound of Σ t + d·Σ c + Σ a over every plan that fits (G(∞) or less): each layer's least
   * time on a group it fits on, summed (stage times of alike devices add up over layers; cuts and
   * syncs are ≥ 0), less 1e-9 of it for rounding. 0 when some group's devices differ; Infinity
   * when some layer fits on no group.
   */
  sumFloor(): number {
    const { L, LL, GI, time, fit, even } = this;
    if (!even.every((e) => e === 1)) return 0;
    let sum = 0;
    for (let l = 0; l < L; l++) {
      let least = Infinity;
      for (let g = 0; g < GI; g++) {
        const k = g * LL + l * (L + 1) + l + 1;
        if ((fit[k] as number) >= 1 && (time[k] as number) < least) least = time[k] as number;
      }
      sum += least;
    }
    return sum * (1 - 1e-9);
  }

  /**
   * The stage and cut times c (the values a plan's largest time can take) with
   * floor + weight·c < limit, unsorted, possibly repeated, in a scratch buffer (valid until the
   * next call or prepare).
   */
  capValues(floor: number, weight: number, limit: number): Float64Array {
    const { time, fit, link, capBuffer: buf } = this;
    let n = 0;
    for (let k = 0; k < time.length; k++) {
      const t = time[k] as number;
      if ((fit[k] as number) >= 1 && floor + weight * t < limit) buf[n++] = t;
    }
    for (let k = 0; k < link.length; k++) {
      const c = link[k] as number;
      if (Number.isFinite(c) && floor + weight * c < limit) buf[n++] = c;
    }
    return buf.subarray(0, n);
  }

  /**
   * A necessary condition for some plan to have every stage time ≤ tmax (a relaxation of solve:
   * cut times are left out, stages may be empty, and with a tracked stage count one microbatch in
   * flight is enough). False means G(tmax) = ∞. Cheap: O(states of the device usage × log L).
   */
  mayFit(tmax: number): boolean {
    const { L, LL, time, fit, even, digitSum, starts, rest, relaxStart: S, m } = this;
    const { usages: U, explicitStages } = this.shape;
    // S[u]: the least first layer of a suffix that the devices counted by u can cover.
    S[0] = L;
    for (let u = 1; u < U; u++) {
      const need = this.inference ? 1 : this.gpipe ? m : explicitStages ? 1 : Math.min(digitSum[u] as number, m);
      let best = L;
      for (const g of starts[u] as Int32Array) {
        const e = S[u - (rest[g] as number)] as number;
        let l = e;
        if (!even[g]) {
          l = 0; // No monotone structure to use: assume it covers everything.
        } else if (e > 0) {
          // Least l with [l, e) within tmax and memory: feasible starts form [l, e).
          const base = g * LL + e;
          const ok = (from: number): boolean =>
            (time[base + from * (L + 1)] as number) <= tmax && (fit[base + from * (L + 1)] as number) >= need;
          if (ok(e - 1)) {
            let lo = 0;
            let hi = e - 1;
            while (lo < hi) {
              const mid = (lo + hi) >> 1;
              if (ok(mid)) hi = mid;
              else lo = mid + 1;
            }
            l = lo;
          }
        }
        if (l < best) best = l;
      }
      S[u] = best;
      if (best === 0) return true;
    }
    return false;
  }

  /**
   * Pipeline space: prefixEnd[v] ≥ the last layer + 1 that stages on devices of v (any subset, any
   * order) can cover from layer 0 with every stage time ≤ tmax (a relaxation, as in mayFit: cuts
   * left out, one microbatch in flight enough). A suffix on u can only start at l ≤ prefixEnd[ū].
   */
  private coverPrefixes(tmax: number): void {
    const { L, LL, time, fit, starts, rest, prefixEnd: P, m } = this;
    const need = this.gpipe && !this.inference ? m : 1;
    P[0] = 0;
    for (let v = 1; v < this.shape.usages; v++) {
      let best = 0;
      for (const g of starts[v] as Int32Array) {
        const from = P[v - (rest[g] as number)] as number;
        let e = from;
        if (from < L) {
          const base = g * LL + from * (L + 1);
          let h = L;
          while (e < h) {
            const mid = (e + h + 1) >> 1;
            if ((time[base + mid] as number) <= tmax && (fit[base + mid] as number) >= need) e = mid;
            else h = mid - 1;
          }
        }
        if (e > best) best = e;
      }
      P[v] = best;
    }
  }

  /** min Σ t + d·Σ c + Σ a with every stage and cut time ≤ tmax; null when nothing fits. */
  solve(tmax: number): DpSolution | null {
    this.tmax = tmax;
    this.fDone.fill(0);
    this.nDone.fill(0);
    if (this.oneEach) this.coverPrefixes(tmax);
    const top = this.bestFirstStage();
    return top ? this.trace(top) : null;
  }

  /** The least F over every row that covers layer 0: the first stage's state and the plan's value. */
  private bestFirstStage(): { g: number; u: number; s: number; value: number } | null {
    const { L, F, fLo, digitSum, starts } = this;
    const { usages: U, explicitStages } = this.shape;
    let best = Infinity;
    let bestG = -1;
    let bestU = 0;
    let bestS = 0;
    for (let u = 1; u < U; u++) {
      const sHi = explicitStages ? Math.min(digitSum[u] as number, L) : 0;
      for (let s = explicitStages ? 1 : 0; s <= sHi; s++) {
        for (const g of starts[u] as Int32Array) {
          const r = this.fRow(g, u, s);
          if ((fLo[r] as number) !== 0) continue;
          const v = F[r * L] as number;
          if (v < best) {
            best = v;
            bestG = g;
            bestU = u;
            bestS = s;
          }
        }
      }
    }
    return best < Infinity ? { g: bestG, u: bestU, s: bestS, value: best } : null;
  }

  /** Follows Fend and Nnext from the first stage's state: the plan's stages and its largest time. */
  private trace(top: { g: number; u: number; s: number; value: number }): DpSolution {
    const { L, LL, GI, time, link, rest, Fend, Nnext } = this;
    const groups = this.shape.groups;
    const stages: PlanSpec['stages'][number][] = [];
    const ids = this.ctx.tables.deviceIds;
    let actualMax = 0;
    let { g, u, s } = top;
    let l = 0;
    for (;;) {
      const grp = groups[g] as Group;
      const e = Fend[this.row(g, u, s) * L + l] as number;
      stages.push({
        from: l,
        to: e,
        devices: grp.devs.map((d) => ids[d] as string),
        ...(grp.tp > 1 ? { tp: grp.tp } : {}),
      });
      actualMax = Math.max(actualMax, time[g * LL + l * (L + 1) + e] as number);
      if (e === L) break;
      const uRest = u - (rest[g] as number);
      const h = Nnext[this.row(g, uRest, s - 1) * L + e] as number;
      actualMax = Math.max(actualMax, link[(g * GI + h) * L + e] as number);
      l = e;
      g = h;
      u = uRest;
      s -= 1;
    }
    return { value: top.value, actualMax, spec: { stages, microbatches: this.m, schedule: this.schedule } };
  }

  /** The last first layer a suffix on u may start at: one the other devices can reach (every l when unknown). */
  private lastL(u: number): number {
    const L = this.L;
    return this.oneEach ? Math.min(L - 1, this.prefixEnd[this.shape.usages - 1 - u] as number) : L - 1;
  }

  /** Gradient sync of group g over [from, to), cached at index k of `sync`. */
  private syncAt(g: number, from: number, to: number, k: number): number {
    let a = this.sync[k] as number;
    if (a !== a) {
      const grp = this.shape.groups[g] as Group;
      a = this.ctx.tables.gradientSyncUs(grp.devs, from, to, grp.tp, this.samples);
      this.sync[k] = a;
    }
    return a;
  }

  /** Row of states (group, usage, stages) over the first layer l = 0..L−1. */
  private row(g: number, u: number, s: number): number {
    const { usages, stageDim, explicitStages } = this.shape;
    return (g * usages + u) * stageDim + (explicitStages ? s - 1 : 0);
  }

  /**
   * F(l, g, u, s): layers [l, L) on a suffix whose first stage runs on g, using exactly the
   * devices counted by u (and s stages when tracked), at least cost Σ t + d·Σ c + Σ a.
   * Built on first use; entries are valid for l in [fLo, fHi] (Infinity elsewhere).
   */
  private fRow(g: number, u: number, s: number): number {
    const r = this.row(g, u, s);
    if (this.fDone[r]) return r;
    this.fDone[r] = 1;
    this.fLo[r] = this.L;
    this.fHi[r] = -1;
    const explicitStages = this.shape.explicitStages;
    const m = this.m;
    const need = this.inference ? 1 : this.gpipe ? m : Math.min(explicitStages ? s : (this.digitSum[u] as number), m);
    const uRest = u - (this.rest[g] as number);
    if (uRest === 0) {
      // The last stage: layers [l, L).
      if (!explicitStages || s === 1) this.lastStageRow(r, g, u, need);
      return r;
    }
    if (explicitStages && s <= 1) return r;
    const nr = this.nRow(g, uRest, s - 1);
    if ((this.nLo[nr] as number) > (this.nHi[nr] as number)) return r;
    if (this.linear[g]) this.slidingRow(r, g, u, nr, need);
    else this.scanRow(r, g, u, nr, need);
    return r;
  }

  /** F row r of a last stage on g: layers [l, L) in one stage. */
  private lastStageRow(r: number, g: number, u: number, need: number): void {
    const { L, time, fit, F, Fend, tmax } = this;
    const o = r * L;
    const gb = g * this.LL;
    let lo = L;
    let hi = -1;
    const lMax = this.lastL(u);
    for (let l = 0; l <= lMax; l++) {
      const k = gb + l * (L + 1) + L;
      const t = time[k] as number;
      if (t <= tmax && (fit[k] as number) >= need) {
        F[o + l] = t + this.syncAt(g, l, L, k);
        Fend[o + l] = L;
        if (lo === L) lo = l;
        hi = l;
      } else {
        F[o + l] = Infinity;
      }
    }
    this.fLo[r] = lo;
    this.fHi[r] = hi;
  }

  /**
   * F row r on a one-device group g whose stage costs telescope: t(l, e) + a(l, e) = P[e] − P[l],
   * so F(l) = min over the window e ∈ (l, end(l)] of (P[e] + N(e)) − P[l]; end(l) only falls as
   * l falls (monotone deque over N row nr).
   */
  private slidingRow(r: number, g: number, u: number, nr: number, need: number): void {
    const { L, LL, time, fit, pref, F, Fend, N, dqE, dqV, tmax } = this;
    const a = this.nLo[nr] as number;
    const b = this.nHi[nr] as number;
    const o = r * L;
    const no = nr * L;
    const gb = g * LL;
    const pb = g * (L + 1);
    let lo = L;
    let hi = -1;
    let head = 0;
    let tail = 0;
    let l = Math.min(b - 1, this.lastL(u));
    if (l < 0) return;
    let end = this.furthestEnd(gb + l * (L + 1), l, need);
    // The window of the first l: every e in (l + 1, end] (l + 1 itself is pushed by the loop).
    for (let e = Math.min(end, b); e > l + 1 && e >= a; e--) {
      const ne = N[no + e] as number;
      if (ne < Infinity) {
        const v = (pref[pb + e] as number) + ne;
        while (tail > head && (dqV[tail - 1] as number) >= v) tail--;
        dqE[tail] = e;
        dqV[tail] = v;
        tail++;
      }
    }
    for (; l >= 0; l--) {
      const e = l + 1;
      const ne = N[no + e] as number;
      if (e >= a && ne < Infinity) {
        const v = (pref[pb + e] as number) + ne;
        while (tail > head && (dqV[tail - 1] as number) >= v) tail--;
        dqE[tail] = e;
        dqV[tail] = v;
        tail++;
      }
      const base = gb + l * (L + 1);
      while (end > l && !((time[base + end] as number) <= tmax && (fit[base + end] as number) >= need)) end--;
      while (tail > head && (dqE[head] as number) > end) head++;
      if (tail > head) {
        F[o + l] = (dqV[head] as number) - (pref[pb + l] as number);
        Fend[o + l] = dqE[head] as number;
        if (hi < 0) hi = l;
        lo = l;
      } else {
        F[o + l] = Infinity;
        if (end < a) break; // Every earlier l ends before the first finite N too.
      }
    }
    this.fLo[r] = lo;
    this.fHi[r] = hi;
  }

  /**
   * The furthest end e < L of a stage from layer l (its ranges start at `base`) within the cap
   * and memory; l when none. Ranges from l only fit less as they grow, so a binary search.
   */
  private furthestEnd(base: number, l: number, need: number): number {
    const { L, time, fit, tmax } = this;
    let end = l;
    let h = L - 1;
    while (end < h) {
      const mid = (end + h + 1) >> 1;
      if ((time[base + mid] as number) <= tmax && (fit[base + mid] as number) >= need) end = mid;
      else h = mid - 1;
    }
    return end;
  }

  /** F row r on group g by trying every end e of the first stage against N row nr: O(L²). */
  private scanRow(r: number, g: number, u: number, nr: number, need: number): void {
    const { L, time, fit, F, Fend, N, tmax } = this;
    const a = this.nLo[nr] as number;
    const b = this.nHi[nr] as number;
    const o = r * L;
    const no = nr * L;
    const gb = g * this.LL;
    const single = (this.shape.groups[g] as Group).size === 1;
    let lo = L;
    let hi = -1;
    const lEnd = Math.min(b - 1, this.lastL(u));
    for (let l = 0; l <= lEnd; l++) {
      const base = gb + l * (L + 1);
      let best = Infinity;
      let bestEnd = -1;
      for (let e = l + 1; e < L; e++) {
        const t = time[base + e] as number;
        if (!(t <= tmax)) break;
        if ((fit[base + e] as number) < need) {
          if (single) break;
          continue;
        }
        if (e < a || e > b) continue;
        const v = t + this.syncAt(g, l, e, base + e) + (N[no + e] as number);
        if (v < best) {
          best = v;
          bestEnd = e;
        }
      }
      F[o + l] = best;
      Fend[o + l] = bestEnd;
      if (best < Infinity) {
        if (lo === L) lo = l;
        hi = l;
      }
    }
    this.fLo[r] = lo;
    this.fHi[r] = hi;
  }

  /**
   * N(l, prev, u, s): the cut before layer l after a stage on `prev`, then a suffix on u.
   * Built on first use; entries are valid for l in [nLo, nHi].
   */
  private nRow(prev: number, u: number, s: number): number {
    const r = this.row(prev, u, s);
    if (this.nDone[r]) return r;
    this.nDone[r] = 1;
    const { L, GI, link, F, N, Nnext, fLo, fHi, cutFactor, tmax } = this;
    const o = r * L;
    const hs = this.starts[u] as Int32Array;
    const lMax = this.lastL(u);
    let a = L;
    let b = 0;
    for (const h of hs) {
      const fr = this.fRow(h, u, s);
      const fa = Math.max(1, fLo[fr] as number);
      const fb = Math.min(lMax, fHi[fr] as number);
      if (fa <= fb) {
        if (fa < a) a = fa;
        if (fb > b) b = fb;
      }
    }
    for (let l = a; l <= b; l++) N[o + l] = Infinity;
    for (const h of hs) {
      const fr = this.fRow(h, u, s);
      const fo = fr * L;
      const fa = Math.max(1, fLo[fr] as number);
      const fb = Math.min(lMax, fHi[fr] as number);
      const lo = (prev * GI + h) * L;
      for (let l = fa; l <= fb; l++) {
        const c = link[lo + l] as number;
        if (!(c <= tmax)) continue;
        const v = cutFactor * c + (F[fo + l] as number);
        if (v < (N[o + l] as number)) {
          N[o + l] = v;
          Nnext[o + l] = h;
        }
      }
    }
    while (a <= b && !((N[o + a] as number) < Infinity)) a++;
    while (b >= a && !((N[o + b] as number) < Infinity)) b--;
    this.nLo[r] = a;
    this.nHi[r] = b;
    return r;
  }
}
