import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import type { KernelSpec } from '../../../../src-main/core/kernels/types.js';
import { tracedLabelUs, type RunOverhead } from '../../../../src-main/core/profiler/overhead.js';
import type { TimingSummary } from '../../../../src-main/core/profiler/timing-stats.js';
import { ReorderLabels } from '../../../../src-main/services/profile/inserted-reorders.js';
import type { RunState, TracedRow } from '../../../../src-main/services/profile/run-state.js';
import { boundTraceCost } from '../../../../src-main/services/profile/trace-cost-bound.js';

const flat = (us: number): TimingSummary => ({
  medianUs: us,
  p10Us: us,
  p90Us: us,
  meanUs: us,
  cv: 0,
  repetitions: 10,
  rejected: 0,
  ciHalfWidth: 0,
});

const relu = makeKernel('Relu', 'fp32', { n: 4096 });
const conv = makeKernel('Conv', 'fp32', { N: 1, C: 16, H: 16, W: 16, K: 32, R: 3, S: 3, stride: 1, groups: 1 });
const reorder = makeKernel('ReorderOutput', 'fp32', { N: 1, C: 8, H: 1, W: 1 });

/** The parts of a run the bound reads and writes: traced rows read as `readings` (µs) with the chain's trace cost. */
function run(chainUs: number, readings: [KernelSpec, number, number][], reorderReadingUs: number) {
  const overhead: RunOverhead = { runUs: 9, nodeUs: 0.2, profilerNodeUs: chainUs, points: [] };
  const rows: [string, number][] = [];
  const traced = new Map<string, TracedRow>(
    readings.map(([spec, nodes, us]) => [
      spec.id,
      { spec, nodes, summary: flat(tracedLabelUs(us, nodes, overhead)), wall: flat(us + 10) },
    ]),
  );
  const reorders = new ReorderLabels(
    () => false,
    (t) => rows.push([t.spec.op, t.summary.medianUs]),
  );
  reorders.add([{ spec: reorder, summary: flat(tracedLabelUs(reorderReadingUs, 1, overhead)) }]);
  rows.length = 0;
  const st = {
    overhead,
    traced,
    reorders,
    report: { notes: [] as string[] },
    aborted: () => false,
    storeRow: (spec: KernelSpec, s: TimingSummary) => rows.push([spec.op, s.medianUs]),
  };
  return { st, rows, result: boundTraceCost(st as unknown as RunState) };
}

describe('boundTraceCost: the trace cost no higher than the run’s quickest traced node', () => {
  it('re-makes every traced row when the chain read more than a one-node kernel did', () => {
    const { st, rows, result } = run(
      3,
      [
        [relu, 1, 2],
        [conv, 1, 40],
      ],
      2,
    );
    expect(result).toEqual({ chainUs: 3, boundedUs: 2, rows: 3 });
    expect(st.overhead.profilerNodeUs).toBe(2);
    // Relu read 2 µs: on the floor at either cost (0.2 + 0.2); Conv read 40 µs: 37.2 -> 38.2.
    expect(rows.map(([op, us]) => [op, Number(us.toFixed(6))])).toEqual([
      ['Relu', 0.4],
      ['Conv', 38.2],
      ['ReorderOutput', 0.4],
    ]);
    expect(st.traced.get(conv.id)?.summary.medianUs).toBeCloseTo(38.2, 9);
    expect(st.report.notes[0]).toContain('the chain read 3 µs');
  });

  it('bounds a chain read between whole µs, and its note says both figures to two decimals', () => {
    const { st, result } = run(2.5 + 1280 / 1300, [[relu, 1, 3]], 4);
    expect(result?.boundedUs).toBe(3);
    expect(st.report.notes[0]).toContain("the chain read 3.48 µs, the run's quickest traced node 3 µs");
  });

  it('leaves the run alone when no one-node reading is below the chain, or only a two-node one is', () => {
    expect(run(2, [[relu, 1, 2]], 3).result).toBeNull();
    const twoNodes = run(3, [[conv, 2, 4]], 5);
    expect(twoNodes.result).toBeNull();
    expect(twoNodes.rows).toEqual([]);
  });

  it('the two stores of bench:prediction run n: chains of 3 and 2 µs over the same readings agree', () => {
    const readings: [KernelSpec, number, number][] = [
      [relu, 1, 2],
      [conv, 1, 40],
    ];
    const second = run(3, readings, 2);
    const first = run(2, readings, 2);
    expect(first.result).toBeNull();
    expect(second.st.overhead.profilerNodeUs).toBe(first.st.overhead.profilerNodeUs);
    const labels = (r: ReturnType<typeof run>) => [...r.st.traced.values()].map((t) => t.summary.medianUs);
    expect(labels(second).map((v) => v.toFixed(9))).toEqual(labels(first).map((v) => v.toFixed(9)));
  });
});
