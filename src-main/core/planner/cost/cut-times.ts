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

const linkMatrices = new WeakMap<CostModel, Map<string, { ids: Int32Array; links: AlphaBeta[] }>>();

function slowestMessageUs(links: readonly AlphaBeta[], bytes: number): number {
  let slowest = 0;
  for (const l of links) slowest = Math.max(slowest, messageUs(l, bytes));
  return slowest;
}

/** Cut times of a problem's devices, cached per device lists and per microbatch size. */
export class CutTimes {
  private linkIds: { ids: Int32Array; links: AlphaBeta[] } | null = null;
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

  /** The distinct links between two device lists (by list identity, cached); null when a pair has none. */
  private cutLinks(from: readonly number[], to: readonly number[]): LinkSet | null {
    let byTo = this.cutLinkCache.get(from);
    if (!byTo) {
      byTo = new WeakMap();
      this.cutLinkCache.set(from, byTo);
    }
    const cached = byTo.get(to);
    if (cached !== undefined) return cached;
    const { ids, links } = this.linkMatrix();
    const D = this.deviceIds.length;
    const seen = new Set<number>();
    let out: LinkSet | null = null;
    search: {
      for (const a of from) {
        for (const b of to) {
          if (a === b) continue;
          const id = ids[a * D + b] as number;
          if (id < 0) break search;
          seen.add(id);
        }
      }
      const sorted = [...seen].sort((x, y) => x - y);
      out = { key: sorted.join(','), links: sorted.map((i) => links[i] as AlphaBeta) };
    }
    byTo.set(to, out);
    return out;
  }

  /** Every device pair's link as an index into the distinct links (−1: none), built on first use. */
  private linkMatrix(): { ids: Int32Array; links: AlphaBeta[] } {
    if (this.linkIds) return this.linkIds;
    // Tables of one cost model over the same devices (a search's variants) share the matrix.
    const key = this.deviceIds.join('\n');
    let byDevices = linkMatrices.get(this.cost);
    if (!byDevices) {
      byDevices = new Map();
      linkMatrices.set(this.cost, byDevices);
    }
    const shared = byDevices.get(key);
    if (shared) {
      this.linkIds = shared;
      return shared;
    }
    this.linkIds = this.buildLinkMatrix();
    byDevices.set(key, this.linkIds);
    return this.linkIds;
  }

  private buildLinkMatrix(): { ids: Int32Array; links: AlphaBeta[] } {
    const D = this.deviceIds.length;
    const ids = new Int32Array(D * D).fill(-1);
    const links: AlphaBeta[] = [];
    const byValue = new Map<string, number>();
    const set = (a: number, b: number, l: AlphaBeta): void => {
      const key = `${l.alphaUs}/${l.gbps}`;
      let id = byValue.get(key);
      if (id === undefined) {
        id = links.length;
        links.push({ alphaUs: l.alphaUs, gbps: l.gbps });
        byValue.set(key, id);
      }
      ids[a * D + b] = id;
      ids[b * D + a] = id;
    };
    const listed = this.cost.listedLinks;
    if (listed) {
      // The cost model's link is the first listed link of a pair: one pass over the list.
      const index = new Map(this.deviceIds.map((id, i) => [id, i]));
      for (const l of listed) {
        const a = index.get(l.a);
        const b = index.get(l.b);
        if (a !== undefined && b !== undefined && a !== b && ids[a * D + b] === -1) set(a, b, l);
      }
      return { ids, links };
    }
    for (let a = 0; a < D; a++) {
      for (let b = a + 1; b < D; b++) {
        const l = this.cost.link?.(this.deviceIds[a] as string, this.deviceIds[b] as string);
        if (l) set(a, b, l);
      }
    }
    return { ids, links };
  }
}
