/**
 * The DP under a cap T for one microbatch count m (Alpa's inner problem), over a group space
 * (group-space.ts). Pure.
 *
 *   G(T) = min Σ t_i + d·Σ c_k + Σ a_i  over plans with every t_i ≤ T and c_k ≤ T whose stages fit
 *
 * A plan is a sequence of stages covering layers [0, L), each a range of layers on a group of
 * devices (dp-state-space.ts). t_i is stage i's time per microbatch, a_i its exposed gradient sync
 * per step, c_k the time of cut k (one microbatch's activations sent to the next stage), weighted
 * by d (2 when training: the activations forward and their gradients back; 1 for inference).
 *
 * The recurrence runs over suffixes of the layers. u is a usage code (the devices a suffix uses,
 * dp-state-space.ts), s the suffix's stage count where tracked, u' = u − usage(g) what the rest of
 * a suffix whose first stage runs on g uses, and need(u, s) the microbatches in flight that first
 * stage holds (1 for inference, m for GPipe, min(stages, m) for 1F1B, the stages being s, or the
 * members u uses when not tracked: then every group is one device). A stage on g over [l, e) is
 * allowed when t(g, l, e) ≤ T and its memory fits need(u, s) microbatches in flight.
 *
 *   F(l, g, u, s): layers [l, L) on a suffix whose first stage runs on g and that uses exactly u
 *     = t(g, l, L) + a(g, l, L)                                            when u' = 0 (and s = 1)
 *     = min over l < e < L of t(g, l, e) + a(g, l, e) + N(e, g, u', s − 1)   otherwise
 *   N(e, g, u', s'): a cut before layer e after a stage on g, then a suffix on u'
 *     = min over the groups h that start a suffix on u', with c(g, h, e) ≤ T, of d·c(g, h, e) + F(e, h, u', s')
 *   G(T) = min over u, s and the groups g that start a suffix on u of F(0, g, u, s)
 *
 * F is in `suffix` (the end e of its first stage beside it) and N in `afterCut` (its h beside it),
 * stored only for the rows built (dp-row-store.ts); t, c and the memory fits are DpStageTables' (dp-stage-tables.ts), rebuilt for
 * each m by prepare(m). Infinity where nothing is allowed.
 *
 * States are computed a row (all l) at a time, on demand; a one-device stage's time is P[e] − P[l]
 * for prefix sums P, so its row is a sliding-window minimum (monotone deque), O(L); other rows are
 * O(L²). Each row keeps the range of l where it is finite, and rows built on it only visit that
 * range. With one-device groups the stage count is the number of devices used, so s is tracked only
 * for 1F1B training with groups.
 *
 * One SuffixDp serves every microbatch count of a search (prepare(m) rebuilds the m-dependent
 * tables in place), so the tables are allocated once.
 */
import type { CapSolution } from './cap-search.js';
import type { PlanSpec } from '../cost/plan-cost.js';
import { DpRowStore } from './dp-row-store.js';
import { DpStageTables } from './dp-stage-tables.js';
import { ScratchLease } from './scratch.js';
import type { DpStateSpace, StageGroup } from './dp-state-space.js';
import type { PlannerContext } from '../problem/problem.js';
import type { Schedule } from '../types.js';

export interface DpSolution extends CapSolution {
  spec: PlanSpec;
}

/** The first stage of the best plan: its state (group, usage, stages) and the plan's value. */
interface FirstStage {
  g: number;
  u: number;
  s: number;
  value: number;
}

/** The DP tables of a search: prepare(m) per microbatch count, then solve(T) per cap. */
export class SuffixDp {
  /** The large arrays, reused from the last search (scratch.ts) and handed back by release(). */
  private readonly lease = new ScratchLease();
  /** Stage, cut and prefix times for the current microbatch count. */
  private readonly tables: DpStageTables;
  private readonly layerCount: number;
  private readonly inference: boolean;
  private readonly gpipe: boolean;
  /** d: a cut counts twice when training (activations forward, gradients back). */
  private readonly cutWeight: number;
  /** Samples of one microbatch, and the microbatch count, of the current prepare. */
  private samples = 0;
  private microbatches = 0;
  /** T, the cap of the current solve. */
  private timeCap = 0;
  /** Per usage code: the members it uses over all classes. */
  private readonly membersUsed: Int32Array;
  /** Per usage code: the groups that can run the first stage of a suffix using it. */
  private readonly firstGroups: Int32Array[];
  /** Per group: its members as a usage code (u − groupUsage[g] is what the rest of the suffix uses). */
  private readonly groupUsage: Int32Array;
  /** Per row (group, usage, stages): whether its F row, and its N row, is built in this solve. */
  private readonly suffixBuilt: Uint8Array;
  private readonly afterCutBuilt: Uint8Array;
  /** Per row: the finite range [lo, hi] of its F row, and of its N row (inclusive; empty when lo > hi). */
  private readonly suffixLo: Int32Array;
  private readonly suffixHi: Int32Array;
  private readonly afterCutLo: Int32Array;
  private readonly afterCutHi: Int32Array;
  /** F per row and first layer l (value), with the end e of its first stage (index). */
  private readonly suffix: DpRowStore;
  /** N per row (of the stage before the cut) and cut layer (value), with the group h its suffix starts on (index). */
  private readonly afterCut: DpRowStore;
  /** The monotone deque of slidingRow: ends e and their values P[e] + N(e). */
  private readonly dequeEnd: Int32Array;
  private readonly dequeValue: Float64Array;
  /** Scratch of mayFit: per usage code, the least first layer of a suffix its devices cover. */
  private readonly relaxedStart: Int32Array;
  /**
   * Gradient sync per (group, from, to), filled on first use (NaN until then) for each m (it hides
   * behind a microbatch's compute); allocated by the first prepare.
   */
  private sync = new Float64Array(0);
  /** Pipeline space (one device per class): the prefix bound below applies. */
  private readonly oneEach: boolean;
  /** Per usage v (pipeline space): a furthest layer the devices of v can cover from layer 0. */
  private readonly prefixEnd: Int32Array;

  constructor(
    private readonly ctx: PlannerContext,
    private readonly states: DpStateSpace,
    private readonly schedule: Schedule,
  ) {
    const { problem } = ctx;
    const L = problem.layers.length;
    this.layerCount = L;
    this.tables = new DpStageTables(ctx, states, this.lease);
    this.inference = problem.mode === 'inference';
    this.gpipe = schedule === 'gpipe';
    this.cutWeight = problem.mode === 'training' ? 2 : 1;
    this.membersUsed = new Int32Array(states.usages);
    this.firstGroups = [];
    for (let u = 0; u < states.usages; u++) {
      let sum = 0;
      const digits = states.radix.map((r, c) => {
        const d = Math.floor(u / (states.stride[c] as number)) % r;
        sum += d;
        return d;
      });
      this.membersUsed[u] = sum;
      this.firstGroups.push(Int32Array.from(states.groups.flatMap((g, gid) => (digits[g.cls] === g.end ? [gid] : []))));
    }
    this.groupUsage = Int32Array.from(states.groups, (g) => g.members * (states.stride[g.cls] as number));
    const rows = states.groups.length * states.usages * states.stageDim;
    this.suffixBuilt = new Uint8Array(rows);
    this.afterCutBuilt = new Uint8Array(rows);
    this.suffixLo = new Int32Array(rows);
    this.suffixHi = new Int32Array(rows);
    this.afterCutLo = new Int32Array(rows);
    this.afterCutHi = new Int32Array(rows);
    this.suffix = new DpRowStore(rows, L, { lease: this.lease, name: 'suffix' });
    this.afterCut = new DpRowStore(rows, L, { lease: this.lease, name: 'afterCut' });
    this.dequeEnd = new Int32Array(L);
    this.dequeValue = new Float64Array(L);
    this.relaxedStart = new Int32Array(states.usages);
    this.oneEach = states.radix.every((r) => r === 2) && states.groups.every((g) => g.size === 1);
    this.prefixEnd = new Int32Array(states.usages);
  }

  /** Rebuilds the stage times, memory fits, cut times and prefix sums for m microbatches. */
  prepare(m: number): void {
    const L = this.layerCount;
    if (this.sync.length === 0) this.sync = this.lease.take('sync', 'f64', this.states.groups.length * L * (L + 1));
    this.sync.fill(NaN);
    this.tables.fill(m, this.setCount(m), this.maxInFlight(m));
  }

  /** Sets the microbatch count m of what follows; its samples a microbatch. */
  private setCount(m: number): number {
    this.microbatches = m;
    this.samples = this.ctx.problem.batch / m;
    return this.samples;
  }

  /** The most microbatches a stage holds in flight with m microbatches. */
  private maxInFlight(m: number): number {
    return this.inference ? 1 : this.gpipe ? m : Math.min(m, this.states.totalMembers);
  }

  /** Sets count m without its tables: mayFit computes the ranges it asks (DpStageTables.probe) until prepare. */
  probe(m: number): void {
    this.tables.probe(m, this.setCount(m), this.maxInFlight(m));
  }

  /** Hands the tables back for the next search: this DP is done. */
  release(): void {
    this.lease.give();
  }

  /** A lower bound of the step of every plan with m microbatches, without prepare(m) (DpStageTables.stepFloor). */
  stepFloor(m: number): number {
    const stages = Math.min(this.states.totalMembers, this.layerCount);
    return this.tables.stepFloor(m, this.ctx.problem.batch / m, stages);
  }

  /** A lower bound of sumFloor with m microbatches, without prepare(m) (DpStageTables.sumFloorBefore). */
  sumFloorBefore(m: number): number {
    return this.tables.sumFloorBefore(this.ctx.problem.batch / m);
  }

  /** A lower bound of G(∞) (DpStageTables.sumFloor). */
  sumFloor(): number {
    return this.tables.sumFloor();
  }

  /** The values a plan's largest time can take below the limit (DpStageTables.capValues). */
  capValues(floor: number, weight: number, limit: number): Float64Array {
    return this.tables.capValues(floor, weight, limit);
  }

  /**
   * A necessary condition for some plan to have every stage time ≤ tmax (a relaxation of solve:
   * cut times are left out, stages may be empty, and with a tracked stage count one microbatch in
   * flight is enough). False means G(tmax) = ∞. Cheap: O(states of the device usage × log L).
   */
  mayFit(tmax: number): boolean {
    const { layerCount: L, membersUsed, firstGroups, groupUsage, relaxedStart: S, microbatches: m, tables } = this;
    const { usages: U, explicitStages } = this.states;
    // S[u]: the least first layer of a suffix that the devices counted by u can cover.
    S[0] = L;
    for (let u = 1; u < U; u++) {
      const need = this.inference ? 1 : this.gpipe ? m : explicitStages ? 1 : Math.min(membersUsed[u] as number, m);
      let best = L;
      for (const g of firstGroups[u] as Int32Array) {
        const e = S[u - (groupUsage[g] as number)] as number;
        let l = e;
        if (!tables.evenGroup[g]) {
          l = 0; // No monotone structure to use: assume it covers everything.
        } else if (e > 0 && tables.rangeWithin(g, e - 1, e, tmax, need)) {
          // Least l with [l, e) within tmax and memory: feasible starts form [l, e).
          let lo = 0;
          let hi = e - 1;
          while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (tables.rangeWithin(g, mid, e, tmax, need)) hi = mid;
            else lo = mid + 1;
          }
          l = lo;
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
    const { layerCount: L, firstGroups, groupUsage, prefixEnd: P, microbatches: m } = this;
    const { rangesPerGroup, stageTime, stageFit } = this.tables;
    const need = this.gpipe && !this.inference ? m : 1;
    P[0] = 0;
    for (let v = 1; v < this.states.usages; v++) {
      let best = 0;
      for (const g of firstGroups[v] as Int32Array) {
        const from = P[v - (groupUsage[g] as number)] as number;
        let e = from;
        if (from < L) {
          const base = g * rangesPerGroup + from * (L + 1);
          let h = L;
          while (e < h) {
            const mid = (e + h + 1) >> 1;
            if ((stageTime[base + mid] as number) <= tmax && (stageFit[base + mid] as number) >= need) e = mid;
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
    this.timeCap = tmax;
    this.suffixBuilt.fill(0);
    this.afterCutBuilt.fill(0);
    if (this.oneEach) this.coverPrefixes(tmax);
    const top = this.bestFirstStage();
    return top ? this.trace(top) : null;
  }

  /** The least F over every row that covers layer 0: the first stage's state and the plan's value. */
  private bestFirstStage(): FirstStage | null {
    const { layerCount: L, suffixLo, membersUsed, firstGroups, suffix } = this;
    const { usages: U, explicitStages } = this.states;
    let best = Infinity;
    let bestG = -1;
    let bestU = 0;
    let bestS = 0;
    for (let u = 1; u < U; u++) {
      const sHi = explicitStages ? Math.min(membersUsed[u] as number, L) : 0;
      for (let s = explicitStages ? 1 : 0; s <= sHi; s++) {
        for (const g of firstGroups[u] as Int32Array) {
          const r = this.suffixRow(g, u, s);
          if ((suffixLo[r] as number) !== 0) continue;
          const v = suffix.value[suffix.at(r)] as number;
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

  /** Follows suffixFirstEnd and afterCutGroup from the first stage's state: the plan's stages and its largest time. */
  private trace(top: FirstStage): DpSolution {
    const { layerCount: L, groupUsage, suffix, afterCut } = this;
    const { rangesPerGroup, groupCount, stageTime, cutTime } = this.tables;
    const groups = this.states.groups;
    const stages: PlanSpec['stages'][number][] = [];
    const ids = this.ctx.tables.deviceIds;
    let actualMax = 0;
    let { g, u, s } = top;
    let l = 0;
    for (;;) {
      const group = groups[g] as StageGroup;
      const e = suffix.index[suffix.at(this.rowIndex(g, u, s)) + l] as number;
      stages.push({
        from: l,
        to: e,
        devices: group.devs.map((d) => ids[d] as string),
        ...(group.tp > 1 ? { tp: group.tp } : {}),
      });
      actualMax = Math.max(actualMax, stageTime[g * rangesPerGroup + l * (L + 1) + e] as number);
      if (e === L) break;
      const uRest = u - (groupUsage[g] as number);
      const h = afterCut.index[afterCut.at(this.rowIndex(g, uRest, s - 1)) + e] as number;
      actualMax = Math.max(actualMax, cutTime[(g * groupCount + h) * L + e] as number);
      l = e;
      g = h;
      u = uRest;
      s -= 1;
    }
    return { value: top.value, actualMax, spec: { stages, microbatches: this.microbatches, schedule: this.schedule } };
  }

  /** The last first layer a suffix on u may start at: one the other devices can reach (every l when unknown). */
  private lastL(u: number): number {
    const L = this.layerCount;
    return this.oneEach ? Math.min(L - 1, this.prefixEnd[this.states.usages - 1 - u] as number) : L - 1;
  }

  /**
   * Gradient sync of group g over [from, to), cached at index k of `sync`. The rows call this on
   * a miss (`sync[k]` NaN) and then read the cache: a number returned by a call that is not inlined
   * is boxed, and merged with the cached reads it boxed every one of them too (a row asks for every range).
   */
  private computeSync(g: number, from: number, to: number, k: number): void {
    const group = this.states.groups[g] as StageGroup;
    this.sync[k] = this.ctx.tables.gradientSyncUs(group.devs, from, to, group.tp, this.samples);
  }

  /** Row of states (group, usage, stages) over the first layer l = 0..L−1. */
  private rowIndex(g: number, u: number, s: number): number {
    const { usages, stageDim, explicitStages } = this.states;
    return (g * usages + u) * stageDim + (explicitStages ? s - 1 : 0);
  }

  /**
   * The F row of (g, u, s): layers [l, L) on a suffix whose first stage runs on g, using exactly
   * the devices counted by u (and s stages when tracked), at least cost Σ t + d·Σ c + Σ a.
   * Built on first use; entries are valid for l in [suffixLo, suffixHi] (Infinity elsewhere).
   */
  private suffixRow(g: number, u: number, s: number): number {
    const r = this.rowIndex(g, u, s);
    if (this.suffixBuilt[r]) return r;
    this.suffixBuilt[r] = 1;
    this.suffixLo[r] = this.layerCount;
    this.suffixHi[r] = -1;
    const explicitStages = this.states.explicitStages;
    const m = this.microbatches;
    const stages = explicitStages ? s : (this.membersUsed[u] as number);
    const need = this.inference ? 1 : this.gpipe ? m : Math.min(stages, m);
    const uRest = u - (this.groupUsage[g] as number);
    if (uRest === 0) {
      // The last stage: layers [l, L).
      if (!explicitStages || s === 1) this.lastStageRow(r, g, u, need);
      return r;
    }
    if (explicitStages && s <= 1) return r;
    const nr = this.afterCutRow(g, uRest, s - 1);
    if ((this.afterCutLo[nr] as number) > (this.afterCutHi[nr] as number)) return r;
    if (this.tables.telescopes[g]) this.slidingRow(r, g, u, nr, need);
    else this.scanRow(r, g, u, nr, need);
    return r;
  }

  /** F row r of a last stage on g: layers [l, L) in one stage. */
  private lastStageRow(r: number, g: number, u: number, need: number): void {
    const o = this.suffix.offset(r);
    const { layerCount: L, timeCap, sync } = this;
    const { value: suffixCost, index: suffixFirstEnd } = this.suffix;
    const { rangesPerGroup, stageTime, stageFit } = this.tables;
    const gb = g * rangesPerGroup;
    let lo = L;
    let hi = -1;
    const lMax = this.lastL(u);
    for (let l = 0; l <= lMax; l++) {
      const k = gb + l * (L + 1) + L;
      const t = stageTime[k] as number;
      if (t <= timeCap && (stageFit[k] as number) >= need) {
        if (Number.isNaN(sync[k])) this.computeSync(g, l, L, k);
        suffixCost[o + l] = t + (sync[k] as number);
        suffixFirstEnd[o + l] = L;
        if (lo === L) lo = l;
        hi = l;
      } else {
        suffixCost[o + l] = Infinity;
      }
    }
    this.suffixLo[r] = lo;
    this.suffixHi[r] = hi;
  }

  /**
   * F row r on a one-device group g whose stage costs telescope: t(l, e) + a(l, e) = P[e] − P[l],
   * so F(l) = min over the window e ∈ (l, end(l)] of (P[e] + N(e)) − P[l]; end(l) only falls as
   * l falls (monotone deque over N row nr).
   */
  private slidingRow(r: number, g: number, u: number, nr: number, need: number): void {
    const o = this.suffix.offset(r);
    const { layerCount: L, dequeEnd, dequeValue, timeCap } = this;
    const { value: suffixCost, index: suffixFirstEnd } = this.suffix;
    const afterCutCost = this.afterCut.value;
    const { rangesPerGroup, stageTime, stageFit, prefixTime } = this.tables;
    const a = this.afterCutLo[nr] as number;
    const b = this.afterCutHi[nr] as number;
    const no = this.afterCut.at(nr);
    const gb = g * rangesPerGroup;
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
      const ne = afterCutCost[no + e] as number;
      if (ne < Infinity) {
        const v = (prefixTime[pb + e] as number) + ne;
        while (tail > head && (dequeValue[tail - 1] as number) >= v) tail--;
        dequeEnd[tail] = e;
        dequeValue[tail] = v;
        tail++;
      }
    }
    for (; l >= 0; l--) {
      const e = l + 1;
      const ne = afterCutCost[no + e] as number;
      if (e >= a && ne < Infinity) {
        const v = (prefixTime[pb + e] as number) + ne;
        while (tail > head && (dequeValue[tail - 1] as number) >= v) tail--;
        dequeEnd[tail] = e;
        dequeValue[tail] = v;
        tail++;
      }
      const base = gb + l * (L + 1);
      while (end > l && !((stageTime[base + end] as number) <= timeCap && (stageFit[base + end] as number) >= need))
        end--;
      while (tail > head && (dequeEnd[head] as number) > end) head++;
      if (tail > head) {
        suffixCost[o + l] = (dequeValue[head] as number) - (prefixTime[pb + l] as number);
        suffixFirstEnd[o + l] = dequeEnd[head] as number;
        if (hi < 0) hi = l;
        lo = l;
      } else {
        suffixCost[o + l] = Infinity;
        if (end < a) break; // Every earlier l ends before the first finite N too.
      }
    }
    this.suffixLo[r] = lo;
    this.suffixHi[r] = hi;
  }

  /**
   * The furthest end e < L of a stage from layer l (its ranges start at `base`) within the cap
   * and memory; l when none. Ranges from l only fit less as they grow, so a binary search.
   */
  private furthestEnd(base: number, l: number, need: number): number {
    const { layerCount: L, timeCap } = this;
    const { stageTime, stageFit } = this.tables;
    let end = l;
    let h = L - 1;
    while (end < h) {
      const mid = (end + h + 1) >> 1;
      if ((stageTime[base + mid] as number) <= timeCap && (stageFit[base + mid] as number) >= need) end = mid;
      else h = mid - 1;
    }
    return end;
  }

  /**
   * F row r on group g by trying every end e of the first stage against N row nr: O(L²). On an
   * even group a range's time and memory only grow with it (DpStageTables.fillEvenStages), so the
   * ends start at N's first finite layer and stop at the first over the cap or out of memory.
   */
  private scanRow(r: number, g: number, u: number, nr: number, need: number): void {
    const o = this.suffix.offset(r);
    const { layerCount: L, timeCap, sync } = this;
    const { value: suffixCost, index: suffixFirstEnd } = this.suffix;
    const afterCutCost = this.afterCut.value;
    const { rangesPerGroup, stageTime, stageFit } = this.tables;
    const a = this.afterCutLo[nr] as number;
    const b = this.afterCutHi[nr] as number;
    const no = this.afterCut.at(nr);
    const gb = g * rangesPerGroup;
    const even = this.tables.evenGroup[g] === 1;
    let lo = L;
    let hi = -1;
    const lEnd = Math.min(b - 1, this.lastL(u));
    for (let l = 0; l <= lEnd; l++) {
      const base = gb + l * (L + 1);
      let best = Infinity;
      let bestEnd = -1;
      for (let e = even ? Math.max(l + 1, a) : l + 1; e < L; e++) {
        const t = stageTime[base + e] as number;
        if (!(t <= timeCap) || e > b) break;
        if ((stageFit[base + e] as number) < need) {
          if (even) break;
          continue;
        }
        if (e < a) continue;
        if (Number.isNaN(sync[base + e])) this.computeSync(g, l, e, base + e);
        const v = t + (sync[base + e] as number) + (afterCutCost[no + e] as number);
        if (v < best) {
          best = v;
          bestEnd = e;
        }
      }
      suffixCost[o + l] = best;
      suffixFirstEnd[o + l] = bestEnd;
      if (best < Infinity) {
        if (lo === L) lo = l;
        hi = l;
      }
    }
    this.suffixLo[r] = lo;
    this.suffixHi[r] = hi;
  }

  /**
   * The N row of (prev, u, s): the cut before layer l after a stage on `prev`, then a suffix on u.
   * Built on first use; entries are valid for l in [afterCutLo, afterCutHi].
   */
  private afterCutRow(prev: number, u: number, s: number): number {
    const r = this.rowIndex(prev, u, s);
    if (this.afterCutBuilt[r]) return r;
    this.afterCutBuilt[r] = 1;
    const { layerCount: L, suffixLo, suffixHi, cutWeight, timeCap } = this;
    const { groupCount, cutTime } = this.tables;
    const hs = this.firstGroups[u] as Int32Array;
    const lMax = this.lastL(u);
    let a = L;
    let b = 0;
    for (const h of hs) {
      const fr = this.suffixRow(h, u, s);
      const fa = Math.max(1, suffixLo[fr] as number);
      const fb = Math.min(lMax, suffixHi[fr] as number);
      if (fa <= fb) {
        if (fa < a) a = fa;
        if (fb > b) b = fb;
      }
    }
    this.afterCutLo[r] = L;
    this.afterCutHi[r] = -1;
    if (a > b) return r;
    // The suffix rows are built: the arrays no longer grow in this call.
    const o = this.afterCut.offset(r);
    const { value: afterCutCost, index: afterCutGroup } = this.afterCut;
    const { suffix } = this;
    for (let l = a; l <= b; l++) afterCutCost[o + l] = Infinity;
    for (const h of hs) {
      const fr = this.suffixRow(h, u, s);
      const fo = suffix.at(fr);
      const fa = Math.max(1, suffixLo[fr] as number);
      const fb = Math.min(lMax, suffixHi[fr] as number);
      const lo = (prev * groupCount + h) * L;
      for (let l = fa; l <= fb; l++) {
        const c = cutTime[lo + l] as number;
        if (!(c <= timeCap)) continue;
        const v = cutWeight * c + (suffix.value[fo + l] as number);
        if (v < (afterCutCost[o + l] as number)) {
          afterCutCost[o + l] = v;
          afterCutGroup[o + l] = h;
        }
      }
    }
    while (a <= b && !((afterCutCost[o + a] as number) < Infinity)) a++;
    while (b >= a && !((afterCutCost[o + b] as number) < Infinity)) b--;
    this.afterCutLo[r] = a;
    this.afterCutHi[r] = b;
    return r;
  }
}
