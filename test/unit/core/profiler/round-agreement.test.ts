import { describe, expect, it } from 'vitest';
import { keptMode, roundSpread, type KernelRounds } from '../../../../src-main/core/profiler/round-agreement.js';

/** Twenty kernels whose second round lands within ±1% of the first, times the run's drift. */
function steady(drift = 1): KernelRounds[] {
  return Array.from({ length: 20 }, (_, i) => ({
    id: `k${i}`,
    roundsUs: [10 + i, (10 + i) * drift * (1 + ((i % 5) - 2) * 0.005)],
  }));
}

describe('roundSpread: which kernels’ rounds disagree beyond the run’s own spread', () => {
  it('flags a kernel whose rounds differ far more than the rest of the run’s, and names steady references', () => {
    const s = roundSpread([...steady(), { id: 'slow', roundsUs: [100, 140] }]);
    expect(s.disagreeing.map((d) => d.id)).toEqual(['slow']);
    expect(s.disagreeing[0]?.deviation).toBeCloseTo(0.4, 1);
    // The floor: a run this steady still needs 5% before rounds disagree.
    expect(s.threshold).toBeCloseTo(0.05, 6);
    expect(s.steady.length).toBeGreaterThan(5);
    expect(s.steady).not.toContain('slow');
  });

  it('takes out the run’s drift: a round in which the whole machine ran 30% slower flags nothing', () => {
    const s = roundSpread(steady(1.3));
    expect(s.drift[0]).toBeCloseTo(0.3, 2);
    expect(s.disagreeing).toEqual([]);
  });

  it('widens the threshold with the run’s own spread, and re-times at most a tenth of its kernels', () => {
    const noisy = Array.from({ length: 40 }, (_, i) => ({
      id: `n${i}`,
      roundsUs: [10, 10 * (1 + ((i % 9) - 4) * 0.04)],
    }));
    const s = roundSpread([...noisy, { id: 'a', roundsUs: [10, 30] }, { id: 'b', roundsUs: [10, 14] }]);
    expect(s.threshold).toBeGreaterThan(0.2);
    expect(s.disagreeing.map((d) => d.id)).toEqual(['a']);
    const many = roundSpread([
      ...steady(),
      ...Array.from({ length: 10 }, (_, i) => ({ id: `x${i}`, roundsUs: [10, 20] })),
    ]);
    expect(many.disagreeing).toHaveLength(3);
  });

  it('says nothing with one round or too few kernels to know the run’s spread', () => {
    expect(roundSpread(steady().map((k) => ({ id: k.id, roundsUs: k.roundsUs.slice(0, 1) }))).disagreeing).toEqual([]);
    expect(roundSpread([{ id: 'a', roundsUs: [10, 30] }]).threshold).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('keptMode: the value a re-timed kernel keeps', () => {
  it('keeps the cluster two values agree on, not the lone one: the lower for a traced kernel, the mean for a chained one', () => {
    expect(keptMode([100, 150, 102], 0.05, false)).toEqual({ us: 100, kept: [0, 2], settled: true });
    expect(keptMode([100, 60, 102], 0.05, false)).toEqual({ us: 100, kept: [0, 2], settled: true });
    expect(keptMode([150, 100, 102], 0.05, true)).toEqual({ us: 101, kept: [1, 2], settled: true });
  });

  it('is unsettled when no two values agree, and keeps their median', () => {
    expect(keptMode([100, 150, 200], 0.05, true)).toEqual({ us: 150, kept: [0, 1, 2], settled: false });
  });
});
