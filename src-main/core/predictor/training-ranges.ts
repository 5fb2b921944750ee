/**
 * What a predictor was trained on, so it can warn instead of silently extrapolating:
 * devices, families, and per family the range of log2 work. Pure.
 */
import { z } from 'zod';
import type { OpInstance, OpQuery, Sample } from './types.js';

export const TrainingRangesSchema = z.object({
  devices: z.array(z.string()),
  families: z.array(z.string()),
  /** Kernel ops seen; absent in predictors trained before it was recorded. */
  ops: z.array(z.string()).optional(),
  /** Whether any 1-D conv (Conv d1) was among them; absent in predictors trained before it was recorded. */
  conv1d: z.boolean().optional(),
  /** Whether any transposed conv (Conv transpose) was among them; as conv1d. */
  convTranspose: z.boolean().optional(),
  /** Per family: [min, max] of log2(flops + bytes). */
  work: z.record(z.string(), z.tuple([z.number(), z.number()])),
});
export type TrainingRanges = z.infer<typeof TrainingRangesSchema>;

const work = (op: OpInstance): number => Math.log2(op.flops + op.bytes + 1);
const isConv =
  (dim: string) =>
  (op: OpInstance): boolean =>
    op.op === 'Conv' && (op.shape[dim] ?? 0) > 0;

/** Convs that run another kernel than a 2-D conv: a profile without them prices them from 2-D convs. */
const CONV_VARIANTS = [
  { flag: 'convTranspose', is: isConv('transpose'), what: 'transposed conv (ConvTranspose)' },
  { flag: 'conv1d', is: isConv('d1'), what: '1-D conv' },
] as const;

export function trainingRanges(samples: readonly Sample[]): TrainingRanges {
  const w: Record<string, [number, number]> = {};
  for (const s of samples) {
    const v = work(s);
    const r = w[s.family];
    w[s.family] = r ? [Math.min(r[0], v), Math.max(r[1], v)] : [v, v];
  }
  return {
    devices: [...new Set(samples.map((s) => s.device.deviceId))].sort(),
    families: [...new Set(samples.map((s) => s.family))].sort(),
    ops: [...new Set(samples.map((s) => s.op))].sort(),
    ...Object.fromEntries(CONV_VARIANTS.map((v) => [v.flag, samples.some(v.is)])),
    work: w,
  };
}

/** Why a query lies outside the training data, or null. */
export function extrapolationWarning(r: TrainingRanges, q: OpQuery): string | null {
  const reasons: string[] = [];
  if (!r.families.includes(q.family)) reasons.push(`op family "${q.family}" was never profiled`);
  else if (r.ops && !r.ops.includes(q.op)) {
    reasons.push(`no ${q.op} kernel was profiled: priced from other ${q.family} ops (re-profile with this version)`);
  } else {
    const missing = CONV_VARIANTS.find((v) => r[v.flag] === false && v.is(q));
    if (missing) reasons.push(`no ${missing.what} was profiled: priced from 2-D convs (re-profile with this version)`);
  }
  if (!r.devices.includes(q.device.deviceId)) reasons.push(`device ${q.device.deviceId} was not in the training data`);
  const range = r.work[q.family];
  if (range) {
    const v = work(q);
    if (v > range[1] + 0.5) reasons.push(`larger than any profiled ${q.family} op (extrapolating)`);
    else if (v < range[0] - 0.5) reasons.push(`smaller than any profiled ${q.family} op (extrapolating)`);
  }
  return reasons.length ? reasons.join('; ') : null;
}
