/** How much memory a profiled device offers: the machine's RAM for the CPU, a GPU's free (else total) memory. */
import type { MachineDetail } from '../../adapters/store/machine-repo.js';

/** Bytes; 0 when the probe did not say. */
export function deviceMemoryBytes(machine: MachineDetail, key: string): number {
  if (key === 'cpu') return machine.probe.memory.totalBytes;
  const gpu = machine.probe.nvidia.gpus.find((g) => `cuda:${g.index}` === key);
  const mib = gpu?.memoryFreeMiB ?? gpu?.memoryTotalMiB ?? null;
  return mib === null ? 0 : mib * 2 ** 20;
}
