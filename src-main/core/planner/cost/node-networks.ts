/**
 * Networks between GPU nodes as data: the kinds of network (what share of line rate NCCL reaches
 * on each, at what latency) and the nodes of common systems (models/node-networks.json: NICs per
 * node, line rate, kind, source), which `--network dgx-h100` or a links file names. Pure.
 */
import { z } from 'zod';
import nodeFile from '../../../../models/node-networks.json' with { type: 'json' };

export interface LinkFactor {
  /** Share of the spec bandwidth transfers reach on this path. */
  efficiency: number;
  alphaUs: number;
}

/**
 * Share of line rate and per-message latency by network kind: NCCL over TCP sockets reaches
 * about 75% of Ethernet line rate at tens of µs per message; RoCE (RDMA over Ethernet) ~85% at
 * ~8 µs; InfiniBand RDMA ~90% at ~5 µs. EFA (AWS's SRD transport): 84%, fitted on the
 * aws-nccl-tests 2 x p4de all-reduce of 2 GiB (a calibration cell of bench/published: 41.78 GB/s
 * algbw over 4 x 100 Gb/s per node, where the inter-node phase is the slowest); ~20 µs assumed
 * (SRD's round trip, no cell fixes it).
 */
export const NETWORK_KINDS = Object.freeze({
  ethernet: { efficiency: 0.75, alphaUs: 35 },
  roce: { efficiency: 0.85, alphaUs: 8 },
  infiniband: { efficiency: 0.9, alphaUs: 5 },
  efa: { efficiency: 0.84, alphaUs: 20 },
  // Measured (nccl-tests, or written as GB/s): the figure is what transfers reach; 10 µs unless given.
  measured: { efficiency: 1, alphaUs: 10 },
} as const satisfies Record<string, LinkFactor>);

export type NetworkKind = keyof typeof NETWORK_KINDS;

const NodeNetworkSchema = z.strictObject({
  /** What users write: "dgx-h100", "p5". */
  id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
  name: z.string().min(1),
  aliases: z.array(z.string().regex(/^[a-z0-9][a-z0-9.-]*$/)),
  /** GPUs of the node. */
  gpus: z.number().int().positive(),
  /** NICs (rails) of the node's compute fabric. */
  nics: z.number().int().positive(),
  /** Line rate of one NIC, Gb/s. */
  gbitps: z.number().positive(),
  kind: z.enum(['ethernet', 'roce', 'infiniband', 'efa']),
  sources: z.array(z.string().min(1)).min(1),
});
export type NodeNetwork = z.infer<typeof NodeNetworkSchema>;

const FileSchema = z.strictObject({ about: z.string(), nodes: z.array(NodeNetworkSchema).min(1) });

function load(): ReadonlyMap<string, NodeNetwork> {
  const byName = new Map<string, NodeNetwork>();
  for (const n of FileSchema.parse(nodeFile).nodes) {
    for (const name of [n.id, ...n.aliases]) {
      const other = byName.get(name);
      if (other) throw new Error(`models/node-networks.json: "${name}" names both ${other.id} and ${n.id}`);
      byName.set(name, n);
    }
  }
  return byName;
}

const NODE_NETWORKS = load();

/** Every named node, in file order. */
const NODE_NETWORK_LIST: readonly NodeNetwork[] = [...new Set(NODE_NETWORKS.values())];

/** The node a name or alias stands for ("p5", "DGX-H100"), or null. */
export function nodeNetworkFor(name: string): NodeNetwork | null {
  return NODE_NETWORKS.get(name.trim().toLowerCase()) ?? null;
}

/** The named nodes as prose, for messages: "dgx-a100, dgx-h100, ..., p6-b200". */
export const NODE_NAMES_TEXT = NODE_NETWORK_LIST.map((n) => n.id).join(', ');

const KIND_SUFFIX: Readonly<Record<NodeNetwork['kind'], string>> = {
  ethernet: 'GbE',
  roce: 'Gb-RoCE',
  infiniband: 'Gb-IB',
  efa: 'Gb-EFA',
};

/** One NIC of the node as `--network` writes it: "400Gb-IB", "100Gb-EFA". */
export const nicText = (n: Pick<NodeNetwork, 'gbitps' | 'kind'>): string => `${n.gbitps}${KIND_SUFFIX[n.kind]}`;
