/**
 * Achieved fractions of datasheet peaks per kind of kernel (models/gpu-kernels.json, validated
 * here): what a GPU nobody profiled is priced with. Each figure names the published calibration
 * cells it came from (bench/published/). Pure.
 */
import { z } from 'zod';
import kernelFile from '../../../models/gpu-kernels.json' with { type: 'json' };

const fraction = z.number().positive().max(1);
const cellIds = z.array(z.string().regex(/^[a-z0-9][a-z0-9.-]*$/));

const ArchitectureSchema = z.strictObject({
  /** Large tensor-core GEMMs (cuBLAS) as a fraction of the dense datasheet peak. */
  gemm: fraction,
  /** The same for fp8 GEMMs (Transformer Engine / cuBLASLt); absent: `gemm`. */
  gemmFp8: fraction.optional(),
  /** The output tile a GEMM kernel computes per SM and wave: [rows, columns]. */
  tile: z.tuple([z.number().int().positive(), z.number().int().positive()]),
  /** Fused attention (FlashAttention/SDPA) as a fraction of the dense tensor peak: the newest kernel the architecture has. */
  attention: fraction,
  /**
   * A saturated run's compute rate against the burst rate the fractions above were measured at:
   * a training step holds the board at its power limit, where the
   * SM clock settles below boost. mamf-finder's MSMF (maximum sustainable matmul FLOPS) over its
   * MAMF (the burst), all eight GPUs of a node busy; `sustainedFrom` quotes the rows. Absent: 1.
   */
  sustained: fraction.optional(),
  sustainedFrom: z.array(z.string()).optional(),
  /**
   * Training steps, where no sustained rate is measured: the share of the kernels' own time a
   * training framework's step reaches, fitted on the calibration steps (a stand-in, issue 59).
   */
  training: fraction.optional(),
  /** Launch and tail of one kernel in a framework (µs). */
  kernelUs: z.number().nonnegative().max(1000),
  from: cellIds,
});

const WeightKindSchema = z.strictObject({
  /** Extra compute of a many-row GEMM over packed weights, as a share of its fp16 compute. */
  dequant: z.number().nonnegative().max(10),
  /** Packed weights streamed by a GEMV, as a fraction of the memory's achieved bandwidth. */
  bandwidth: fraction,
});

const KernelFileSchema = z.strictObject({
  about: z.string(),
  version: z.literal(1),
  architectures: z.record(z.string(), ArchitectureSchema),
  memory: z.record(z.string(), z.strictObject({ bandwidth: fraction, from: cellIds })),
  /** Band of a datasheet prediction: measured / predicted time of published cells, 5th to 95th percentile. */
  band: z.strictObject({ low: fraction, high: z.number().min(1).max(10), from: z.array(z.string()) }),
  /** How far datasheet predictions were from the held-out published cells (bench/published). */
  checked: z.strictObject({
    date: z.string(),
    command: z.string(),
    heldOutCells: z.number().int().nonnegative(),
    medianAbsError: z.number().nonnegative(),
    within15: fraction.or(z.literal(0)),
    byKind: z.record(z.string(), z.number().nonnegative()),
    calibrationCells: z.number().int().nonnegative(),
    calibrationMedianAbsError: z.number().nonnegative(),
  }),
  weights: z
    .object({ about: z.string() })
    .catchall(z.union([z.string(), WeightKindSchema]))
    .transform(({ about: _about, ...kinds }) => kinds as Record<string, z.infer<typeof WeightKindSchema>>),
});

export type ArchitectureEfficiency = z.infer<typeof ArchitectureSchema>;
export type WeightKindEfficiency = z.infer<typeof WeightKindSchema>;
export type KernelEfficiencies = z.infer<typeof KernelFileSchema>;

/** The shipped fractions. */
export const KERNEL_EFFICIENCIES: KernelEfficiencies = KernelFileSchema.parse(kernelFile);

/** The architecture's fractions; an architecture the file does not list takes the closest older one's. */
export function architectureEfficiency(architecture: string, table = KERNEL_EFFICIENCIES): ArchitectureEfficiency {
  const own = table.architectures[architecture];
  if (own) return own;
  const known = Object.values(table.architectures);
  return known[known.length - 1] as ArchitectureEfficiency;
}

/** The share of its burst compute rate an architecture holds at its power limit (`sustained`); 1 where none is measured. */
export const sustainedShare = (arch: ArchitectureEfficiency): number => arch.sustained ?? 1;

/** Achieved fraction of a memory type's datasheet bandwidth (HBM3, GDDR6X...); 0.85 when unlisted. */
export function memoryEfficiency(memoryType: string, table = KERNEL_EFFICIENCIES): number {
  return table.memory[memoryType]?.bandwidth ?? 0.85;
}

const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;

/** One line: how far datasheet estimates were from published measurements they were not tuned on. */
export function publishedErrorText(table = KERNEL_EFFICIENCIES): string {
  const c = table.checked;
  const kinds = ['training', 'prefill', 'decode']
    .filter((k) => c.byKind[k] !== undefined)
    .map((k) => `${k} ${pct(c.byKind[k] ?? 0)}`)
    .join(', ');
  return (
    `datasheet estimates were off by a median ${pct(c.medianAbsError)} on ${c.heldOutCells} held-out published measurements ` +
    `(${pct(c.within15)} within ±15%; ${kinds}; bench/RESULTS.md), band ${table.band.low}x-${table.band.high}x of the time`
  );
}
