/**
 * FROZEN REFERENCE, tests only: the planner's exact pipeline search as it was before the speed-up
 * (src-main/core/planner/suffix-dp.ts at commit ca6f10c), kept unchanged so that
 * dp-vs-reference.test.ts can check the optimised search finds the same optimum on instances too
 * large for brute force. Do not optimise or fix this copy. (It ignored the optimizer-offload
 * sync of one-device stages, since fixed: compare only problems without offload.)
 *
 * Original header follows.
 */
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
 */
import type { CapSolution } from './cap-search.js';
import type { PlanSpec } from '../../../../../src-main/core/planner/cost/plan-cost.js';
import type { GroupSpace } from '../../../../../src-main/core/planner/search/group-space.js';
import { deviceMemory } from '../../../../../src-main/core/planner/memory/memory.js';
import type { PlannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import type { Schedule } from '../../../../../src-main/core/planner/types.js';

export interface Group {
  cls: number;
  /** The class's devices [end − size, end). */
  end: number;
  size: number;
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
  totalDevices: number;
}

export function shapeOf(space: GroupSpace, ctx: PlannerContext, schedule: Schedule): Shape {
  const groups: Group[] = [];
  const stride: number[] = [];
  const radix: number[] = [];
  let usages = 1;
  space.classes.forEach((c, cls) => {
    stride.push(usages);
    radix.push(c.devices.length + 1);
    usages *= c.devices.length + 1;
    for (let end = 1; end <= c.devices.length; end++) {
      for (let size = 1; size <= Math.min(end, c.maxGroupSize); size++) {
        groups.push({ cls, end, size, devs: c.devices.slice(end - size, end) });
      }
    }
  });
  const totalDevices = space.classes.reduce((n, c) => n + c.devices.length, 0);
  const singles = space.classes.every((c) => c.maxGroupSize <= 1);
  const explicitStages = ctx.problem.mode === 'training' && schedule === '1f1b' && !singles;
  return {
    groups,
    stride,
    radix,
    usages,
    explicitStages,
    stageDim: explicitStages ? Math.min(totalDevices, ctx.problem.layers.length) : 1,
    totalDevices,
  };
}

export interface DpSolution extends CapSolution {
  spec: PlanSpec;
}

/** The DP for one microbatch count: tables at construction, solve(T) per cap. */
export class SuffixDp {
  private readonly L: number;
  private readonly LL: number;
  private readonly GI: number;
  private readonly samples: number;
  private readonly cutFactor: number;
  private readonly time: Float64Array;
  /** Largest number of microbatches in flight the stage fits with (0: never). */
  private readonly fit: Int32Array;
  private readonly link: Float64Array;
  private readonly digitSum: Int32Array;
  /** Groups that can run the first stage of a suffix using `u`. */
  private readonly starts: Int32Array[];
  private readonly fDone: Uint8Array;
  private readonly nDone: Uint8Array;
  private readonly pref: Float64Array;
  private readonly linear: Uint8Array;
  private readonly dqE: Int32Array;
  private readonly dqV: Float64Array;
  private readonly F: Float64Array;
  private readonly Fend: Int32Array;
  private readonly N: Float64Array;
  private readonly Nnext: Int32Array;
  readonly candidates: Float64Array;

  constructor(
    private readonly ctx: PlannerContext,
    private readonly shape: Shape,
    private readonly m: number,
    private readonly schedule: Schedule,
    /** Gradient sync per (group, from, to), filled on first use (NaN until then), shared by every m. */
    private readonly sync: Float64Array,
  ) {
    const { problem, tables } = ctx;
    const L = problem.layers.length;
    this.L = L;
    this.LL = L * (L + 1);
    const GI = shape.groups.length;
    this.GI = GI;
    this.samples = problem.batch / m;
    this.cutFactor = problem.mode === 'training' ? 2 : 1;
    const cap = problem.mode === 'inference' ? 1 : schedule === 'gpipe' ? m : Math.min(m, shape.totalDevices);
    this.time = new Float64Array(GI * this.LL).fill(Infinity);
    this.fit = new Int32Array(GI * this.LL);
    const cands: number[] = [];
    shape.groups.forEach((g, gid) => {
      const devices = g.devs.map((d) => problem.devices[d]);
      // Alike devices split evenly whatever the layers, so memory only grows with the range.
      const even = g.devs.every((d) => tables.sameTimes(d, g.devs[0] as number));
      for (let from = 0; from < L; from++) {
        let hiFit = cap;
        for (let to = from + 1; to <= L; to++) {
          const k = gid * this.LL + from * (L + 1) + to;
          const split = tables.stageSplit(g.devs, from, to, this.samples);
          if (!Number.isFinite(split.timeUs)) break;
          const params = tables.params(from, to);
          const act = tables.activationBytesPerSample(from, to);
          const fits = (inFlight: number): boolean =>
            devices.every((dev, j) => {
              const need = deviceMemory(
                { params, replicas: g.size, activationBytesPerSample: act, samples: split.shares[j] ?? 0, inFlight },
                problem,
              );
              return dev !== undefined && need.totalBytes <= dev.memoryBytes;
            });
          let lo = 0;
          let hi = even ? hiFit : cap;
          while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if (fits(mid)) lo = mid;
            else hi = mid - 1;
          }
          this.fit[k] = lo;
          if (lo === 0 && even) break; // Longer ranges do not fit either; their time stays Infinity.
          this.time[k] = split.timeUs;
          if (lo >= 1) cands.push(split.timeUs);
          hiFit = lo;
        }
      }
    });
    this.link = new Float64Array(GI * GI * L).fill(Infinity);
    shape.groups.forEach((a, ga) => {
      shape.groups.forEach((b, gb) => {
        // b follows a: another class, or the devices of a's class just below a's.
        if (a.cls === b.cls && b.end !== a.end - a.size) return;
        for (let cut = 1; cut < L; cut++) {
          const c = tables.cutUs(a.devs, b.devs, cut - 1, this.samples);
          this.link[(ga * GI + gb) * L + cut] = c;
          if (Number.isFinite(c)) cands.push(c);
        }
      });
    });
    this.candidates = Float64Array.from(new Set(cands)).sort();
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
    const rows = GI * shape.usages * shape.stageDim;
    this.fDone = new Uint8Array(rows);
    this.nDone = new Uint8Array(rows);
    this.F = new Float64Array(rows * L);
    this.Fend = new Int32Array(rows * L);
    this.N = new Float64Array(rows * L);
    this.Nnext = new Int32Array(rows * L);
    this.dqE = new Int32Array(L);
    this.dqV = new Float64Array(L);
    // Prefix times of one-device groups whose device runs every layer (the deque path).
    this.pref = new Float64Array(GI * (L + 1));
    this.linear = new Uint8Array(GI);
    shape.groups.forEach((g, gid) => {
      const d = g.devs[0] as number;
      if (g.size !== 1 || !Number.isFinite(tables.perSampleUs(d, 0, L))) return;
      this.linear[gid] = 1;
      for (let e = 0; e <= L; e++) this.pref[gid * (L + 1) + e] = this.samples * tables.perSampleUs(d, 0, e);
    });
  }

  /** min Σ t + d·Σ c + Σ a with every stage and cut time ≤ tmax; null when nothing fits. */
  solve(tmax: number): DpSolution | null {
    const { L, LL, GI, time, sync, fit, link, digitSum, starts, F, Fend, N, Nnext, cutFactor, m } = this;
    const { pref, linear, fDone, nDone, dqE, dqV } = this;
    const { groups, stride, usages: U, explicitStages, stageDim } = this.shape;
    const inference = this.ctx.problem.mode === 'inference';
    const gpipe = this.schedule === 'gpipe';
    fDone.fill(0);
    nDone.fill(0);
    const tables = this.ctx.tables;
    const syncAt = (g: number, from: number, to: number, k: number): number => {
      let a = sync[k] as number;
      if (a !== a) {
        a = tables.gradientSyncUs((groups[g] as Group).devs, from, to, 1, this.samples);
        sync[k] = a;
      }
      return a;
    };
    /** Row of states (group, usage, stages) over the first layer l = 0..L−1. */
    const row = (g: number, u: number, s: number): number => (g * U + u) * stageDim + (explicitStages ? s - 1 : 0);

    // F(l, g, u, s): layers [l, L) on a suffix whose first stage runs on g, using exactly the
    // devices counted by u (and s stages when tracked), at least cost Σ t + d·Σ c + Σ a.
    const fRow = (g: number, u: number, s: number): number => {
      const r = row(g, u, s);
      const o = r * L;
      if (fDone[r]) return o;
      fDone[r] = 1;
      const grp = groups[g] as Group;
      const uRest = u - grp.size * (stride[grp.cls] as number);
      const need = inference ? 1 : gpipe ? m : Math.min(explicitStages ? s : (digitSum[u] as number), m);
      const gb = g * LL;
      for (let l = 0; l < L; l++) {
        F[o + l] = Infinity;
        Fend[o + l] = -1;
      }
      if (uRest === 0) {
        // The last stage: layers [l, L).
        if (explicitStages && s !== 1) return o;
        for (let l = 0; l < L; l++) {
          const k = gb + l * (L + 1) + L;
          const t = time[k] as number;
          if (t <= tmax && (fit[k] as number) >= need) {
            F[o + l] = t + syncAt(g, l, L, k);
            Fend[o + l] = L;
          }
        }
        return o;
      }
      if (explicitStages && s <= 1) return o;
      const no = nRow(g, uRest, s - 1);
      if (linear[g]) {
        // One device, no gradient sync: t(l, e) = P[e] − P[l], so F(l) = min over the window
        // e ∈ (l, end(l)] of (P[e] + N(e)) − P[l]; end(l) only falls as l falls (monotone deque).
        const pb = g * (L + 1);
        let head = 0;
        let tail = 0;
        let hi = L - 1;
        for (let l = L - 2; l >= 0; l--) {
          const e = l + 1;
          const ne = N[no + e] as number;
          if (ne < Infinity) {
            const v = (pref[pb + e] as number) + ne;
            while (tail > head && (dqV[tail - 1] as number) >= v) tail--;
            dqE[tail] = e;
            dqV[tail] = v;
            tail++;
          }
          const base = gb + l * (L + 1);
          while (hi > l && !((time[base + hi] as number) <= tmax && (fit[base + hi] as number) >= need)) hi--;
          while (tail > head && (dqE[head] as number) > hi) head++;
          if (tail > head) {
            F[o + l] = (dqV[head] as number) - (pref[pb + l] as number);
            Fend[o + l] = dqE[head] as number;
          }
        }
        return o;
      }
      const single = grp.size === 1;
      for (let l = 0; l < L - 1; l++) {
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
          const v = t + syncAt(g, l, e, base + e) + (N[no + e] as number);
          if (v < best) {
            best = v;
            bestEnd = e;
          }
        }
        F[o + l] = best;
        Fend[o + l] = bestEnd;
      }
      return o;
    };

    // N(l, prev, u, s): the cut before layer l after a stage on `prev`, then a suffix on u.
    const nRow = (prev: number, u: number, s: number): number => {
      const r = row(prev, u, s);
      const o = r * L;
      if (nDone[r]) return o;
      nDone[r] = 1;
      for (let l = 0; l < L; l++) {
        N[o + l] = Infinity;
        Nnext[o + l] = -1;
      }
      for (const h of starts[u] as Int32Array) {
        const fo = fRow(h, u, s);
        const lo = (prev * GI + h) * L;
        for (let l = 1; l < L; l++) {
          const c = link[lo + l] as number;
          if (!(c <= tmax)) continue;
          const v = cutFactor * c + (F[fo + l] as number);
          if (v < (N[o + l] as number)) {
            N[o + l] = v;
            Nnext[o + l] = h;
          }
        }
      }
      return o;
    };

    let best = Infinity;
    let top = { g: -1, u: 0, s: 0 };
    for (let u = 1; u < U; u++) {
      const sHi = explicitStages ? Math.min(digitSum[u] as number, L) : 0;
      for (let s = explicitStages ? 1 : 0; s <= sHi; s++) {
        for (const g of starts[u] as Int32Array) {
          const v = F[fRow(g, u, s)] as number;
          if (v < best) {
            best = v;
            top = { g, u, s };
          }
        }
      }
    }
    if (!(best < Infinity)) return null;

    const stages: PlanSpec['stages'][number][] = [];
    const ids = this.ctx.tables.deviceIds;
    let actualMax = 0;
    let { g, u, s } = top;
    let l = 0;
    for (;;) {
      const grp = groups[g] as Group;
      const e = Fend[row(g, u, s) * L + l] as number;
      stages.push({ from: l, to: e, devices: grp.devs.map((d) => ids[d] as string) });
      actualMax = Math.max(actualMax, time[g * LL + l * (L + 1) + e] as number);
      if (e === L) break;
      const uRest = u - grp.size * (stride[grp.cls] as number);
      const h = Nnext[row(g, uRest, s - 1) * L + e] as number;
      actualMax = Math.max(actualMax, link[(g * GI + h) * L + e] as number);
      l = e;
      g = h;
      u = uRest;
      s -= 1;
    }
    return { value: best, actualMax, spec: { stages, microbatches: m, schedule: this.schedule } };
  }
}
