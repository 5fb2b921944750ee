import { describe, expect, it } from 'vitest';
import {
  costsOf,
  estimateRunMs,
  expectedKernelMs,
  RETRY_BUDGET,
  retryAllowed,
  retrySlots,
  runItems,
  WorkTracker,
} from '../../../../src-main/core/profiler/profile-plan.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';

const rule = { warmupRuns: 2, minRepetitions: 7, maxRepetitions: 100, targetCi: 0.02, budgetMs: 180 };

describe('the items of a profile run, fixed up front', () => {
  it('counts overhead, calibration rounds, every kernel in every round (refinement slots too) and the retry budget', () => {
    const items = runItems({ kernels: 200, refineSlots: 6, rounds: 2, overhead: true, calibrationRounds: 3 });
    expect(items.kernelTimings).toBe(412);
    expect(items.retries).toBe(retrySlots(412));
    expect(items.total).toBe(1 + 3 + 412 + items.retries);
  });

  it('allows a retry while slots are left and retry time stays within its share of the rest', () => {
    expect(retryAllowed({ slots: 0, retryMs: 0 }, 3, 1000)).toBe(true);
    expect(retryAllowed({ slots: 3, retryMs: 0 }, 3, 1000)).toBe(false);
    expect(retryAllowed({ slots: 1, retryMs: 1000 * RETRY_BUDGET.timeShare + 1 }, 3, 1000)).toBe(false);
  });
});

describe('WorkTracker: progress that never goes back, and time left from measured costs', () => {
  it('keeps its total and only moves forward, skips included', () => {
    const t = new WorkTracker(10);
    const seen: number[] = [];
    t.finish('kernel', 10, 12);
    seen.push(t.done);
    t.skip(3);
    seen.push(t.done);
    t.skip(-5);
    seen.push(t.done);
    t.skip(100);
    seen.push(t.done);
    expect(seen).toEqual([1, 4, 4, 10]);
    expect(t.total).toBe(10);
  });

  it('scales the pending kernels by what the finished ones took against their expectation', () => {
    const t = new WorkTracker(4);
    t.expect('kernel', 40);
    t.finish('kernel', 10, 30);
    // 30 ms of expected kernels pending, running 3x slower than expected.
    expect(t.remainingMs()).toBeCloseTo(90, 9);
  });

  it('uses a past run of this machine before any kernel finished, and then its own measurements', () => {
    const t = new WorkTracker(3, { kernelScale: 2, overheadMs: null, calibrationRoundMs: null });
    t.expect('kernel', 30);
    expect(t.remainingMs()).toBeCloseTo(60, 9);
    t.finish('kernel', 10, 5);
    expect(t.remainingMs()).toBeCloseTo(10, 9);
  });

  it('scales each kind apart: a slow calibration round does not slow the kernels', () => {
    const t = new WorkTracker(5);
    t.expect('calibration', 200);
    t.expect('kernel', 30);
    t.finish('calibration', 100, 400);
    expect(t.remainingMs()).toBeCloseTo(100 * 4 + 30, 9);
    expect(t.costs()).toEqual({ kernelScale: 1, overheadMs: null, calibrationRoundMs: 400 });
  });

  it('says nothing is left once complete', () => {
    const t = new WorkTracker(5);
    t.expect('kernel', 100);
    t.complete();
    expect(t.done).toBe(5);
    expect(t.remainingMs()).toBe(0);
  });
});

describe('the estimate before a run', () => {
  const kernels = [
    makeKernel('MatMul', 'fp32', { B: 1, M: 256, N: 256, K: 256 }),
    makeKernel('Add', 'fp32', { n: 4096 }),
  ];

  it('is the sum of the expected kernel timings over the rounds, plus overhead and calibration', () => {
    const one = kernels.reduce((s, k) => s + expectedKernelMs(k, rule), 0);
    const ms = estimateRunMs({
      kernels,
      refineSlots: 0,
      rounds: 2,
      overhead: true,
      calibrationRounds: 3,
      rule,
      past: { kernelScale: 1.5, overheadMs: 1000, calibrationRoundMs: 500 },
    });
    expect(ms).toBeCloseTo(one * 2 * 1.5 + 1000 + 3 * 500, 6);
  });

  it('reads the costs a run kept in its summary, and ignores a summary without them', () => {
    expect(costsOf({ costs: { kernelScale: 2, overheadMs: 10, calibrationRoundMs: null } })).toEqual({
      kernelScale: 2,
      overheadMs: 10,
      calibrationRoundMs: null,
    });
    expect(costsOf({ peakGflops: {} })).toBeNull();
    expect(costsOf(null)).toBeNull();
  });

  it('expects a kernel no longer than its time budget allows, and at least a session', () => {
    const huge = makeKernel('MatMul', 'fp32', { B: 1, M: 4096, N: 4096, K: 4096 });
    expect(expectedKernelMs(huge, rule)).toBeLessThanOrEqual(25 + rule.budgetMs * 1.5);
    expect(expectedKernelMs(kernels[1] as (typeof kernels)[number], rule)).toBeGreaterThan(25);
  });
});
