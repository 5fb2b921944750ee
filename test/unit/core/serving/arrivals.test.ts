/** Arrivals: Poisson and bursts keep their mean rate, bursts their spread, the same seed the same times. */
import { describe, expect, it } from 'vitest';
import { arrivalCount, arrivalTimesUs, type ArrivalSpec } from '../../../../src-main/core/serving/arrivals.js';

/** Mean and coefficient of variation of the gaps (µs). */
function gapStats(at: Float64Array): { mean: number; cv: number } {
  const gaps = Array.from(at.subarray(1), (t, i) => t - (at[i] as number));
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length);
  return { mean, cv: sd / mean };
}

describe('arrivalTimesUs', () => {
  it('Poisson at a rate: gaps average 1/rate with CV 1 (within 5% over 20,000 arrivals)', () => {
    const { mean, cv } = gapStats(arrivalTimesUs({ kind: 'rate', perSecond: 20, seed: 5 }, 20_000));
    expect(mean / 50_000).toBeCloseTo(1, 1);
    expect(Math.abs(cv - 1)).toBeLessThan(0.05);
  });

  it.each([0.5, 2, 4])('bursts at CV %f keep the rate and spread the gaps that much (within 10%)', (cv) => {
    const s = gapStats(arrivalTimesUs({ kind: 'burst', perSecond: 10, cv, seed: 3 }, 40_000));
    expect(Math.abs(s.mean / 100_000 - 1)).toBeLessThan(0.1);
    expect(Math.abs(s.cv / cv - 1)).toBeLessThan(0.1);
  });

  it('gives the same times for the same seed and others for another', () => {
    const spec = (seed: number): ArrivalSpec => ({ kind: 'burst', perSecond: 5, cv: 2, seed });
    expect(arrivalTimesUs(spec(1), 100)).toEqual(arrivalTimesUs(spec(1), 100));
    expect(arrivalTimesUs(spec(2), 100)).not.toEqual(arrivalTimesUs(spec(1), 100));
  });

  it('takes a trace as it is (s to µs), at most its rows, and refuses one out of order naming the row', () => {
    const trace: ArrivalSpec = { kind: 'trace', atSeconds: [0.5, 1, 1, 2.25] };
    expect(arrivalCount(trace, 10)).toBe(4);
    expect([...arrivalTimesUs(trace, 4)]).toEqual([500_000, 1_000_000, 1_000_000, 2_250_000]);
    expect(() => arrivalTimesUs({ kind: 'trace', atSeconds: [1, 3, 2] }, 3)).toThrow(/^trace row 3: /);
  });

  it('puts offline and closed-loop requests at 0, and refuses a rate that is not a positive number', () => {
    expect([...arrivalTimesUs({ kind: 'offline' }, 3)]).toEqual([0, 0, 0]);
    for (const perSecond of [0, -1, Infinity, NaN]) {
      expect(() => arrivalTimesUs({ kind: 'rate', perSecond }, 3)).toThrow(/positive number of requests per second/);
    }
    expect(() => arrivalTimesUs({ kind: 'burst', perSecond: 1, cv: 0 }, 3)).toThrow(/CV/);
  });
});
