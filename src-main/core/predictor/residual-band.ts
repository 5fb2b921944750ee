/**
 * 90% bands for single-op predictions, from residuals log(actual / predicted) the predictor
 * did not fit (the forest's out-of-bag rows; the linear and analytical predictors' own rows).
 * Mondrian: a band per op family and thread count where that cell has BAND_MIN_ROWS residuals,
 * else per family, else over all rows; each is the 5th and 95th percentile, so a band holds 90%
 * of the residuals of its kind. A prediction's band is its value scaled by those factors. Pure.
 */
import { z } from 'zod';
import { quantileSorted, sorted } from '../profiler/timing-stats.js';
import { extrapolationWarning, type TrainingRanges } from './training-ranges.js';
import type { OpQuery, Prediction } from './types.js';

const BandSchema = z.object({ lo: z.number(), hi: z.number() });
export type Band = z.infer<typeof BandSchema>;
/** Keyed by `family@threads`, `family`, and '*' (all rows). */
export const BandTableSchema = z.record(z.string(), BandSchema);
export type BandTable = z.infer<typeof BandTableSchema>;

/** The interval's coverage: the 5th to the 95th percentile. */
const BAND_COVERAGE = 0.9;
/** Residuals a cell needs before its own percentiles stand (fewer: the next coarser cell). */
export const BAND_MIN_ROWS = 20;
/** Before any residual: a wide guess. */
export const DEFAULT_BAND: Band = { lo: Math.log(0.6), hi: Math.log(1.6) };

export interface Residual {
  family: string;
  /** Thread count of the device the row was measured on; null for a GPU. */
  threads: number | null;
  actual: number;
  predicted: number;
}

const cellKey = (family: string, threads: number | null): string => `${family}@${threads ?? '-'}`;

export function fitBands(rows: readonly Residual[]): BandTable {
  const cells = new Map<string, number[]>();
  const push = (key: string, v: number): void => {
    const list = cells.get(key);
    if (list) list.push(v);
    else cells.set(key, [v]);
  };
  for (const r of rows) {
    if (!(r.actual > 0 && r.predicted > 0)) continue;
    const v = Math.log(r.actual / r.predicted);
    push(cellKey(r.family, r.threads), v);
    push(r.family, v);
    push('*', v);
  }
  const tail = (1 - BAND_COVERAGE) / 2;
  const table: BandTable = {};
  for (const [key, vs] of cells) {
    if (vs.length < BAND_MIN_ROWS) continue;
    const s = sorted(vs);
    table[key] = { lo: Math.min(0, quantileSorted(s, tail)), hi: Math.max(0, quantileSorted(s, 1 - tail)) };
  }
  return table;
}

/** The band of a query's cell: its family at its thread count, else its family, else all rows. */
export function bandFor(table: BandTable, family: string, threads: number | null): Band {
  return table[cellKey(family, threads)] ?? table[family] ?? table['*'] ?? DEFAULT_BAND;
}

export function applyBand(
  table: BandTable,
  family: string,
  threads: number | null,
  timeUs: number,
): { lowUs: number; highUs: number } {
  const b = bandFor(table, family, threads);
  return { lowUs: timeUs * Math.exp(b.lo), highUs: timeUs * Math.exp(b.hi) };
}

/** A point estimate as a prediction: its cell's band around it, and a warning outside the trained ranges. */
export function bandedPrediction(table: BandTable, ranges: TrainingRanges, q: OpQuery, timeUs: number): Prediction {
  return {
    timeUs,
    ...applyBand(table, q.family, q.device.threads, timeUs),
    warning: extrapolationWarning(ranges, q),
  };
}
