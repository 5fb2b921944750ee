import { describe, expect, it } from 'vitest';
import {
  ape,
  averageRanks,
  computeMetrics,
  quantile,
  spearman,
} from '../../../../../src-main/core/predictor/evaluation/metrics.js';

describe('evaluation metrics', () => {
  it('matches hand-computed values', () => {
    // APEs: 10/100 = 0.1, 50/200 = 0.25, 0/400 = 0, 50/50 = 1
    const m = computeMetrics([100, 200, 400, 50], [110, 150, 400, 100]);
    expect(m.count).toBe(4);
    expect(m.mape).toBeCloseTo(33.75, 10); // (0.1 + 0.25 + 0 + 1) / 4
    expect(m.medianApe).toBeCloseTo(17.5, 10); // (0.1 + 0.25) / 2
    expect(m.p90Ape).toBeCloseTo(77.5, 10); // position 2.7 of [0, 0.1, 0.25, 1]: 0.25 + 0.7 · 0.75
    expect(m.maxApe).toBeCloseTo(100, 10);
    expect(m.rmspe).toBeCloseTo(100 * Math.sqrt((0.01 + 0.0625 + 0 + 1) / 4), 10);
    expect(m.within5).toBe(25); // only the exact one
    expect(m.within10).toBe(50); // 0.1 counts as within ±10 %
    expect(m.within15).toBe(50);
    expect(m.spearman).toBeCloseTo(1, 12); // same order
  });

  it('counts a prediction exactly 5 % off as within ±5 %', () => {
    const m = computeMetrics([100, 100], [105, 95]);
    expect(m.within5).toBe(100);
    expect(m.mape).toBeCloseTo(5, 10);
  });

  it('gives tied values the average of their ranks', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
    expect(averageRanks([7, 7, 7])).toEqual([2, 2, 2]);
  });

  it('computes Spearman with ties by hand', () => {
    // ranks a: [1, 2.5, 2.5, 4], b: [1.5, 1.5, 3, 4]; centred on 2.5:
    // sab = 1.5·1 + 0 + 0 + 1.5·1.5 = 3.75, saa = 4.5, sbb = 4.5 → 3.75 / 4.5
    expect(spearman([1, 2, 2, 3], [1, 1, 2, 3])).toBeCloseTo(3.75 / 4.5, 12);
    expect(spearman([1, 2, 3, 4], [40, 30, 20, 10])).toBeCloseTo(-1, 12);
    expect(spearman([1, 2, 3], [5, 5, 5])).toBeNaN();
    expect(spearman([1], [2])).toBeNaN();
  });

  it('interpolates quantiles linearly', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantile([0, 10], 0.9)).toBeCloseTo(9, 12);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('is NaN but for count on no data', () => {
    const m = computeMetrics([], []);
    expect(m.count).toBe(0);
    for (const v of [m.mape, m.medianApe, m.rmspe, m.p90Ape, m.maxApe, m.within5, m.spearman]) expect(v).toBeNaN();
  });

  it('refuses non-positive measured times, non-finite predictions and unequal lengths', () => {
    expect(() => ape(0, 1)).toThrow(/measured time/);
    expect(() => ape(10, Number.NaN)).toThrow(/predicted time/);
    expect(() => computeMetrics([1, 2], [1])).toThrow(/as many/);
    expect(ape(200, 150)).toBe(0.25);
  });
});

describe('band metrics', () => {
  it('counts the measured times inside their prediction band and the median half-width', () => {
    const m = computeMetrics(
      [100, 100, 100, 100],
      [100, 90, 120, 100],
      [
        { lowUs: 80, highUs: 120 },
        { lowUs: 85, highUs: 99 },
        { lowUs: 90, highUs: 150 },
        { lowUs: 100, highUs: 110 },
      ],
    );
    expect(m.bandCoverage).toBe(75);
    // half-widths 20%, 10%, 25%, 10%: median 15%
    expect(m.bandHalfWidth).toBeCloseTo(15, 9);
  });

  it('is NaN without bands, or with bands of no width (the roofline gives none)', () => {
    expect(computeMetrics([1, 2], [1, 2]).bandCoverage).toBeNaN();
    const flat = [
      { lowUs: 1, highUs: 1 },
      { lowUs: 3, highUs: 3 },
    ];
    expect(computeMetrics([1, 2], [1, 3], flat).bandCoverage).toBeNaN();
  });
});
