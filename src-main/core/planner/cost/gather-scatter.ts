/**
 * How an all-gather or a reduce-scatter runs over a set of devices, as NCCL runs them, and what
 * they cost, over the all-reduce's route (all-reduce.ts). Pure.
 *
 * S is the whole buffer, as nccl-tests sizes it: the all-gather's output, the reduce-scatter's
 * input; each device holds S/n of it before the all-gather and after the reduce-scatter. An
 * all-reduce is a reduce-scatter then an all-gather: each moves half of what the all-reduce moves,
 * (n−1)/n · S per device, so nccl-tests' bus bandwidth of both is algbw · (n−1)/n (PERFORMANCE.md),
 * and the two cost the same (the reduction rides on the transfers).
 *
 * - ring (one node, or unequal groups): (n−1)/n · S/β + (n−1)·α, half the ring all-reduce. NCCL
 *   runs no tree for these two.
 * - NVLS (every link's NVLink Switch reduces): the reduce-scatter sends each GPU's S into the
 *   switch once, the all-gather reads the whole S out of it once: S/nvls + α. An NVLS all-reduce
 *   runs the two on opposite directions of each NVLink at once (S/nvls + 2α), so either alone
 *   takes its whole transfer; the ring is cheaper where (n−1)/n / β < 1 / nvls.
 * - across N nodes of G GPUs (equal groups):
 *   - a ring per rail: each node's rails and each NVLink carry (n−1)/n · S, at the slower of the
 *     rails' total and the NVLink (half the all-reduce's ring per rail);
 *   - hierarchical, where every node's switch reduces (NCCL's NVLS with the network): the
 *     reduce-scatter reduces inside the node through the switch (S/nvls), then reduce-scatters
 *     each GPU's S/G across the nodes over its rails ((N−1)/N · S a node at the rails' total,
 *     (N−1) latencies); the all-gather the reverse. Pipelined on chunks like the all-reduce's
 *     phases: the slower resource's transfer plus both latencies.
 *   The cheaper is taken, as NCCL's tuner does.
 */
import type { AllReduceRoute } from './all-reduce.js';

/** The algorithms an all-gather or reduce-scatter is priced by, and what each means. */
const GATHER_SCATTER_ALGORITHMS = Object.freeze({
  ring: 'a ring through the slowest link',
  nvls: "NVLS: the NVLink Switch reduces or multicasts (each GPU's data crosses NVLink once)",
  hierarchical:
    'hierarchical: through the NVLink Switch inside each node, a ring over every rail across nodes; pipelined',
  'rail-ring': 'one ring per rail across the nodes, in parallel',
} as const);

export type GatherScatterAlgorithm = keyof typeof GATHER_SCATTER_ALGORITHMS;

/** The two collectives of sharded data parallelism, as nccl-tests names them. */
export const SHARD_COLLECTIVES = ['all_gather', 'reduce_scatter'] as const;
export type ShardCollective = (typeof SHARD_COLLECTIVES)[number];

const transfer = (bytes: number, gbps: number): number => bytes / (gbps * 1e3);

/** (n−1)/n · S/β + (n−1)·α: one pass of a ring. */
function ringPassUs(n: number, bytes: number, gbps: number, alphaUs: number): number {
  return transfer(((n - 1) / n) * bytes, gbps) + (n - 1) * alphaUs;
}

/**
 * The cheapest algorithm's time (µs) for an all-gather or a reduce-scatter of `bytes` (S, the
 * whole buffer) over the route; both cost the same. `chosen`, when given, gets the algorithm's name.
 */
export function gatherScatterOverUs(
  route: AllReduceRoute,
  bytes: number,
  chosen?: { algorithm: GatherScatterAlgorithm },
): number {
  if (route.n < 2 || bytes <= 0) return 0;
  const { nodes, nvls } = route;
  if (nodes) {
    const { count: N, intra, intraNvlsGbps, network } = nodes;
    const railRing = ringPassUs(
      route.n,
      bytes,
      Math.min(network.gbps, intra?.gbps ?? Infinity),
      Math.max(network.alphaUs, intra?.alphaUs ?? 0),
    );
    let hierarchical = Infinity;
    if (intra && intraNvlsGbps !== null) {
      const across = transfer(((N - 1) / N) * bytes, network.gbps);
      hierarchical = Math.max(transfer(bytes, intraNvlsGbps), across) + intra.alphaUs + (N - 1) * network.alphaUs;
    }
    if (chosen) chosen.algorithm = hierarchical < railRing ? 'hierarchical' : 'rail-ring';
    return Math.min(hierarchical, railRing);
  }
  const ring = ringPassUs(route.n, bytes, route.ring.gbps, route.ring.alphaUs);
  const viaSwitch = nvls ? transfer(bytes, nvls.gbps) + nvls.alphaUs : Infinity;
  if (chosen) chosen.algorithm = viaSwitch < ring ? 'nvls' : 'ring';
  return Math.min(ring, viaSwitch);
}

/** gatherScatterOverUs with the algorithm's name and what it means. */
export function gatherScatterOver(
  route: AllReduceRoute,
  bytes: number,
): { us: number; algorithm: GatherScatterAlgorithm; how: string } {
  const chosen: { algorithm: GatherScatterAlgorithm } = { algorithm: 'ring' };
  const us = gatherScatterOverUs(route, bytes, chosen);
  return { us, algorithm: chosen.algorithm, how: GATHER_SCATTER_ALGORITHMS[chosen.algorithm] };
}
