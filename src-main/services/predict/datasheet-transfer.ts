/**
 * A profiled GPU's own achieved fractions, carried to datasheet GPUs of its architecture: its
 * measured fp16 (or bf16) GEMM peak and DRAM bandwidth over its own datasheet replace the shipped
 * GEMM and memory-type fractions (models/gpu-kernels.json) for those GPUs. The shipped fractions
 * stay for everything the profile did not measure, and for other architectures.
 */
import { datasheetFor, transferEfficiencies, type GpuDatasheet } from '../../core/planner/cost/datasheets.js';
import { KERNEL_EFFICIENCIES, type KernelEfficiencies } from '../../core/predictor/kernel-efficiency.js';
import { MachineRepo } from '../../adapters/store/machine-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { loadTrainingData } from './training-data.js';

export interface TransferredTable {
  table: KernelEfficiencies;
  /** What was carried over, from which device: one line for the plan's warnings. */
  note: string;
}

/** The fractions a datasheet GPU is priced with: a profiled GPU's of the same architecture, or null (the shipped ones). */
export function transferredTable(db: Database, target: GpuDatasheet): TransferredTable | null {
  const { devices } = loadTrainingData(db);
  const machines = new MachineRepo(db);
  for (const d of devices.filter((x) => x.features.kind === 'gpu')) {
    const name = machines.getMachine(d.machineId)?.devices.find((x) => x.key === d.deviceKey)?.name ?? '';
    const ds = datasheetFor(name);
    if (!ds || ds.architecture !== target.architecture) continue;
    const t = transferEfficiencies(ds.name, {
      peakGflops: d.features.peakGflops,
      bandwidthGBps: d.features.bandwidthGBps,
      dispatchOverheadUs: d.features.dispatchUs,
    });
    const gemm = t.measured.fp16 ? t.efficiencies.fp16 : t.measured.bf16 ? t.efficiencies.bf16 : null;
    const bandwidth = t.measured.bandwidth ? t.efficiencies.bandwidth : null;
    if (gemm === null && bandwidth === null) continue;
    const arch = KERNEL_EFFICIENCIES.architectures[target.architecture];
    const table: KernelEfficiencies = {
      ...KERNEL_EFFICIENCIES,
      architectures: {
        ...KERNEL_EFFICIENCIES.architectures,
        ...(arch && gemm !== null ? { [target.architecture]: { ...arch, gemm, from: [] } } : {}),
      },
      memory: {
        ...KERNEL_EFFICIENCIES.memory,
        ...(bandwidth !== null ? { [target.memory.type]: { bandwidth, from: [] } } : {}),
      },
    };
    const parts = [
      ...(gemm !== null ? [`GEMM ${gemm.toFixed(2)} of peak`] : []),
      ...(bandwidth !== null ? [`bandwidth ${bandwidth.toFixed(2)}`] : []),
    ];
    return {
      table,
      note: `${target.name}: kernel fractions transferred from the profiled ${ds.name} (${d.machineLabel}/${d.deviceKey}, ${target.architecture}): ${parts.join(', ')}`,
    };
  }
  return null;
}
