/**
 * The NVIDIA GPU architectures pipeDejavu knows, oldest first, one `as const` table their names and
 * type derive from, with what each architecture decides as data: a new architecture must state
 * each (a missing field does not compile). A datasheet (models/gpus.json) names its GPU's
 * architecture from this table; models/gpu-kernels.json gives each its achieved fractions (a test
 * holds the two to the same list). Pure.
 */
import { series } from '../text/series.js';

interface GpuArchitectureTraits {
  /** fp8 tensor units (Transformer Engine GEMMs): the datasheet gives an fp8 rate, engines run W8A8 fp8. */
  fp8: boolean;
  /** fp4 tensor units (NVFP4/MXFP4): the datasheet gives an fp4 rate. */
  fp4: boolean;
  /** Marlin's int4 kernels run here (Ampere on); older GPUs run AutoAWQ's GEMM. */
  marlin: boolean;
  /**
   * Gb/s of the InfiniBand NIC each GPU of a DGX/HGX node of this generation has: HDR 200 before
   * Hopper, NDR 400 from Hopper (what links virtual nodes when the request states no network).
   */
  clusterNicGbps: 200 | 400;
}

export const GPU_ARCHITECTURES = {
  Volta: { fp8: false, fp4: false, marlin: false, clusterNicGbps: 200 },
  Turing: { fp8: false, fp4: false, marlin: false, clusterNicGbps: 200 },
  Ampere: { fp8: false, fp4: false, marlin: true, clusterNicGbps: 200 },
  Ada: { fp8: true, fp4: false, marlin: true, clusterNicGbps: 200 },
  Hopper: { fp8: true, fp4: false, marlin: true, clusterNicGbps: 400 },
  Blackwell: { fp8: true, fp4: true, marlin: true, clusterNicGbps: 400 },
} as const satisfies Record<string, GpuArchitectureTraits>;

export type GpuArchitecture = keyof typeof GPU_ARCHITECTURES;
/** Every architecture, oldest first. */
export const GPU_ARCHITECTURE_NAMES = Object.keys(GPU_ARCHITECTURES) as [GpuArchitecture, ...GpuArchitecture[]];

/** The architecture's traits; null for a name the table lacks. */
export function gpuArchitecture(name: string): GpuArchitectureTraits | null {
  return Object.hasOwn(GPU_ARCHITECTURES, name) ? GPU_ARCHITECTURES[name as GpuArchitecture] : null;
}

/** The architectures with fp8 units, oldest first. */
export const FP8_ARCHITECTURES: readonly GpuArchitecture[] = GPU_ARCHITECTURE_NAMES.filter(
  (a) => GPU_ARCHITECTURES[a].fp8,
);
/** The same as prose, for help and messages: "Ada, Hopper and Blackwell". */
export const FP8_ARCHITECTURES_TEXT = series(FP8_ARCHITECTURES, 'and');

/** The same, as the GPUs that have fp8 units: "Ada, Hopper and Blackwell GPUs". */
export const FP8_GPUS_TEXT = `${FP8_ARCHITECTURES_TEXT} GPUs`;
