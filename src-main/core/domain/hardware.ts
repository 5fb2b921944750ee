/**
 * Hardware domain: what the probe finds on a machine. Zod schemas are the single
 * source of truth; TypeScript types are inferred from them. Pure: no Node APIs.
 */
import { z } from 'zod';

/** Number or null: a value the probe could not read is null, never a guess. */
const num = z.number().finite().nullable();

const CpuInfoSchema = z.object({
  manufacturer: z.string(),
  brand: z.string(),
  physicalCores: z.number().int().nonnegative(),
  logicalCores: z.number().int().nonnegative(),
  /** GHz: the base clock, or in a virtual machine the nominal or current one the kernel reports. */
  baseClockGHz: num,
  /**
   * GHz: the maximum (boost) clock the OS reports (cpufreq); null when it reports none. Older probes copied
   * the base clock here when the OS reported no maximum: a value equal to the base is no known boost clock.
   */
  maxClockGHz: num,
  /** Cache sizes in bytes (per core for L1/L2 where the OS reports it so). */
  cacheBytes: z.object({ l1d: num, l1i: num, l2: num, l3: num }),
  /** ISA features that matter for kernels. */
  isa: z.object({
    sse42: z.boolean(),
    avx: z.boolean(),
    avx2: z.boolean(),
    fma: z.boolean(),
    avx512f: z.boolean(),
    avx512bf16: z.boolean(),
    avx512vnni: z.boolean(),
    amx: z.boolean(),
    neon: z.boolean(),
  }),
  /** Single-precision FLOPs per cycle per core implied by the ISA (FMA width x units). */
  fp32FlopsPerCycle: z.number().nonnegative(),
});
export type CpuInfo = z.infer<typeof CpuInfoSchema>;

const MemoryInfoSchema = z.object({ totalBytes: z.number().nonnegative() });
export type MemoryInfo = z.infer<typeof MemoryInfoSchema>;

const OsInfoSchema = z.object({
  platform: z.string(),
  distro: z.string(),
  release: z.string(),
  kernel: z.string(),
  arch: z.string(),
});
export type OsInfo = z.infer<typeof OsInfoSchema>;

export const NvlinkSchema = z.object({
  link: z.number().int().nonnegative(),
  /** GB/s per direction as nvidia-smi reports it; null when the link is inactive. */
  speedGBps: num,
  active: z.boolean(),
});
export type Nvlink = z.infer<typeof NvlinkSchema>;

export const GpuInfoSchema = z.object({
  index: z.number().int().nonnegative(),
  name: z.string(),
  uuid: z.string().nullable(),
  pciBusId: z.string().nullable(),
  memoryTotalMiB: num,
  memoryFreeMiB: num,
  /** e.g. "9.0"; null when the driver cannot say (older drivers lack compute_cap). */
  computeCapability: z.string().nullable(),
  maxSmClockMHz: num,
  maxMemoryClockMHz: num,
  maxGraphicsClockMHz: num,
  /** Max PCIe generation of the link (capped by the host). */
  pcieGenMax: num,
  /** Max PCIe generation the GPU itself supports, when the driver reports it. */
  pcieGenGpuMax: num,
  pcieWidthMax: num,
  powerLimitW: num,
  /** "Enabled" / "Disabled", or null when not applicable or unknown. */
  migMode: z.enum(['Enabled', 'Disabled']).nullable(),
  nvlinks: z.array(NvlinkSchema),
});
export type GpuInfo = z.infer<typeof GpuInfoSchema>;

/** Connection kinds of `nvidia-smi topo -m`, strongest first. */
const TopoKindSchema = z.enum(['X', 'NV', 'PIX', 'PXB', 'PHB', 'NODE', 'SYS', 'UNKNOWN']);
export type TopoKind = z.infer<typeof TopoKindSchema>;

const TopoCellSchema = z.object({
  kind: TopoKindSchema,
  /** Number of bonded NVLinks for kind NV. */
  nvlinks: z.number().int().nonnegative().nullable(),
  /** The cell as printed, e.g. "NV18". */
  raw: z.string(),
});
export type TopoCell = z.infer<typeof TopoCellSchema>;

export const TopologySchema = z.object({
  /** Row/column labels in order, e.g. ["GPU0", "GPU1", "NIC0"]. */
  labels: z.array(z.string()),
  /** matrix[i][j] connects labels[i] and labels[j]. */
  matrix: z.array(z.array(TopoCellSchema)),
  /** Per label: CPU affinity string ("0-55,112-167"), NUMA affinity, GPU NUMA id; null when absent. */
  cpuAffinity: z.array(z.string().nullable()),
  numaAffinity: z.array(z.string().nullable()),
  gpuNumaId: z.array(z.string().nullable()),
  /** NIC aliases from the legend, e.g. {"NIC0": "mlx5_0"}. */
  nicNames: z.record(z.string(), z.string()),
});
export type Topology = z.infer<typeof TopologySchema>;

const NvidiaStatusSchema = z.enum([
  /** nvidia-smi ran and listed GPUs. */
  'ok',
  /** nvidia-smi ran and reported no GPU. */
  'no-gpu',
  /** No nvidia-smi binary: a CPU-only machine. */
  'not-installed',
  /** nvidia-smi exists but failed (driver not loaded, hung, garbage). */
  'failed',
]);

export const NvidiaInfoSchema = z.object({
  status: NvidiaStatusSchema,
  /** Path of the nvidia-smi that was run, or that was looked for. */
  smiPath: z.string().nullable(),
  driverVersion: z.string().nullable(),
  cudaVersion: z.string().nullable(),
  gpus: z.array(GpuInfoSchema),
  topology: TopologySchema.nullable(),
});
export type NvidiaInfo = z.infer<typeof NvidiaInfoSchema>;

export const ProbeResultSchema = z.object({
  probedAt: z.string(),
  hostname: z.string(),
  os: OsInfoSchema,
  cpu: CpuInfoSchema,
  memory: MemoryInfoSchema,
  nvidia: NvidiaInfoSchema,
  /** What the probe could not read, one line each. The probe never fails for these. */
  warnings: z.array(z.string()),
});
export type ProbeResult = z.infer<typeof ProbeResultSchema>;
