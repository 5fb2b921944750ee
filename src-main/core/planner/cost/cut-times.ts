/**
 * Cut times: the activations of one microbatch sent from one stage's devices to the next stage's,
 * over the slowest link between them (a cost model's alpha-beta links, compared as distinct links
 * so that a cluster's many groups over the same few links share their rows). Pure.
 */
import type { CostModel } from './cost-model.js';
import { messageUs } from './collectives.js';
import type { PlanProblem } from '../types.js';

interface AlphaBeta {
  alphaUs: number;
  gbps: number;
}

/** Distinct links, and a key naming the set. */
interface LinkSet {
  key: string;
  links: AlphaBeta[];
}

function slowestMessageUs(links: readonly AlphaBeta[], bytes: number): number {
  let slowest = 0;
  for (const l of links) slowest = Math.max(slowest, messageUs(l, bytes));
  return slowest;
}

/** Cut times of a problem's devices, cached per device lists and per microbatch size. */
export class CutTimes {
  private readonly cutLinkCache = new WeakMap<readonly number[], WeakMap<readonly number[], LinkSet | null>>();
  private readonly cutRows = new Map<string, Float64Array>();
  private cutRowSamples = NaN;

  constructor(
    private readonly problem: PlanProblem,
    private readonly cost: CostModel,
    private readonly deviceIds: readonly string[],
    /** Calls the cost model: Infinity (and the message kept) when it throws. */
    private readonly guard: (f: () => number) => number,
  ) {}

  /** Activations of one microbatch after layer `lastLayer`, over the slowest link between the stages (µs). */
  cutUs(fromDevices: readonly number[], toDevices: readonly number[], lastLayer: number, samples: number): number {
    const bytes = (this.problem.layers[lastLayer]?.outBytesPerSample ?? 0) * samples;
    const distinct = this.cost.link ? this.cutLinks(fromDevices, toDevices) : undefined;
    if (distinct !== undefined) return distinct === null ? Infinity : slowestMessageUs(distinct.links, bytes);
    let worst = 0;
    for (const a of fromDevices) {
      for (const b of toDevices) {
        const us = this.guard(() => this.cost.linkUs(this.deviceIds[a] as string, this.deviceIds[b] as string, bytes));
        if (!(us <= worst)) worst = us;
      }
    }
    return worst;
  }

  /**
   * Every cut's time between two device lists, for `samples` a microbatch; the same array for
   * lists over the same links (a cluster's many groups share a few), valid until the next call
   * with other samples.
   */
  cutRow(fromDevices: readonly number[], toDevices: readonly number[], samples: number): Float64Array {
    const L = this.problem.layers.length;
    const distinct = this.cost.link ? this.cutLinks(fromDevices, toDevices) : undefined;
    const key = distinct === undefined ? null : distinct === null ? 'none' : distinct.key;
    if (key !== null) {
      if (this.cutRowSamples !== samples) {
        this.cutRows.clear();
        this.cutRowSamples = samples;
      }
      const hit = this.cutRows.get(key);
      if (hit) return hit;
    }
    const row = new Float64Array(L).fill(Infinity);
    for (let cut = 1; cut < L; cut++) row[cut] = this.cutUs(fromDevices, toDevices, cut - 1, samples);
    if (key !== null) this.cutRows.set(key, row);
    return row;
  }

  /**
   * The distinct links between two device lists (by list identity, cached); null when a pair has
   * none. Devices are taken machine by machine: a node-level link (PlanLink.nodes) between two
   * machines stands for all their pairs, so two stages of thousands of GPUs compare a link per
   * node pair, not per device pair.
   */
  private cutLinks(from: readonly number[], to: readonly number[]): LinkSet | null {
    let byTo = this.cutLinkCache.get(from);
    if (!byTo) {
      byTo = new WeakMap();
      this.cutLinkCache.set(from, byTo);
    }
    const cached = byTo.get(to);
    if (cached !== undefined) return cached;
    const ids = (list: readonly number[]): string[] => list.map((d) => this.deviceIds[d] as string);
    const across = this.cost.nodeLinkAcross?.(ids(from), ids(to));
    const one = across && { alphaUs: across.alphaUs, gbps: across.gbps };
    const out = one
      ? { key: `${one.alphaUs}/${one.gbps}`, links: [one] }
      : this.distinctLinks(this.byMachine(from), this.byMachine(to));
    byTo.set(to, out);
    return out;
  }

  private distinctLinks(from: readonly number[][], to: readonly number[][]): LinkSet | null {
    const seen = new Map<string, AlphaBeta>();
    const link = (a: number, b: number): boolean => {
      const l = this.cost.link?.(this.deviceIds[a] as string, this.deviceIds[b] as string);
      if (!l) return false;
      seen.set(`${l.alphaUs}/${l.gbps}`, { alphaUs: l.alphaUs, gbps: l.gbps });
      return true;
    };
    for (const xs of from) {
      for (const ys of to) {
        const [x, y] = [xs[0] as number, ys[0] as number];
        if (this.machineOf(x) !== this.machineOf(y)) {
          const l = this.cost.link?.(this.deviceIds[x] as string, this.deviceIds[y] as string);
          if (!l) return null;
          if ('nodes' in l && l.nodes) {
            seen.set(`${l.alphaUs}/${l.gbps}`, { alphaUs: l.alphaUs, gbps: l.gbps });
            continue;
          }
        }
        for (const a of xs) for (const b of ys) if (a !== b && !link(a, b)) return null;
      }
    }
    const keys = [...seen.keys()].sort();
    return { key: keys.join(','), links: keys.map((k) => seen.get(k) as AlphaBeta) };
  }

  private machineOf(d: number): string {
    return this.problem.devices[d]?.machine ?? '';
  }

  /** A device list by machine, in first-seen order. */
  private byMachine(devices: readonly number[]): number[][] {
    const groups = new Map<string, number[]>();
    for (const d of devices) {
      const g = groups.get(this.machineOf(d));
      if (g) g.push(d);
      else groups.set(this.machineOf(d), [d]);
    }
    return [...groups.values()];
  }
}
