import { describe, expect, it } from 'vitest';
import {
  isNoisy,
  medianCiHalfWidth,
  quantileSorted,
  rejectOutliers,
  shouldStop,
  sorted,
  spreadText,
  summarize,
  type StoppingRule,
} from '../../../../src-main/core/profiler/timing-stats.js';

const rule: StoppingRule = { warmupRuns: 2, minRepetitions: 7, maxRepetitions: 50, targetCi: 0.02, budgetMs: 100 };

describe('timing statistics', () => {
  it('computes interpolated quantiles', () => {
    const s = sorted([5, 1, 4, 2, 3]);
    expect(quantileSorted(s, 0.5)).toBe(3);
    expect(quantileSorted(s, 0.1)).toBeCloseTo(1.4);
    expect(quantileSorted(s, 0.9)).toBeCloseTo(4.6);
  });

  it('summarizes median, p10, p90, cv and repetitions', () => {
    const s = summarize([100, 102, 98, 101, 99, 100, 103, 97, 100, 100]);
    expect(s.medianUs).toBe(100);
    expect(s.p10Us).toBeCloseTo(97.9, 5);
    expect(s.p90Us).toBeCloseTo(102.1, 5);
    expect(s.repetitions).toBe(10);
    expect(s.cv).toBeGreaterThan(0.01);
    expect(s.cv).toBeLessThan(0.03);
  });

  it('rejects runs disturbed far above the median, never fast ones', () => {
    const { kept, rejected } = rejectOutliers([100, 101, 99, 100, 5000, 100, 60, 101]);
    expect(rejected).toBe(1);
    expect(kept).toContain(60);
    expect(kept).not.toContain(5000);
  });

  it('narrows the confidence interval of the median as samples grow', () => {
    const noisy = (n: number): number[] => Array.from({ length: n }, (_, i) => 100 + ((i * 37) % 11) - 5);
    expect(medianCiHalfWidth(sorted(noisy(5)))).toBe(Number.POSITIVE_INFINITY);
    const wide = medianCiHalfWidth(sorted(noisy(10)));
    const narrow = medianCiHalfWidth(sorted(noisy(400)));
    expect(narrow).toBeLessThan(wide);
    expect(narrow).toBeLessThanOrEqual(0.02);
  });

  it('stops when converged, at the budget, or at the repetition cap', () => {
    const steady = Array.from({ length: 20 }, () => 100);
    expect(shouldStop(steady.slice(0, 3), 1, rule)).toBeNull();
    expect(shouldStop(steady, 1, rule)).toBe('converged');
    const noisy = Array.from({ length: 20 }, (_, i) => (i % 2 ? 100 : 150));
    expect(shouldStop(noisy, 10, rule)).toBeNull();
    expect(shouldStop(noisy, 150, rule)).toBe('budget');
    expect(
      shouldStop(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? 100 : 150)),
        1,
        rule,
      ),
    ).toBe('max-repetitions');
    // Slow kernels: a few samples are enough once four budgets are spent.
    expect(shouldStop([5e5, 5e5, 5e5], 450, rule)).toBe('budget');
  });

  it('times at least the minimum duration, unless the repetition cap stops it first', () => {
    const steady = Array.from({ length: 20 }, () => 100);
    const long = { ...rule, minDurationMs: 1000 };
    expect(shouldStop(steady, 1, long)).toBeNull();
    expect(shouldStop([5e5, 5e5, 5e5], 450, long)).toBeNull();
    expect(shouldStop(steady, 1000, long)).toBe('converged');
    expect(
      shouldStop(
        Array.from({ length: 50 }, () => 100),
        1,
        long,
      ),
    ).toBe('max-repetitions');
  });

  it('calls a measurement noisy when its median could not be pinned down', () => {
    expect(isNoisy(summarize(Array.from({ length: 30 }, () => 100)), rule)).toBe(false);
    expect(isNoisy(summarize([100, 180, 90, 200, 95, 170, 100, 210]), rule)).toBe(true);
  });
});

describe('spread in words', () => {
  it('gives the median interval and cv when there are enough runs', () => {
    expect(spreadText({ ciHalfWidth: 0.153, cv: 0.08, repetitions: 40 })).toBe('median within ±15%, cv 0.08');
  });

  it('says how many runs there were when too few bound the median, never ±Infinity%', () => {
    const s = summarize([7600, 7700, 7650, 7800]);
    expect(spreadText(s)).toBe('4 runs, too few to bound the median, cv 0.01');
    expect(spreadText({ ciHalfWidth: Number.POSITIVE_INFINITY, cv: 0, repetitions: 1 })).toBe(
      '1 run, too few to bound the median, cv 0.00',
    );
  });
});
