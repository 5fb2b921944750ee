/**
 * The tables the suffix DP (suffix-dp.ts) reads for one microbatch count: each group's stage time
 * and memory fit over every layer range, the cut times between groups, and the prefix sums of
 * one-device groups whose stage costs telescope. Rebuilt in place for each count. Pure.
 *
 * Layout, for L layers and n groups: stageTime and stageFit per (group g, range [from, to)) at
 * g·L(L+1) + from·(L+1) + to; cutTime per (group a, group b following a, cut before layer l) at
 * (a·n + b)·L + l; prefixTime per (group g, end layer e) at g·(L+1) + e.
 */
import type { DpStateSpace, StageGroup } from './dp-state-space.js';
import type { PlannerContext } from '../problem/problem.js';
import type { ScratchLease } from './scratch.js';
import type { EvenStageTimer } from '../cost/even-stage-timer.js';

/** Groups of one shape a group's stage tables are compared with before they are computed (DpStageTables.twinOf). */
const MAX_TWINS_TRIED = 4;

/** Whether layers [from, to) fit in memory with `inFlight` microbatches in flight, each device taking its share of the samples. */
type StageFits = (from: number, to: number, inFlight: number, shares: readonly number[]) => boolean;

/** The memory test of the devices of group g, each serving its share of every one of the m microbatches. */
function stageFits(ctx: PlannerContext, g: StageGroup, m: number): StageFits {
  const { problem, tables } = ctx;
  const memory = g.devs.map((d) => problem.devices[d]?.memoryBytes ?? -Infinity);
  // One load, rewritten per test: the fill tests every range at every count in flight.
  const load = { from: 0, to: 0, tp: g.tp, replicas: g.size / g.tp, samples: 0, inFlight: 0, microbatches: m };
  return (from, to, inFlight, shares) => {
    load.from = from;
    load.to = to;
    load.inFlight = inFlight;
    // A cluster's group has dozens of devices with the same share: each share's need once.
    let lastShare = NaN;
    let lastNeed = 0;
    for (let j = 0; j < memory.length; j++) {
      const share = shares[j] ?? 0;
      if (share !== lastShare) {
        lastShare = share;
        load.samples = share;
        lastNeed = tables.deviceNeedBytes(load);
      }
      if (!(lastNeed <= (memory[j] as number))) return false;
    }
    return true;
  };
}

/** What an even group's stage times and fits come from: its timer, its memory test and its devices' shares of a microbatch. */
interface EvenRanges {
  timer: EvenStageTimer;
  fits: StageFits;
  shares: readonly number[];
}

function evenRanges(ctx: PlannerContext, g: StageGroup, m: number, samples: number): EvenRanges {
  const { tables } = ctx;
  return {
    timer: tables.evenStageTimer(g.devs, samples, g.tp),
    fits: stageFits(ctx, g, m),
    shares: tables.stageSplit(g.devs, 0, 1, samples, g.tp).shares,
  };
}

/** Per-layer floors of a plan's times (DpStageTables.layerFloors). */
interface LayerFloors {
  sum: number;
  most: number;
  cap: number;
}

/** The ranges of a count whose tables are not built (DpStageTables.probe): each even group's computed on first use. */
interface RangeProbe {
  m: number;
  samples: number;
  maxInFlight: number;
  ranges: (EvenRanges | null)[];
}

/** Stage, cut and prefix times of every group for one microbatch count (fill), read by the DP. */
export class DpStageTables {
  readonly layerCount: number;
  /** Ranges [from, to) per group in stageTime and stageFit: L·(L + 1). */
  readonly rangesPerGroup: number;
  readonly groupCount: number;
  /** Per group: 1 when its devices take the same time for every layer (memory and time grow with the range). */
  readonly evenGroup: Uint8Array;
  /** Per-microbatch time of a range on a group, µs (Infinity: some layer cannot run there). */
  stageTime: Float64Array = new Float64Array(0);
  /** Largest number of microbatches in flight the range fits in memory with (0: never). */
  stageFit: Int32Array = new Int32Array(0);
  /** Time of a cut from one group's stage to the next group's, µs (Infinity: they cannot follow each other). */
  cutTime: Float64Array = new Float64Array(0);
  /** Per group whose stage costs telescope: its time and gradient sync over layers [0, e). */
  prefixTime: Float64Array = new Float64Array(0);
  /** Per group: 1 when it is one replica that runs every layer, so t(l, e) + a(l, e) = prefixTime[e] − prefixTime[l]. */
  readonly telescopes: Uint8Array;
  /** Per group: the earlier group whose stage times and fits it took in the last fill (−1: its own). */
  readonly copyOf: Int32Array;
  /** Scratch of fillEvenStages: per count f in flight and first layer, the furthest end that fits. */
  private reach: Int32Array;
  private capBuffer = new Float64Array(0);
  /** The least a plan's largest time can be at the last fill's samples (layerFloors' cap, less 1e-9 of it); 0 when unknown. */
  private leastLargest = 0;
  /** layerFloors of the last samples asked (a count asks before and after its fill). */
  private floors: { samples: number; value: LayerFloors | null } | null = null;
  /** Set by probe, cleared by fill: rangeWithin computes what the tables would hold. */
  private probing: RangeProbe | null = null;

  constructor(
    private readonly ctx: PlannerContext,
    private readonly states: DpStateSpace,
    private readonly lease: ScratchLease,
  ) {
    const { problem, tables } = ctx;
    const L = problem.layers.length;
    const n = states.groups.length;
    this.layerCount = L;
    this.rangesPerGroup = L * (L + 1);
    this.groupCount = n;
    // One tensor-parallel replica is even too: its samples never move, and its time adds up over layers.
    this.evenGroup = Uint8Array.from(states.groups, (g) =>
      g.size === g.tp || g.devs.every((d) => tables.sameTimes(d, g.devs[0] as number)) ? 1 : 0,
    );
    this.telescopes = new Uint8Array(n);
    this.copyOf = new Int32Array(n).fill(-1);
    this.reach = new Int32Array(0);
  }

  /** The tables, allocated on the first fill (a search may skip every count before it). */
  private allocate(): void {
    const L = this.layerCount;
    const n = this.groupCount;
    // Arrays of the last search (stale values): fill writes all that is read.
    const { lease } = this;
    this.stageTime = lease.take('stageTime', 'f64', n * this.rangesPerGroup);
    this.stageFit = lease.take('stageFit', 'i32', n * this.rangesPerGroup);
    this.cutTime = lease.take('cutTime', 'f64', n * n * L);
    this.prefixTime = lease.take('prefixTime', 'f64', n * (L + 1));
    this.capBuffer = lease.take('capBuffer', 'f64', n * this.rangesPerGroup + n * n * L);
  }

  /** Rebuilds every table for m microbatches of `samples` samples, at most `maxInFlight` in flight. */
  fill(m: number, samples: number, maxInFlight: number): void {
    this.probing = null;
    const L = this.layerCount;
    if (this.stageTime.length === 0) this.allocate();
    this.stageTime.fill(Infinity);
    this.stageFit.fill(0);
    if (this.reach.length < (maxInFlight + 1) * L) this.reach = new Int32Array((maxInFlight + 1) * L);
    const twins = new Map<string, number[]>();
    this.states.groups.forEach((g, gid) => {
      const twin = this.evenGroup[gid] ? this.twinOf(g, gid, samples, twins) : -1;
      this.copyOf[gid] = twin;
      if (twin >= 0) {
        const from = twin * this.rangesPerGroup;
        this.stageTime.copyWithin(gid * this.rangesPerGroup, from, from + this.rangesPerGroup);
        this.stageFit.copyWithin(gid * this.rangesPerGroup, from, from + this.rangesPerGroup);
        return;
      }
      if (this.evenGroup[gid]) this.fillEvenStages(gid, evenRanges(this.ctx, g, m, samples), maxInFlight);
      else this.fillUnevenStages(g, gid, stageFits(this.ctx, g, m), samples, maxInFlight);
    });
    this.fillCuts(samples);
    this.leastLargest = (this.layerFloors(samples)?.cap ?? 0) * (1 - 1e-9);
    this.fillPrefixes(samples);
  }

  /**
   * An even group filled before whose stage times and fits are g's (−1: none): as many devices at
   * the same degree, each with the memory and layer times of g's device in its place, and the same
   * tensor-parallel all-reduces (StageTables.sameEvenStages). Like devices of a class make many
   * such groups (members 1..k ending at each member). `twins` lists the groups filled so far by
   * shape; a few are tried each.
   */
  private twinOf(g: StageGroup, gid: number, samples: number, twins: Map<string, number[]>): number {
    const { problem, tables } = this.ctx;
    const key = `${g.tp}/${g.devs.map((d) => problem.devices[d]?.memoryBytes).join(',')}`;
    const seen = twins.get(key) ?? [];
    twins.set(key, seen);
    for (const h of seen.slice(0, MAX_TWINS_TRIED)) {
      if (tables.sameEvenStages((this.states.groups[h] as StageGroup).devs, g.devs, g.tp, samples)) return h;
    }
    seen.push(gid);
    return -1;
  }

  /** Stage times and fits of group gid when its devices differ: the split (so the memory) changes with the range. */
  private fillUnevenStages(g: StageGroup, gid: number, fits: StageFits, samples: number, maxInFlight: number): void {
    const { layerCount: L, rangesPerGroup, stageTime, stageFit } = this;
    const tables = this.ctx.tables;
    // Every range is checked.
    for (let from = 0; from < L; from++) {
      for (let to = from + 1; to <= L; to++) {
        const k = gid * rangesPerGroup + from * (L + 1) + to;
        const split = tables.stageSplit(g.devs, from, to, samples, g.tp);
        if (!Number.isFinite(split.timeUs)) break;
        let lo = 0;
        let hi = maxInFlight;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (fits(from, to, mid, split.shares)) lo = mid;
          else hi = mid - 1;
        }
        stageFit[k] = lo;
        stageTime[k] = split.timeUs;
      }
    }
  }

  /**
   * Stage times and fits of group gid when its devices are alike. They split evenly whatever the
   * layers, so a range fits only if every range inside it does, with at least as many microbatches
   * in flight: for each count f in flight, the furthest end that fits from `from` never falls as
   * `from` grows (two pointers).
   */
  private fillEvenStages(gid: number, { timer, fits, shares }: EvenRanges, maxInFlight: number): void {
    const { layerCount: L, rangesPerGroup, stageTime, stageFit, reach } = this;
    for (let f = 1; f <= maxInFlight; f++) {
      const ro = f * L;
      let t = 0;
      for (let from = 0; from < L; from++) {
        if (t < from) t = from;
        const limit = f === 1 ? L : (reach[ro - L + from] as number);
        if (t > limit) t = limit;
        while (t < limit && Number.isFinite(timer.time(from, t + 1)) && fits(from, t + 1, f, shares)) t++;
        reach[ro + from] = t;
      }
    }
    for (let from = 0; from < L; from++) {
      const end = maxInFlight >= 1 ? (reach[L + from] as number) : from;
      let f = maxInFlight;
      const base = gid * rangesPerGroup + from * (L + 1);
      for (let to = from + 1; to <= end; to++) {
        while (f > 1 && (reach[f * L + from] as number) < to) f--;
        stageFit[base + to] = f;
        stageTime[base + to] = timer.time(from, to);
      }
    }
  }

  /**
   * Answers rangeWithin for m microbatches of `samples` samples without the tables: each even
   * group's range computed as asked, from what fillEvenStages computes it from (so the same time
   * and fit), until the next fill. A count whose relaxation (SuffixDp.mayFit) fails is refused
   * without its tables.
   */
  probe(m: number, samples: number, maxInFlight: number): void {
    this.probing = { m, samples, maxInFlight, ranges: new Array<EvenRanges | null>(this.groupCount).fill(null) };
  }

  /**
   * Whether the stage of even group g over [from, to) takes at most tmax and fits `need`
   * microbatches in flight: the tables' entries, or while probing the same computed. A range of
   * an even group fits f in flight when it fits with every f' ≤ f and every range inside it does
   * (fillEvenStages), so one test of f = need decides.
   */
  rangeWithin(g: number, from: number, to: number, tmax: number, need: number): boolean {
    const p = this.probing;
    if (p === null) {
      const k = g * this.rangesPerGroup + from * (this.layerCount + 1) + to;
      return (this.stageTime[k] as number) <= tmax && (this.stageFit[k] as number) >= need;
    }
    if (need > p.maxInFlight) return false;
    const r = (p.ranges[g] ??= evenRanges(this.ctx, this.states.groups[g] as StageGroup, p.m, p.samples));
    return r.timer.time(from, to) <= tmax && r.fits(from, to, need, r.shares);
  }

  /** Cut times between each pair of groups that can follow each other, at each cut. */
  private fillCuts(samples: number): void {
    const { layerCount: L, groupCount, cutTime } = this;
    const groups = this.states.groups;
    const tables = this.ctx.tables;
    cutTime.fill(Infinity);
    groups.forEach((a, ga) => {
      groups.forEach((b, gb) => {
        // b follows a: another class, or the devices of a's class just below a's.
        if (a.cls === b.cls && b.end !== a.end - a.members) return;
        const row = tables.cutRow(a.devs, b.devs, samples);
        cutTime.set(row.subarray(1), (ga * groupCount + gb) * L + 1);
      });
    });
  }

  /**
   * Prefix times of groups of one replica (one device, or one tensor-parallel group) that run every
   * layer (the sliding-window path). Their stage time adds up over layers (evenStageTimer), and
   * their gradient sync (optimizer offload, else 0: nothing to all-reduce) is proportional to the
   * stage's parameters, so t + a telescopes.
   */
  private fillPrefixes(samples: number): void {
    const { layerCount: L, telescopes, prefixTime, evenGroup } = this;
    const tables = this.ctx.tables;
    telescopes.fill(0);
    this.states.groups.forEach((g, gid) => {
      if (g.size !== g.tp || !evenGroup[gid]) return;
      if (!g.devs.every((d) => Number.isFinite(tables.perSampleUs(d, 0, L)))) return;
      const timer = tables.evenStageTimer(g.devs, samples, g.tp);
      const base = gid * (L + 1);
      for (let e = 0; e <= L; e++) {
        const p = (e === 0 ? 0 : timer.time(0, e)) + tables.gradientSyncUs(g.devs, 0, e, g.tp, samples);
        if (!Number.isFinite(p)) return;
        prefixTime[base + e] = p;
      }
      telescopes[gid] = 1;
    });
  }

  /**
   * A lower bound of Σ t + d·Σ c + Σ a over every plan that fits (G(∞) or less): each layer's least
   * time on a group it fits on, summed (stage times of alike devices add up over layers; cuts and
   * syncs are ≥ 0), less 1e-9 of it for rounding. 0 when some group's devices differ; Infinity
   * when some layer fits on no group.
   */
  sumFloor(): number {
    const { layerCount: L, rangesPerGroup, groupCount, stageTime, stageFit, evenGroup } = this;
    if (!evenGroup.every((e) => e === 1)) return 0;
    let sum = 0;
    for (let l = 0; l < L; l++) {
      let least = Infinity;
      for (let g = 0; g < groupCount; g++) {
        const k = g * rangesPerGroup + l * (L + 1) + l + 1;
        if ((stageFit[k] as number) >= 1 && (stageTime[k] as number) < least) least = stageTime[k] as number;
      }
      sum += least;
    }
    return sum * (1 - 1e-9);
  }

  /**
   * A lower bound of sumFloor at `samples` a microbatch, before fill: each layer's least time over
   * every group, memory ignored (a least over more groups), less 1e-9 of it; 0 when some group's
   * devices differ, as sumFloor.
   */
  sumFloorBefore(samples: number): number {
    return (this.layerFloors(samples)?.sum ?? 0) * (1 - 1e-9);
  }

  /**
   * A lower bound of the step of every plan with m microbatches of `samples` samples, before fill:
   * with T_l a layer's least time over the groups (memory ignored), Σ t ≥ Σ T_l; the largest stage
   * time is ≥ max T_l, ≥ Σ T_l / stages (at most `maxStages`) and ≥ capFloor; cuts and syncs are
   * ≥ 0. Stage times of alike devices add up over layers, so 0 when some group's devices differ.
   * Less 1e-9 of it for rounding, as sumFloor.
   */
  stepFloor(m: number, samples: number, maxStages: number): number {
    const floors = this.layerFloors(samples);
    if (!floors) return 0;
    const { sum, most, cap } = floors;
    return (sum + (m - 1) * Math.max(most, sum / Math.max(1, maxStages), cap)) * (1 - 1e-9);
  }

  /**
   * Per layer l, over the groups g: T_l = the least t_g(l), and A_l = the least |g|·t_g(l) (the
   * device time it takes at least). Σ T_l, max T_l, and cap = Σ A_l / D for the D devices of the
   * problem: a stage on group g over range R has |g|·t_i = Σ over R of |g|·t_g(l) ≥ Σ over R of A_l,
   * and a plan uses each device at most once, so max t_i · D ≥ Σ |g_i|·t_i ≥ Σ A_l. Null when some
   * group's devices differ (their times do not add up over layers).
   */
  private layerFloors(samples: number): LayerFloors | null {
    if (this.floors?.samples !== samples) this.floors = { samples, value: this.computeLayerFloors(samples) };
    return this.floors.value;
  }

  private computeLayerFloors(samples: number): LayerFloors | null {
    const { layerCount: L, evenGroup } = this;
    if (!evenGroup.every((e) => e === 1)) return null;
    const least = new Float64Array(L).fill(Infinity);
    const area = new Float64Array(L).fill(Infinity);
    for (const g of this.states.groups) {
      const timer = this.ctx.tables.evenStageTimer(g.devs, samples, g.tp);
      for (let l = 0; l < L; l++) {
        const t = timer.time(l, l + 1);
        if (t < (least[l] as number)) least[l] = t;
        if (g.size * t < (area[l] as number)) area[l] = g.size * t;
      }
    }
    let sum = 0;
    let most = 0;
    let work = 0;
    for (let l = 0; l < L; l++) {
      sum += least[l] as number;
      most = Math.max(most, least[l] as number);
      work += area[l] as number;
    }
    return { sum, most, cap: work / Math.max(1, this.ctx.problem.devices.length) };
  }

  /**
   * The stage and cut times c (the values a plan's largest time can take) with
   * floor + weight·c < limit and c at least the least a plan's largest time can be (layerFloors),
   * unsorted, possibly repeated, in a scratch buffer (valid until the next call or fill).
   */
  capValues(floor: number, weight: number, limit: number): Float64Array {
    const { stageTime, stageFit, cutTime, capBuffer: buf, rangesPerGroup, copyOf, leastLargest } = this;
    let n = 0;
    for (let g = 0; g < this.groupCount; g++) {
      // A copy's times are its twin's, listed already.
      if ((copyOf[g] as number) >= 0) continue;
      const end = (g + 1) * rangesPerGroup;
      for (let k = g * rangesPerGroup; k < end; k++) {
        const t = stageTime[k] as number;
        if ((stageFit[k] as number) >= 1 && t >= leastLargest && floor + weight * t < limit) buf[n++] = t;
      }
    }
    for (let k = 0; k < cutTime.length; k++) {
      const c = cutTime[k] as number;
      if (Number.isFinite(c) && c >= leastLargest && floor + weight * c < limit) buf[n++] = c;
    }
    return buf.subarray(0, n);
  }
}
