import { describe, expect, it } from 'vitest';
import {
  crowdedKernels,
  keptMode,
  oneThreadCeiling,
  referenceDrift,
  roundSpread,
  slowerThanOneThread,
  type KernelRounds,
} from '../../../../src-main/core/profiler/round-agreement.js';

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

describe('referenceDrift: the machine’s drift a later timing is divided by', () => {
  it('is the geometric mean of the reference’s two readings over its label, slower or a little faster', () => {
    expect(referenceDrift(1.2, 1.2, 0.05)).toBeCloseTo(1.2, 9);
    expect(referenceDrift(1.1, 1.4, 0.4)).toBeCloseTo(Math.sqrt(1.1 * 1.4), 9);
    expect(referenceDrift(0.8, 0.8, 0.4)).toBeCloseTo(0.8, 9);
  });

  it('counts a reading faster than the label by more than the run’s spread as 1: the reference’s label was a slow mode, not the machine', () => {
    // The Zen 4 guest's run s, first store, 2 threads (spread ±40%): the reference read x0.46.
    expect(referenceDrift(0.46, 0.46, 0.4)).toBe(1);
    expect(referenceDrift(0.46, 1.2, 0.4)).toBeCloseTo(Math.sqrt(1.2), 9);
    // Within the spread it is the machine's drift, as before.
    expect(referenceDrift(0.75, 0.75, 0.4)).toBeCloseTo(0.75, 9);
  });

  it('is null when either reading is missing', () => {
    expect(referenceDrift(null, 1, 0.1)).toBeNull();
    expect(referenceDrift(1, null, 0.1)).toBeNull();
  });

  it('lets the later timing side with the round the rest of the run supports (the conv of run s)', () => {
    const rounds = [93.4, 37.8];
    const later = 36.8;
    const old = keptMode([...rounds, later / 0.46], 0.4, true);
    expect(old.kept).toEqual([0, 2]);
    const now = keptMode([...rounds, later / (referenceDrift(0.46, 0.46, 0.4) as number)], 0.4, true);
    expect(now).toEqual({ us: (37.8 + 36.8) / 2, kept: [1, 2], settled: true });
  });
});

describe('the same kernel on one thread bounds it at more threads', () => {
  const one = new Map([
    ['slow', 54],
    ['fast', 50],
    ['tiny', 1.2],
    ['edge', 40],
  ]);
  const rounds: KernelRounds[] = [
    { id: 'slow', roundsUs: [312, 305] },
    { id: 'fast', roundsUs: [26, 27] },
    { id: 'tiny', roundsUs: [6.2, 6.1] },
    { id: 'edge', roundsUs: [50, 200] },
    { id: 'unseen', roundsUs: [900, 910] },
  ];
  it('re-times a kernel whose every round is slower than its 1-thread label by more than the run’s spread, worst first', () => {
    const flagged = slowerThanOneThread(rounds, (id) => one.get(id), 0.4);
    expect(flagged.map((d) => d.id)).toEqual(['slow']);
    expect(flagged[0]?.deviation).toBeCloseTo(305 / 54 - 1, 6);
    expect(flagged[0]?.oneThreadUs).toBe(54);
    // One round within the ceiling (50 <= 40 x 1.4): not all its rounds are slower.
    expect(slowerThanOneThread(rounds, (id) => one.get(id), 0.2).map((d) => d.id)).toEqual(['slow', 'edge']);
    expect(slowerThanOneThread(rounds, (id) => one.get(id), 0.4, new Set(['slow']))).toEqual([]);
  });
  it('bounds nothing under 10 µs on one thread (a pool’s wake-up is real there) or without a 1-thread label', () => {
    expect(oneThreadCeiling(1.2, 0.4)).toBeUndefined();
    expect(oneThreadCeiling(undefined, 0.4)).toBeUndefined();
    expect(oneThreadCeiling(54, 0.4)).toBeCloseTo(75.6, 6);
  });
  it('keeps a value under the ceiling over a cluster above it, and the usual mode when none is under', () => {
    expect(keptMode([87, 541, 505], 0.39, false, 231)).toEqual({ us: 87, kept: [0], settled: true });
    expect(keptMode([312, 305, 26], 0.39, false, 75.6)).toEqual({ us: 26, kept: [2], settled: true });
    expect(keptMode([312, 305, 330], 0.39, false, 75.6)).toEqual({ us: 305, kept: [0, 1, 2], settled: true });
    expect(keptMode([26, 27, 300], 0.39, false, 75.6)).toEqual({ us: 26, kept: [0, 1], settled: true });
  });
});

describe('crowdedKernels: kernels every round of which shared its CPUs with other work', () => {
  const rounds = [
    { id: 'elementwise', roundsUs: [220, 225] },
    { id: 'once', roundsUs: [110, 230] },
    { id: 'gemm', roundsUs: [10_900, 10_800] },
    { id: 'unread', roundsUs: [50, 50] },
  ];
  const beside = new Map<string, (number | null)[]>([
    ['elementwise', [0.8, 0.6]],
    ['once', [0.1, 0.9]],
    ['gemm', [0.9, 1.0]],
    ['unread', [null, null]],
  ]);
  it('lists those crowded in every round, most crowded first, with the least other work beside a round', () => {
    const c = crowdedKernels(rounds, (id) => beside.get(id), 2, 2);
    expect(c.map((d) => d.id)).toEqual(['gemm', 'elementwise']);
    expect(c[1]?.besideCpus).toBeCloseTo(0.6, 6);
    expect(crowdedKernels(rounds, (id) => beside.get(id), 2, 2, new Set(['gemm'])).map((d) => d.id)).toEqual([
      'elementwise',
    ]);
  });
  it('lists nothing at 1 thread beside one CPU of other work on 2 CPUs', () => {
    expect(crowdedKernels(rounds, (id) => beside.get(id), 1, 2)).toEqual([]);
  });
});
