/**
 * Profile runs and measurements: what the profiler stores. Pure.
 */
import { z } from 'zod';
import { DTYPE_NAMES } from './dtypes.js';

const nonNegative = z.number().finite().nonnegative();
const positive = z.number().finite().positive();

export const DtypeSchema = z.enum(DTYPE_NAMES);
export type { Dtype } from './dtypes.js';

export const RunStatusSchema = z.enum(['running', 'complete', 'interrupted', 'failed']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** How one kernel of a profile came out: measured, measured but noisier than the rule allows, or failed. */
export type KernelStatus = 'measured' | 'noisy' | 'failed';

export const ProfileRunSchema = z.object({
  /** Stable identifier (uuid) so runs keep their identity across export/import. */
  id: z.string().min(1).max(100),
  deviceKey: z.string(),
  suite: z.string(),
  executionProvider: z.string(),
  threads: z.number().int().nonnegative().nullable(),
  runtimeVersion: z.string(),
  status: RunStatusSchema,
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Derived device summary (measured roofline); free-form until the profiler defines it. */
  summary: z.record(z.string(), z.unknown()).nullable(),
  notes: z.array(z.string()),
});
export type ProfileRun = z.infer<typeof ProfileRunSchema>;

const TimingStatsSchema = z.object({
  /** Microseconds. */
  medianUs: positive,
  p10Us: positive,
  p90Us: positive,
  /** Coefficient of variation (stddev / mean). */
  cv: nonNegative,
  repetitions: z.number().int().positive(),
  /** Wall-clock median per run, microseconds (includes binding overhead). */
  wallMedianUs: positive.nullable(),
});

export const MeasurementSchema = z.object({
  runId: z.string(),
  deviceKey: z.string(),
  /** Kernel kind, e.g. "MatMul", "Conv", "Softmax". */
  op: z.string().min(1).max(64),
  /** Op family the predictor groups by, e.g. "gemm", "conv", "elementwise". */
  family: z.string().min(1).max(64),
  /** Named dimensions, e.g. {B:1, M:512, N:512, K:512}. */
  shape: z.record(z.string(), z.number().int().nonnegative()),
  dtype: DtypeSchema,
  flops: nonNegative,
  bytes: nonNegative,
  executionProvider: z.string(),
  threads: z.number().int().nonnegative().nullable(),
  runtimeVersion: z.string(),
  stats: TimingStatsSchema,
  /** "profile" (micro-kernel) or "model" (node of a measured user model). */
  source: z.enum(['profile', 'model']),
});
export type Measurement = z.infer<typeof MeasurementSchema>;

/** What a measurement timed: the kernel (op, family, shape, dtype) and its work (flops, bytes). */
export type MeasuredOp = Pick<Measurement, 'op' | 'family' | 'shape' | 'dtype' | 'flops' | 'bytes'>;

/** The kernel and work of a measurement, without where, how or how long (a predictor's op). */
export function measuredOp(m: MeasuredOp): MeasuredOp {
  return { op: m.op, family: m.family, shape: m.shape, dtype: m.dtype, flops: m.flops, bytes: m.bytes };
}

/** Canonical key of a shape: keys sorted, so {M,N,K} in any order maps to one key. */
export function shapeKey(shape: Record<string, number>): string {
  return Object.keys(shape)
    .sort()
    .map((k) => `${k}=${shape[k]}`)
    .join(',');
}
