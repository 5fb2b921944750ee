import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../../../src-main/adapters/ort/protocol.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import type { KernelSpec } from '../../../../src-main/core/kernels/types.js';
import type { RunOverhead } from '../../../../src-main/core/profiler/overhead.js';
import {
  ReorderLabels,
  reorderTimings,
  type ReorderTiming,
} from '../../../../src-main/services/profile/inserted-reorders.js';

type Ok = Extract<RunOutcome, { ok: true }>;
const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.05, budgetMs: 60 };
const overhead: RunOverhead = { runUs: 10, nodeUs: 0.2, profilerNodeUs: 1.5, points: [] };
const conv = makeKernel('Conv', 'fp32', { N: 1, C: 16, H: 16, W: 16, K: 32, R: 3, S: 3, stride: 1, groups: 1 });

/** Eight runs of one time: enough for a median's confidence interval. */
const runs = (us: number): number[] => new Array<number>(8).fill(us);

function outcome(byOpUs: Record<string, number[]>, extra: Partial<Ok> = {}): Ok {
  return {
    id: 0,
    ok: true,
    kernelUs: runs(50),
    wallUs: runs(80),
    providers: ['CPUExecutionProvider'],
    byOpUs,
    nodeOps: {},
    stop: 'converged',
    sessionCreateMs: 1,
    ...extra,
  };
}

describe('reorderTimings: the reorders a traced NCHWc kernel brought along', () => {
  it('labels each as a kernel is labelled: trace time less the profiler cost, plus the per-node cost', () => {
    const t = reorderTimings(conv, outcome({ ReorderInput: runs(5.5), ReorderOutput: runs(9.5) }), overhead, rule);
    expect(t.map((r) => [r.spec.op, r.spec.shape])).toEqual([
      ['ReorderInput', { N: 1, C: 16, H: 16, W: 16 }],
      ['ReorderOutput', { N: 1, C: 32, H: 16, W: 16 }],
    ]);
    expect(t[0]?.summary.medianUs).toBeCloseTo(5.5 - 1.5 + 0.2, 9);
    expect(t[1]?.summary.medianUs).toBeCloseTo(9.5 - 1.5 + 0.2, 9);
  });

  it('only the reorders that ran (a few-channel first conv reads NCHW: no ReorderInput)', () => {
    const t = reorderTimings(conv, outcome({ ReorderOutput: runs(9) }), null, rule);
    expect(t.map((r) => r.spec.op)).toEqual(['ReorderOutput']);
    expect(t[0]?.summary.medianUs).toBe(9);
  });

  it('none from chained or self-timed runs, from kernels ORT never runs in NCHWc, or when noisy', () => {
    const times = { ReorderInput: runs(5) };
    const chained = outcome(times, { chained: { copies: 5, singleUs: [1], chainUs: [2] } });
    expect(reorderTimings(conv, chained, null, rule)).toEqual([]);
    expect(reorderTimings(conv, outcome(times, { timedBy: 'wall-clock' }), null, rule)).toEqual([]);
    const gemm = makeKernel('Gemm', 'fp32', { M: 8, N: 8, K: 8 });
    expect(reorderTimings(gemm, outcome(times), null, rule)).toEqual([]);
    expect(reorderTimings(conv, outcome({ ReorderInput: [1, 30, 2, 60, 5, 1, 40, 3] }), null, rule)).toEqual([]);
  });
});

describe('ReorderLabels: one label per reorder and run', () => {
  const timing = (spec: KernelSpec, medianUs: number): ReorderTiming => ({
    spec,
    summary: {
      medianUs,
      p10Us: medianUs,
      p90Us: medianUs,
      meanUs: medianUs,
      cv: 0,
      repetitions: 5,
      rejected: 0,
      ciHalfWidth: 0,
    },
  });
  const a = makeKernel('ReorderInput', 'fp32', { N: 1, C: 16, H: 8, W: 8 });
  const b = makeKernel('ReorderOutput', 'fp32', { N: 1, C: 32, H: 8, W: 8 });

  it('stores the first sighting, replaces it with a lower median only, and leaves an earlier run’s alone', () => {
    const stored: [string, number, boolean][] = [];
    const labels = new ReorderLabels(
      (k) => k.id === b.id,
      (t, replace) => stored.push([t.spec.op, t.summary.medianUs, replace]),
    );
    labels.add([timing(a, 6), timing(b, 9)]);
    labels.add([timing(a, 7)]);
    labels.add([timing(a, 4), timing(b, 1)]);
    expect(stored).toEqual([
      ['ReorderInput', 6, false],
      ['ReorderInput', 4, true],
    ]);
    expect(labels.count).toBe(1);
  });

  it('re-makes every reorder this run stored, and none an earlier run stored', () => {
    const stored: [string, number, boolean][] = [];
    const labels = new ReorderLabels(
      (k) => k.id === b.id,
      (t, replace) => stored.push([t.spec.op, t.summary.medianUs, replace]),
    );
    labels.add([timing(a, 6), timing(b, 9)]);
    expect(labels.storedUs()).toEqual([6]);
    labels.remake((s) => ({ ...s, medianUs: s.medianUs + 1 }));
    expect(stored).toEqual([
      ['ReorderInput', 6, false],
      ['ReorderInput', 7, true],
    ]);
    expect(labels.storedUs()).toEqual([7]);
    // A later sighting is compared with the re-made label.
    labels.add([timing(a, 6.5)]);
    expect(stored.at(-1)).toEqual(['ReorderInput', 6.5, true]);
  });
});
