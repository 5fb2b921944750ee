/**
 * How an all-reduce runs over a set of devices, as NCCL runs it, and what it costs. Pure.
 *
 * Inside one node: the cheapest of a ring, a tree (collectives.ts) and, where every link says its
 * NVLink Switch reduces (PlanLink.nvlsGbps), NVLS: each GPU sends its S bytes into the switch once
 * and reads the reduced result once, S / nvlsGbps + 2 alpha.
 *
 * Across N nodes of G devices each (equal groups; the machine boundary is where a link has rails):
 * - hierarchical: reduce-scatter inside each node (ring over NVLink: (G−1)/G · S per GPU, or
 *   NVLS), all-reduce of each GPU's S/G across the nodes over its own rails (ring or tree over
 *   N), all-gather inside the node. NCCL pipelines the phases on chunks, so NVLink and the NICs
 *   work at once: the time is the slower resource's bandwidth term (both intra phases share the
 *   NVLink) plus every phase's latency. Summing the bandwidth terms instead cannot reach the
 *   published two-node results (aws-nccl-tests: 2 x p4de would need EFA above its line rate).
 * - a ring over all rails: one ring per rail, each crossing every node once, so each node's
 *   network carries 2(n−1)/n · S at its rails' total and each NVLink the same at its own rate.
 * The cheaper is taken, as NCCL's tuner does. A node's rails for a collective with G GPUs on it:
 * G x the NICs per GPU (at least one, at most the node's), capped by G x the per-GPU link.
 * Unequal groups fall back to one ring through the slowest link (one rail).
 */
import { bottleneck, linkBetween, ringAllReduceUs, treeAllReduceUs, type RingBottleneck } from './collectives.js';
import type { PlanLink } from '../types.js';

/** The algorithms an all-reduce is priced by, and what each means. */
const ALL_REDUCE_ALGORITHMS = Object.freeze({
  ring: 'a ring through the slowest link',
  tree: 'a binary tree (fewer latency steps)',
  nvls: "NVLS: the NVLink Switch reduces (each GPU's data crosses NVLink once each way)",
  hierarchical:
    'hierarchical: reduce-scatter inside each node, all-reduce across nodes over every rail, all-gather inside; pipelined',
  'rail-ring': 'one ring per rail across the nodes, in parallel',
} as const);

export type AllReduceAlgorithm = keyof typeof ALL_REDUCE_ALGORITHMS;

interface Phase {
  /** µs of the bandwidth term. */
  transferUs: number;
  latencyUs: number;
}

/** What an all-reduce over one device list needs, worked out once per list. */
export interface AllReduceRoute {
  n: number;
  /** The ring through every device (its slowest link), for one node or unequal groups. */
  ring: RingBottleneck;
  /** One node whose switch reduces: NVLS GB/s and the NVLink latency. */
  nvls: { gbps: number; alphaUs: number } | null;
  /** Several nodes of equal size. */
  nodes: {
    count: number;
    perNode: number;
    /** The slowest ring inside a node (null with one GPU per node). */
    intra: RingBottleneck | null;
    /** NVLS inside every node, GB/s (null where a node's switch does not reduce). */
    intraNvlsGbps: number | null;
    /** The rails a node's GPUs of this collective use, together, and the network latency. */
    network: RingBottleneck;
  } | null;
}

/** Per link list: each device's machine, as one of its devices (links without rails join a machine's devices). */
const machinesOf = new WeakMap<readonly PlanLink[], Map<string, string>>();

function machineOf(links: readonly PlanLink[]): Map<string, string> {
  let home = machinesOf.get(links);
  if (home) return home;
  const parent = new Map<string, string>();
  const root = (d: string): string => {
    let r = d;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r) as string;
    for (let x = d; x !== r;) {
      const next = parent.get(x) as string;
      parent.set(x, r);
      x = next;
    }
    return r;
  };
  for (const l of links) {
    if (l.rails) continue;
    const a = root(l.a);
    const b = root(l.b);
    parent.set(a, a);
    if (a !== b) parent.set(b, a);
  }
  home = new Map([...parent.keys()].map((d) => [d, root(d)]));
  machinesOf.set(links, home);
  return home;
}

/**
 * Devices by machine, in first-seen order: links without rails join a machine's devices. Null
 * when a device has no link to the machine before it. One pass over the links finds the machines
 * (cached), so a ring of thousands of GPUs over hundreds of nodes groups in one pass.
 */
function machineGroups(devices: readonly string[], links: readonly PlanLink[]): string[][] | null {
  const home = machineOf(links);
  const groups: string[][] = [];
  const byHome = new Map<string, string[]>();
  for (const d of devices) {
    const h = home.get(d) ?? d;
    const g = byHome.get(h);
    if (g) {
      g.push(d);
      continue;
    }
    const last = groups[groups.length - 1];
    if (last && !linkBetween(links, last[0] as string, d)) return null;
    const made = [d];
    groups.push(made);
    byHome.set(h, made);
  }
  return groups;
}

/** Smallest NVLS rate among ring neighbours; null when one link's switch does not reduce. */
function nvlsAlong(devices: readonly string[], links: readonly PlanLink[]): number | null {
  let gbps = Infinity;
  for (let i = 0; i < devices.length; i++) {
    const l = linkBetween(links, devices[i] as string, devices[(i + 1) % devices.length] as string);
    if (!l?.nvlsGbps) return null;
    gbps = Math.min(gbps, l.nvlsGbps);
  }
  return gbps;
}

/** The rails between consecutive nodes (the same GPU index on each), as one node's GB/s and latency. */
function railsBetween(groups: readonly string[][], links: readonly PlanLink[]): RingBottleneck | null {
  const perNode = (groups[0] as string[]).length;
  let gbps = Infinity;
  let alphaUs = 0;
  for (let i = 0; i < groups.length; i++) {
    const l = linkBetween(
      links,
      (groups[i] as string[])[0] as string,
      (groups[(i + 1) % groups.length] as string[])[0] as string,
    );
    if (!l?.rails) return null;
    const used = Math.min(l.rails.count, Math.max(1, perNode * l.rails.perGpu));
    gbps = Math.min(gbps, used * l.rails.gbps, perNode * l.gbps);
    alphaUs = Math.max(alphaUs, l.alphaUs);
  }
  return { gbps, alphaUs };
}

/** The route of an all-reduce over these devices; null when a link between them is missing. */
export function allReduceRoute(devices: readonly string[], links: readonly PlanLink[]): AllReduceRoute | null {
  const ring = bottleneck(devices, links);
  if (!ring) return null;
  const n = devices.length;
  const groups = machineGroups(devices, links);
  if (!groups) return null;
  if (groups.length === 1) return { n, ring, nvls: nvlsRoute(devices, links, ring), nodes: null };
  const perNode = (groups[0] as string[]).length;
  if (groups.some((g) => g.length !== perNode)) return { n, ring, nvls: null, nodes: null };
  const network = railsBetween(groups, links);
  if (!network) return { n, ring, nvls: null, nodes: null };
  let intra: RingBottleneck | null = null;
  let intraNvlsGbps: number | null = perNode > 1 ? Infinity : null;
  for (const g of perNode > 1 ? groups : []) {
    const b = bottleneck(g, links);
    if (!b) return null;
    intra = intra ? { alphaUs: Math.max(intra.alphaUs, b.alphaUs), gbps: Math.min(intra.gbps, b.gbps) } : b;
    const nv = nvlsAlong(g, links);
    intraNvlsGbps = nv === null || intraNvlsGbps === null ? null : Math.min(intraNvlsGbps, nv);
  }
  return { n, ring, nvls: null, nodes: { count: groups.length, perNode, intra, intraNvlsGbps, network } };
}

function nvlsRoute(
  devices: readonly string[],
  links: readonly PlanLink[],
  ring: RingBottleneck,
): AllReduceRoute['nvls'] {
  const gbps = devices.length > 1 ? nvlsAlong(devices, links) : null;
  return gbps === null ? null : { gbps, alphaUs: ring.alphaUs };
}

const transfer = (bytes: number, gbps: number): number => bytes / (gbps * 1e3);

/** The hierarchical all-reduce's phases: `inside` is the reduce-scatter, and again the all-gather. */
export interface HierarchicalPhases {
  /** Each of reduce-scatter and all-gather inside a node; null with one GPU per node. */
  inside: Phase | null;
  /** The all-reduce across nodes over the rails (ring or tree over the nodes, the cheaper). */
  across: Phase;
}

/** The phases of the hierarchical all-reduce of `bytes` (µs each). */
export function hierarchicalPhases(nodes: NonNullable<AllReduceRoute['nodes']>, bytes: number): HierarchicalPhases {
  const { count: N, perNode: G, intra, intraNvlsGbps, network } = nodes;
  let inside: Phase | null = null;
  if (intra && intraNvlsGbps !== null)
    inside = { transferUs: transfer(bytes, intraNvlsGbps) / 2, latencyUs: intra.alphaUs };
  else if (intra)
    inside = { transferUs: transfer(((G - 1) / G) * bytes, intra.gbps), latencyUs: (G - 1) * intra.alphaUs };
  // Each GPU all-reduces its S/G over its share (1/G) of the node's rails: the node's S at their total.
  const ring = {
    transferUs: transfer(((2 * (N - 1)) / N) * bytes, network.gbps),
    latencyUs: 2 * (N - 1) * network.alphaUs,
  };
  const depth = 2 * Math.ceil(Math.log2(N));
  const tree = { transferUs: depth * transfer(bytes, network.gbps), latencyUs: depth * network.alphaUs };
  const across = ring.transferUs + ring.latencyUs <= tree.transferUs + tree.latencyUs ? ring : tree;
  return { inside, across };
}

/** Pipelined phases: the busier resource's transfers (both inside phases share NVLink) plus every latency. */
export function pipelinedUs({ inside, across }: HierarchicalPhases): number {
  const nvlink = inside ? 2 * inside.transferUs : 0;
  return Math.max(nvlink, across.transferUs) + (inside ? 2 * inside.latencyUs : 0) + across.latencyUs;
}

/** A ring per rail across nodes: each node's network and each NVLink carry 2(n−1)/n · S. */
function railRingUs(route: AllReduceRoute, nodes: NonNullable<AllReduceRoute['nodes']>, bytes: number): number {
  const gbps = Math.min(nodes.network.gbps, nodes.intra?.gbps ?? Infinity);
  const alphaUs = Math.max(nodes.network.alphaUs, nodes.intra?.alphaUs ?? 0);
  return ringAllReduceUs(route.n, bytes, { gbps, alphaUs });
}

/** The cheapest algorithm for `bytes` over the route, and its time (µs). */
export function allReduceOver(route: AllReduceRoute, bytes: number): { us: number; algorithm: AllReduceAlgorithm } {
  const chosen: { algorithm: AllReduceAlgorithm } = { algorithm: 'ring' };
  const us = allReduceOverUs(route, bytes, chosen);
  return { us, algorithm: chosen.algorithm };
}

/**
 * allReduceOver's time alone, no object made (the searches price an all-reduce per layer range);
 * `chosen`, when given, gets the algorithm's name.
 */
export function allReduceOverUs(
  route: AllReduceRoute,
  bytes: number,
  chosen?: { algorithm: AllReduceAlgorithm },
): number {
  if (route.n < 2 || bytes <= 0) return 0;
  const { nodes, nvls } = route;
  if (nodes) {
    const hierarchical = pipelinedUs(hierarchicalPhases(nodes, bytes));
    const railRing = railRingUs(route, nodes, bytes);
    if (chosen) chosen.algorithm = hierarchical <= railRing ? 'hierarchical' : 'rail-ring';
    return hierarchical <= railRing ? hierarchical : railRing;
  }
  let us = ringAllReduceUs(route.n, bytes, route.ring);
  let algorithm: AllReduceAlgorithm = 'ring';
  const tree = treeAllReduceUs(route.n, bytes, route.ring);
  if (tree < us) {
    us = tree;
    algorithm = 'tree';
  }
  const viaSwitch = nvls ? transfer(bytes, nvls.gbps) + 2 * nvls.alphaUs : Infinity;
  if (viaSwitch < us) {
    us = viaSwitch;
    algorithm = 'nvls';
  }
  if (chosen) chosen.algorithm = algorithm;
  return us;
}

/** What a plan over several machines assumes of its all-reduces, in one line; null on one machine. */
export function crossMachineAllReduceNote(links: readonly PlanLink[]): string | null {
  // A loop, not Math.min(...): a cluster has 1e5 links.
  let [fewest, most] = [Infinity, 0];
  for (const l of links) {
    if (!l.rails) continue;
    fewest = Math.min(fewest, l.rails.count);
    most = Math.max(most, l.rails.count);
  }
  if (most === 0) return null;
  const nics = fewest === most ? `all ${fewest}` : `all ${fewest}-${most}`;
  const { hierarchical, 'rail-ring': railRing, nvls: switchReduce } = ALL_REDUCE_ALGORITHMS;
  const inside = links.some((l) => l.nvlsGbps) ? `; inside nodes whose switch reduces, ${switchReduce}` : '';
  return `all-reduces across machines over ${nics} NIC(s) of each: ${hierarchical}, or ${railRing} where cheaper${inside}`;
}
