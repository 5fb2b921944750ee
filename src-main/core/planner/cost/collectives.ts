/**
 * Alpha-beta costs of point-to-point transfers and collectives over plan links. Pure.
 *
 * A link moves S bytes in alpha + S/beta (beta in GB/s, so S/beta µs = S / (gbps·1e3)). Over n
 * devices, with the slowest link among consecutive devices of the ring (ring order = the given
 * device order, closing back to the first) as alpha and beta:
 * - ring all-reduce: 2(n−1)/n · S/beta + 2(n−1)·alpha
 * - tree all-reduce: 2·ceil(log2 n)·(alpha + S/beta) (reduce up and broadcast down a binary
 *   tree of depth ceil(log2 n))
 * all-reduce takes the cheaper of ring and tree, as NCCL picks per message size (cost-model.ts).
 */
import type { PlanLink } from '../types.js';

/** Time of one message over one link (µs). */
export function messageUs(link: Pick<PlanLink, 'alphaUs' | 'gbps'>, bytes: number): number {
  if (bytes <= 0) return 0;
  return link.alphaUs + bytes / (link.gbps * 1e3);
}

/** A link list indexed: its device pairs, and each node-level link's node per device. */
interface LinkIndex {
  /** Listed links by one device, then the other (both ways). */
  pairs: Map<string, Map<string, PlanLink>>;
  /** Node-level links; overridden: a listed link joins two of its nodes. */
  nodeLinks: { link: PlanLink; nodeOf: Map<string, number>; overridden: boolean }[];
}

/**
 * Each link list's pairs, indexed on first lookup (a cluster has 1e5 links and the searches ask
 * millions of times). The first link of a pair wins, as a scan would find it; node-level links
 * (PlanLink.nodes) join the pairs no listed link joins, the first that holds both devices on
 * different nodes. Link lists are built whole and not changed afterwards.
 */
const indexes = new WeakMap<readonly PlanLink[], LinkIndex>();

function indexOf(links: readonly PlanLink[]): LinkIndex {
  let index = indexes.get(links);
  if (!index) {
    index = { pairs: new Map(), nodeLinks: [] };
    for (const l of links) {
      if (l.nodes) {
        const nodeOf = new Map<string, number>();
        l.nodes.forEach((ids, n) => ids.forEach((id) => nodeOf.set(id, n)));
        index.nodeLinks.push({ link: l, nodeOf, overridden: false });
        continue;
      }
      for (const [x, y] of [
        [l.a, l.b],
        [l.b, l.a],
      ] as const) {
        let from = index.pairs.get(x);
        if (!from) index.pairs.set(x, (from = new Map()));
        if (!from.has(y)) from.set(y, l);
      }
    }
    for (const n of index.nodeLinks) {
      n.overridden = links.some((l) => {
        const [x, y] = [n.nodeOf.get(l.a), n.nodeOf.get(l.b)];
        return !l.nodes && x !== undefined && y !== undefined && x !== y;
      });
    }
    indexes.set(links, index);
  }
  return index;
}

/** The link between two devices (either direction), if any; a node-level link stands for the pair. */
export function linkBetween(links: readonly PlanLink[], a: string, b: string): PlanLink | undefined {
  const index = indexOf(links);
  const listed = index.pairs.get(a)?.get(b);
  if (listed || index.nodeLinks.length === 0) return listed;
  for (const { link, nodeOf } of index.nodeLinks) {
    const [na, nb] = [nodeOf.get(a), nodeOf.get(b)];
    if (na !== undefined && nb !== undefined && na !== nb) return link;
  }
  return undefined;
}

/**
 * The node-level link that joins every device of `a` to every device of `b`, when one does: both
 * lists on its nodes, no node holding devices of both, and no listed link joining two of its
 * nodes (a listed pair wins over it). Null otherwise; O(|a| + |b|).
 */
export function nodeLinkAcross(
  links: readonly PlanLink[],
  a: readonly string[],
  b: readonly string[],
): PlanLink | null {
  const index = indexOf(links);
  for (const { link, nodeOf, overridden } of index.nodeLinks) {
    if (overridden) continue;
    const nodesOfA = new Set(a.map((id) => nodeOf.get(id)));
    if (nodesOfA.has(undefined)) continue;
    if (b.every((id) => nodeOf.has(id) && !nodesOfA.has(nodeOf.get(id)))) return link;
  }
  return null;
}

/** The links among some devices: pairs of them, node-level links cut to their nodes (kept while two remain). */
export function linksAmongDevices(links: readonly PlanLink[], ids: ReadonlySet<string>): PlanLink[] {
  const out: PlanLink[] = [];
  for (const l of links) {
    if (!l.nodes) {
      if (ids.has(l.a) && ids.has(l.b)) out.push(l);
      continue;
    }
    const nodes = l.nodes.map((n) => n.filter((id) => ids.has(id))).filter((n) => n.length > 0);
    if (nodes.length > 1) out.push({ ...l, a: nodes[0]?.[0] as string, b: nodes[1]?.[0] as string, nodes });
  }
  return out;
}

export interface RingBottleneck {
  alphaUs: number;
  gbps: number;
}

/**
 * The ring's bottleneck: largest alpha and smallest bandwidth over its links (devices in the given
 * order), or null when a link between neighbours is missing.
 */
export function bottleneck(devices: readonly string[], links: readonly PlanLink[]): RingBottleneck | null {
  let alphaUs = 0;
  let gbps = Infinity;
  for (let i = 0; i < devices.length; i++) {
    const d = devices[i] as string;
    const next = devices[(i + 1) % devices.length] as string;
    if (next === d) continue;
    const l = linkBetween(links, d, next);
    if (!l) return null;
    alphaUs = Math.max(alphaUs, l.alphaUs);
    gbps = Math.min(gbps, l.gbps);
  }
  return { alphaUs, gbps };
}

function ringUs(n: number, bytes: number, l: RingBottleneck, steps: number): number {
  return ((steps * (n - 1)) / n) * (bytes / (l.gbps * 1e3)) + steps * (n - 1) * l.alphaUs;
}

export function ringAllReduceUs(n: number, bytes: number, l: RingBottleneck): number {
  return n < 2 || bytes <= 0 ? 0 : ringUs(n, bytes, l, 2);
}

export function treeAllReduceUs(n: number, bytes: number, l: RingBottleneck): number {
  return n < 2 || bytes <= 0 ? 0 : 2 * Math.ceil(Math.log2(n)) * (l.alphaUs + bytes / (l.gbps * 1e3));
}
