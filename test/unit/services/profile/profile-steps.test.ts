import { describe, expect, it } from 'vitest';
import type { OverheadOutcome } from '../../../../src-main/adapters/ort/protocol.js';
import { measureOverhead } from '../../../../src-main/services/profile/profile-steps.js';
import type { RunState } from '../../../../src-main/services/profile/run-state.js';

/** The parts of a run measureOverhead reads, with a runner that answers `outcome`. */
function state(outcome: OverheadOutcome): RunState {
  const st = {
    runner: { runOverhead: () => Promise.resolve(outcome) },
    aborted: () => false,
    epGone: false,
    target: { ep: { name: 'cpu', threads: 2 } },
    rule: { warmupRuns: 1, minRepetitions: 3, maxRepetitions: 5, targetCi: 0.05, budgetMs: 1000 },
    report: { notes: [] as string[] },
  };
  return st as unknown as RunState;
}

const points = [
  { nodes: 1, medianUs: 9 },
  { nodes: 16, medianUs: 12.6 },
  { nodes: 64, medianUs: 23.4 },
  { nodes: 256, medianUs: 66.6 },
];

describe('measureOverhead', () => {
  it("keeps the traced chain's readings beside the trace cost read from them", async () => {
    const traceReadings = [
      { us: 3, count: 1300 },
      { us: 4, count: 1260 },
    ];
    const o = await measureOverhead(
      state({ id: 1, ok: true, points, traceNodeUs: 2.5 + 1280 / 1300, traceReadings, tracedRuns: [] }),
    );
    expect(o?.profilerNodeUs).toBeCloseTo(3.485, 3);
    expect(o?.profilerNodeReadings).toEqual(traceReadings);
  });

  it('stores none where the runner kept none (an older runner)', async () => {
    const o = await measureOverhead(state({ id: 1, ok: true, points, traceNodeUs: 3, tracedRuns: [] }));
    expect(o?.profilerNodeUs).toBe(3);
    expect(o && 'profilerNodeReadings' in o).toBe(false);
  });
});
