/**
 * What the planner asks about communication: a small alpha-beta default over the problem's
 * links, and createCostModel() over the same links with NCCL's all-reduce algorithms (ring, tree,
 * NVLS inside a node; hierarchical or a ring per rail across nodes: all-reduce.ts), its
 * all-gathers and reduce-scatters over the same routes (gather-scatter.ts), and measured
 * nccl-tests fits. Pure.
 */
import { allReduceOverUs, allReduceRoute, type AllReduceRoute } from './all-reduce.js';
import { gatherScatterOverUs, type ShardCollective } from './gather-scatter.js';
import { linkBetween, messageUs, nodeLinkAcross } from './collectives.js';
import type { AlphaBetaFit } from './nccl-tests.js';
import type { PlanLink, PlanProblem } from '../types.js';

/** Communication costs the planner needs (µs). */
export interface CostModel {
  /** One transfer of `bytes` from a to b (0 on the same device). May throw or return Infinity when there is no route. */
  linkUs(a: string, b: string, bytes: number): number;
  /** All-reduce of `bytes` over the devices, µs (0 for fewer than two devices). */
  allReduceUs(devices: readonly string[], bytes: number): number;
  /**
   * All-gather (or reduce-scatter) of `bytes`, the whole buffer (each device holds bytes / n of
   * it), µs; absent: half an all-reduce of the same bytes (an all-reduce is a reduce-scatter then
   * an all-gather: shardCollectiveUs).
   */
  allGatherUs?(devices: readonly string[], bytes: number): number;
  reduceScatterUs?(devices: readonly string[], bytes: number): number;
  /**
   * The alpha-beta link linkUs prices (null: no route), when linkUs is alpha + bytes / beta for
   * every message; lets the searches price a cut between large groups over its few distinct links.
   */
  link?(a: string, b: string): Pick<PlanLink, 'alphaUs' | 'gbps' | 'nodes'> | null;
  /** The one node-level link `link` gives for every pair of a and b, when there is one (collectives.ts nodeLinkAcross). */
  nodeLinkAcross?(a: readonly string[], b: readonly string[]): Pick<PlanLink, 'alphaUs' | 'gbps'> | null;
  /**
   * A key shared by device lists whose all-reduces take the same time at every size (the same
   * route: a cluster's shard rings over like nodes), null when none can be given; lets the cost
   * tables price one ring of each key.
   */
  allReduceKey?(devices: readonly string[]): string | null;
}

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** alpha + bytes / beta, beta in GB/s (1e3 bytes per µs); 0 for an empty message. */
function alphaBetaUs(link: Pick<PlanLink, 'alphaUs' | 'gbps'>, bytes: number): number {
  return bytes <= 0 ? 0 : link.alphaUs + bytes / (link.gbps * 1e3);
}

/**
 * Links by device pair (either direction; the fastest when several are given), else by machine
 * pair for devices on different machines; no link is Infinity. All-reduce is the ring over the
 * slowest link among the devices (largest alpha, smallest bandwidth over all pairs):
 * 2(n−1)/n · S/β + 2(n−1)·α.
 */
export function alphaBetaCostModel(problem: Pick<PlanProblem, 'devices' | 'links'>): CostModel {
  const machineOf = new Map(problem.devices.map((d) => [d.id, d.machine]));
  const links = new Map<string, PlanLink>();
  for (const l of problem.links) {
    if (l.nodes) continue;
    const k = pairKey(l.a, l.b);
    const old = links.get(k);
    if (!old || l.gbps > old.gbps) links.set(k, l);
  }
  const find = (a: string, b: string): PlanLink | undefined => {
    const direct = links.get(pairKey(a, b));
    if (direct) return direct;
    const ma = machineOf.get(a);
    const mb = machineOf.get(b);
    const machines = ma !== undefined && mb !== undefined && ma !== mb ? links.get(pairKey(ma, mb)) : undefined;
    return machines ?? linkBetween(problem.links, a, b);
  };
  return {
    linkUs(a, b, bytes) {
      if (a === b) return 0;
      const l = find(a, b);
      return l ? alphaBetaUs(l, bytes) : Infinity;
    },
    link: (a, b) => find(a, b) ?? null,
    allReduceUs(devices, bytes) {
      const n = devices.length;
      if (n < 2 || bytes <= 0) return 0;
      let alphaUs = 0;
      let gbps = Infinity;
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          const l = find(devices[i] as string, devices[j] as string);
          if (!l) return Infinity;
          alphaUs = Math.max(alphaUs, l.alphaUs);
          gbps = Math.min(gbps, l.gbps);
        }
      }
      return ((2 * (n - 1)) / n) * (bytes / (gbps * 1e3)) + 2 * (n - 1) * alphaUs;
    },
  };
}

/** An all-gather or reduce-scatter from the cost model, or half its all-reduce where it prices none. */
export function shardCollectiveUs(
  cost: CostModel,
  op: ShardCollective,
  devices: readonly string[],
  bytes: number,
): number {
  const own = op === 'all_gather' ? cost.allGatherUs : cost.reduceScatterUs;
  return own ? own.call(cost, devices, bytes) : cost.allReduceUs(devices, bytes) / 2;
}

/** A measured collective (nccl-tests fit) that replaces the model for exactly these devices. */
export interface MeasuredCollective {
  op: 'all_reduce' | ShardCollective;
  devices: readonly string[];
  fit: Pick<AlphaBetaFit, 'alphaUs' | 'gbps'>;
}

const setKey = (devices: readonly string[]): string => [...new Set(devices)].sort().join('\u0000');

/**
 * A CostModel over the links (cost-model.ts's interface); measured fits win for their op and
 * device sets (a measured all-reduce, halved, for an all-gather or reduce-scatter not measured
 * over the same devices). A missing link costs Infinity rather than throwing, so a search can skip it.
 */
export function createCostModel(links: readonly PlanLink[], measured: readonly MeasuredCollective[] = []): CostModel {
  const fits = new Map<string, MeasuredCollective['fit']>();
  const measuredSets = new Set<string>();
  for (const m of measured) {
    fits.set(`${m.op}\u0001${setKey(m.devices)}`, m.fit);
    measuredSets.add(setKey(m.devices));
  }
  const fitOf = (op: MeasuredCollective['op'], devices: readonly string[]): MeasuredCollective['fit'] | undefined =>
    fits.size > 0 ? fits.get(`${op}\u0001${setKey(devices)}`) : undefined;
  // Each device list's route, by its identity (the cost tables keep theirs), and by its devices
  // in order (a search's variants each build their own lists of the same devices).
  const routes = new WeakMap<readonly string[], AllReduceRoute | null>();
  const routesByDevices = new Map<string, AllReduceRoute | null>();
  const routeOf = (devices: readonly string[]): AllReduceRoute | null => {
    let route = routes.get(devices);
    if (route === undefined) {
      const key = devices.join('\n');
      route = routesByDevices.get(key);
      if (route === undefined) {
        route = allReduceRoute(devices, links);
        routesByDevices.set(key, route);
      }
      routes.set(devices, route);
    }
    return route;
  };
  const shardUs = (op: ShardCollective, devices: readonly string[], bytes: number): number => {
    if (devices.length < 2 || bytes <= 0) return 0;
    const own = fitOf(op, devices);
    if (own) return messageUs(own, bytes);
    const allReduce = fitOf('all_reduce', devices);
    if (allReduce) return messageUs(allReduce, bytes) / 2;
    const route = routeOf(devices);
    return route ? gatherScatterOverUs(route, bytes) : Infinity;
  };
  return {
    linkUs(a, b, bytes) {
      if (a === b || bytes <= 0) return 0;
      const l = linkBetween(links, a, b);
      return l ? messageUs(l, bytes) : Infinity;
    },
    link: (a, b) => linkBetween(links, a, b) ?? null,
    nodeLinkAcross: (a, b) => nodeLinkAcross(links, a, b),
    allReduceUs(devices, bytes) {
      const n = devices.length;
      if (n < 2 || bytes <= 0) return 0;
      const fit = fitOf('all_reduce', devices);
      if (fit) return messageUs(fit, bytes);
      const route = routeOf(devices);
      return route ? allReduceOverUs(route, bytes) : Infinity;
    },
    allGatherUs: (devices, bytes) => shardUs('all_gather', devices, bytes),
    reduceScatterUs: (devices, bytes) => shardUs('reduce_scatter', devices, bytes),
    // allReduceOverUs and gatherScatterOverUs read nothing but the route: equal routes, equal times
    // (a measured fit is its own).
    allReduceKey: (devices) =>
      devices.length < 2 || (fits.size > 0 && measuredSets.has(setKey(devices)))
        ? null
        : JSON.stringify(routeOf(devices), (_, v: unknown) => (typeof v === 'number' ? String(v) : v)),
  };
}
