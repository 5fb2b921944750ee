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
 * (GPU_ARCHITECTURES' clusterNicGbps: HDR 200 Gb/s before Hopper, NDR 400 Gb/s from Hopper)
 * unless the request states a network. A collective across nodes is priced as one ring through
 * one GPU's NIC; NCCL's rings over all 8 NICs are faster.
 */
export function virtualNodes(
  names: readonly string[],
  host: string | undefined,
): { machines: string[]; network: string | undefined } {
  if (host !== undefined) return { machines: names.map(() => host), network: undefined };
  if (names.length <= GPUS_PER_VIRTUAL_NODE) return { machines: names.map(() => 'virtual'), network: undefined };
  const machines = names.map((_, i) => `virtual-${Math.floor(i / GPUS_PER_VIRTUAL_NODE) + 1}`);
  const nicGbps = Math.max(...names.map((n) => GPU_ARCHITECTURES[resolveGpuName(n).architecture].clusterNicGbps));
  // Links between machines are per GPU (each reaches the network over its own PCIe): one NIC each.
  return { machines, network: `${nicGbps}Gb-IB` };
}
