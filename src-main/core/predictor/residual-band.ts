/**
 * Uncertainty bands from training residuals: per op family, the 10th and 90th
 * percentile of log(actual / predicted). A prediction's band is its value scaled by
 * those factors. Pure.
 */
import { z } from 'zod';
import { quantileSorted, sorted } from '../profiler/timing-stats.js';

export const BandSchema = z.object({ lo: z.number(), hi: z.number() });
export type Band = z.infer<typeof BandSchema>;
export const BandTableSchema = z.record(z.string(), BandSchema);
export type BandTable = z.infer<typeof BandTableSchema>;

const DEFAULT_BAND: Band = { lo: Math.log(0.7), hi: Math.log(1.4) };

export function fitBands(rows: readonly { family: string; actual: number; predicted: number }[]): BandTable {
  const byFamily = new Map<string, number[]>();
  const all: number[] = [];
  for (const r of rows) {
    if (!(r.actual > 0 && r.predicted > 0)) continue;
    const v = Math.log(r.actual / r.predicted);
    all.push(v);
    byFamily.set(r.family, [...(byFamily.get(r.family) ?? []), v]);
  }
  const band = (vs: number[]): Band => {
    const s = sorted(vs);
    return { lo: Math.min(0, quantileSorted(s, 0.1)), hi: Math.max(0, quantileSorted(s, 0.9)) };
  };
  const table: BandTable = {};
  for (const [f, vs] of byFamily) if (vs.length >= 5) table[f] = band(vs);
  table['*'] = all.length >= 5 ? band(all) : DEFAULT_BAND;
  return table;
}

export function applyBand(table: BandTable, family: string, timeUs: number): { lowUs: number; highUs: number } {
  const b = table[family] ?? table['*'] ?? DEFAULT_BAND;
  return { lowUs: timeUs * Math.exp(b.lo), highUs: timeUs * Math.exp(b.hi) };
}
