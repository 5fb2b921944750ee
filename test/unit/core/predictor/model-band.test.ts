/** The 90% band of a whole-model prediction: split conformal over other models' residuals. */
import { describe, expect, it } from 'vitest';
import { conformalQ, modelBand, type Residual } from '../../../../src-main/core/predictor/model-band.js';
import { seededRandom } from '../../../../src-main/core/random.js';

const residual = (model: string, logRatio: number, threads: number | null = 2, predictedUs = 1000): Residual => ({
  model,
  threads,
  logRatio,
  predictedUs,
});

describe('conformalQ', () => {
  it('is the ceil((n + 1) 0.9)-th smallest |residual|, and needs at least 9', () => {
    expect(conformalQ([0.1, -0.2, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8])).toBeNull();
    // n = 9: the 9th smallest, the largest.
    expect(conformalQ([0.1, -0.2, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, -0.9])).toBe(0.9);
    // n = 19: the 18th smallest.
    expect(conformalQ(Array.from({ length: 19 }, (_, i) => (i + 1) / 100))).toBe(0.18);
  });

  it('covers at least 90% of new draws from the same distribution', () => {
    const r = seededRandom(7);
    const normal = (): number => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    let inside = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      const q = conformalQ(Array.from({ length: 19 }, () => 0.2 * normal())) as number;
      if (Math.abs(0.2 * normal()) <= q) inside++;
    }
    expect(inside / trials).toBeGreaterThanOrEqual(0.88);
  });
});

describe('modelBand', () => {
  const checks = Array.from({ length: 12 }, (_, i) => residual(`m${i}`, (i % 2 ? 1 : -1) * (i + 1) * 0.01));
  const shipped = Array.from({ length: 10 }, (_, i) => residual(`bench${i}`, 0.5, 1));

  it("stands on the device's checks of other models at the same thread count, leaving the model's own out", () => {
    const b = modelBand(1000, { model: 'm11', threads: 2 }, checks, shipped);
    expect(b.from).toBe('checks');
    expect(b.n).toBe(11);
    // 11 others: the ceil(12 x 0.9) = 11th smallest of 0.01..0.11.
    expect(b.q).toBeCloseTo(0.11, 10);
    expect(b.lowUs).toBeCloseTo(1000 * Math.exp(-0.11), 6);
    expect(b.highUs).toBeCloseTo(1000 * Math.exp(0.11), 6);
  });

  it('pools the shipped residuals while the checks are too few, and says so', () => {
    const b = modelBand(1000, { model: 'x', threads: 2 }, checks.slice(0, 3), shipped);
    expect(b.from).toBe('checks+shipped');
    expect(b.n).toBe(13);
    expect(modelBand(1000, { model: 'x', threads: 2 }, [], shipped).from).toBe('shipped');
  });

  it('takes residuals of models of its own size first: overhead-bound small models err more', () => {
    const small = Array.from({ length: 10 }, (_, i) => residual(`s${i}`, 0.5, 2, 30));
    const b = modelBand(1000, { model: 'x', threads: 2 }, [...checks, ...small], []);
    expect(b.q).toBeLessThan(0.2);
    expect(modelBand(40, { model: 'x', threads: 2 }, [...checks, ...small], []).q).toBeCloseTo(0.5, 10);
  });

  it('falls back to the widest residual seen when even the pool is too few', () => {
    const b = modelBand(1000, { model: 'x', threads: 1 }, [residual('a', -0.3)], [residual('b', 0.2)]);
    expect(b.q).toBeCloseTo(0.3, 10);
    expect(modelBand(1000, { model: 'x', threads: 1 }, [], []).q).toBeCloseTo(Math.log(2), 10);
  });
});
