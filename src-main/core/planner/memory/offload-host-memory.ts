/** The host memory an optimizer offload may use on each machine of the plan. Pure. */
import { formatBytes } from '../../text/bytes.js';
import { ASSUMED_HOST_MEMORY_PER_GPU_BYTE, assumedHostMemory } from '../search/plan-ranking.js';
import type { HostMemory, PlanDevice } from '../types.js';

/**
 * The RAM of every machine of the plan for an offload: probed, or for a machine nobody probed
 * (datasheet GPUs alone) assumed, and said so with the figure.
 */
export function offloadHostMemory(
  devices: readonly PlanDevice[],
  probed: Record<string, HostMemory>,
  warnings: string[],
): Record<string, HostMemory> {
  const out: Record<string, HostMemory> = {};
  for (const machine of new Set(devices.map((d) => d.machine))) {
    const known = probed[machine];
    if (known) {
      out[machine] = known;
      continue;
    }
    const assumed = assumedHostMemory(devices, machine);
    out[machine] = assumed;
    warnings.push(
      `optimizer offload: the host memory of ${machine} is assumed, ${formatBytes(assumed.bytes)} (${ASSUMED_HOST_MEMORY_PER_GPU_BYTE} x its GPUs' memory; nobody probed it)`,
    );
  }
  return out;
}
