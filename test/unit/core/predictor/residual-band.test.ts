import { describe, expect, it } from 'vitest';
import {
  applyBand,
  BAND_MIN_ROWS,
  bandFor,
  DEFAULT_BAND,
  fitBands,
} from '../../../../src-main/core/predictor/residual-band.js';

/** n residuals of a family at a thread count, actual = predicted * exp(v) for v evenly over [lo, hi]. */
function rows(family: string, threads: number | null, n: number, lo: number, hi: number) {
  return Array.from({ length: n }, (_, i) => ({
    family,
    threads,
    predicted: 100,
    actual: 100 * Math.exp(lo + ((hi - lo) * i) / (n - 1)),
  }));
}

describe('single-op 90% bands', () => {
  it('holds 90% of the residuals of its cell: the 5th to the 95th percentile', () => {
    const table = fitBands(rows('gemm', 1, 101, -0.5, 0.5));
    const b = bandFor(table, 'gemm', 1);
    expect(b.lo).toBeCloseTo(-0.45, 6);
    expect(b.hi).toBeCloseTo(0.45, 6);
  });

  it('keys a band by family and thread count, and falls back to the family, then to all rows', () => {
    const table = fitBands([
      ...rows('gemm', 1, 40, -0.1, 0.1),
      ...rows('gemm', 2, 40, -0.6, 0.6),
      ...rows('conv', 2, BAND_MIN_ROWS - 1, -2, 2),
    ]);
    expect(bandFor(table, 'gemm', 1).hi).toBeLessThan(0.1);
    expect(bandFor(table, 'gemm', 2).hi).toBeGreaterThan(0.5);
    // gemm at 4 threads was never seen: the family's band, both thread counts pooled.
    expect(bandFor(table, 'gemm', 4)).toEqual(table['gemm']);
    // conv has too few rows for a band of its own: the band over all rows.
    expect(bandFor(table, 'conv', 2)).toEqual(table['*']);
    expect(bandFor({}, 'conv', 2)).toEqual(DEFAULT_BAND);
  });

  it('always contains the prediction itself, even when every residual lies on one side', () => {
    const table = fitBands(rows('softmax', 2, 30, 0.2, 0.4));
    const { lowUs, highUs } = applyBand(table, 'softmax', 2, 50);
    expect(lowUs).toBe(50);
    expect(highUs).toBeGreaterThan(50 * Math.exp(0.35));
  });

  it('leaves out rows without a positive time', () => {
    const table = fitBands([
      ...rows('pool', 1, 25, -0.1, 0.1),
      { family: 'pool', threads: 1, actual: 0, predicted: 5 },
    ]);
    expect(Number.isFinite(bandFor(table, 'pool', 1).lo)).toBe(true);
  });
});
