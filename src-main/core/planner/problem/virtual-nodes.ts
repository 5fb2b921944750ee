/** Where datasheet GPUs sit: beside the measured devices, or in virtual nodes of eight linked by InfiniBand. Pure. */
import { resolveGpuName } from '../cost/datasheets.js';
import { GPU_ARCHITECTURES } from '../../domain/gpu-architectures.js';

/** GPUs of one node a datasheet cluster is cut into: an HGX/DGX board's NVLink domain. */
export const GPUS_PER_VIRTUAL_NODE = 8;

/**
 * Where each datasheet GPU sits: in the plan's first machine when measured devices are in the
 * plan ("what if I add an H100 here?"); else in one node "virtual", or, beyond
 * GPUS_PER_VIRTUAL_NODE GPUs, in nodes of 8 ("virtual-1", "virtual-2", ...) as DGX/HGX clusters
 * are built, linked by one InfiniBand NIC per GPU of the newest generation's rate
 * (GPU_ARCHITECTURES' clusterNicGbps: HDR 200 Gb/s before Hopper, NDR 400 Gb/s from Hopper), 8
 * rails a node as on DGX A100/H100 (models/node-networks.json), unless the request states a
 * network. A collective across nodes runs over all 8 rails (all-reduce.ts).
 */
export function virtualNodes(
  names: readonly string[],
  host: string | undefined,
): { machines: string[]; network: string | undefined } {
  if (host !== undefined) return { machines: names.map(() => host), network: undefined };
  if (names.length <= GPUS_PER_VIRTUAL_NODE) return { machines: names.map(() => 'virtual'), network: undefined };
  const machines = names.map((_, i) => `virtual-${Math.floor(i / GPUS_PER_VIRTUAL_NODE) + 1}`);
  const nicGbps = Math.max(...names.map((n) => GPU_ARCHITECTURES[resolveGpuName(n).architecture].clusterNicGbps));
  // One NIC per GPU (each reaches the network over its own PCIe): a rail each.
  return { machines, network: `${GPUS_PER_VIRTUAL_NODE}x${nicGbps}Gb-IB` };
}
