/**
 * The optimised pipeline search against the search as it was before the speed-up (a frozen copy in
 * reference/): the same optimum on instances too large for brute force, for every microbatch count
 * on its own and for the best over all counts. Plus brute force with optimizer offload, which the
 * old search priced wrong on one-device stages.
 */
import { describe, expect, it } from 'vitest';
import { bruteForce } from '../reference/brute-force.js';
import {
  hybridSpace,
  pipelineSpace,
  type GroupSpace,
} from '../../../../../src-main/core/planner/search/group-space.js';
import { pipelineSearch } from '../../../../../src-main/core/planner/search/pipeline-search.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import type { Plan, PlanProblem, Schedule } from '../../../../../src-main/core/planner/types.js';
import { randomProblem } from '../random-problem.js';
import { pipelineSearch as referencePipelineDp } from '../reference/pipeline-dp.js';

function expectSameStep(got: Plan | null, want: Plan | null, what: string): void {
  expect(got === null, what).toBe(want === null);
  if (!got || !want) return;
  expect(got.feasible, what).toBe(true);
  expect(Math.abs(got.stepUs - want.stepUs), what).toBeLessThanOrEqual(1e-9 * want.stepUs);
}

/** Compares the best plan and each count's own optimum; returns how many of the reference's were feasible. */
function compare(
  problem: PlanProblem,
  schedule: Schedule,
  space: (p: PlanProblem) => GroupSpace,
  what: string,
): number {
  const ctx = plannerContext(problem);
  const s = space(problem);
  const got = pipelineSearch(ctx, { schedule, space: s });
  const want = referencePipelineDp(plannerContext(problem), { schedule, space: s });
  expectSameStep(got.best, want.best, `${what}: best`);
  // Each count's own optimum (no bound from the other counts).
  const gotEach = pipelineSearch(ctx, { schedule, space: s, exactPerMicrobatch: true });
  const wantEach = referencePipelineDp(plannerContext(problem), { schedule, space: s, exactPerMicrobatch: true });
  expect(gotEach.byMicrobatches.map((m) => m.microbatches)).toEqual(wantEach.byMicrobatches.map((m) => m.microbatches));
  gotEach.byMicrobatches.forEach((m, i) => {
    expectSameStep(m.plan, wantEach.byMicrobatches[i]?.plan ?? null, `${what}: m=${m.microbatches}`);
  });
  return (want.best ? 1 : 0) + wantEach.byMicrobatches.filter((m) => m.plan !== null).length;
}

describe('optimised pipeline search equals the previous search', () => {
  for (const schedule of ['1f1b', 'gpipe'] as const) {
    it(`pipeline space, ${schedule}: 12 random instances of 16-48 layers on 4-6 devices`, () => {
      let feasible = 0;
      for (let seed = 300; seed < 312; seed++) {
        const problem = randomProblem(seed, {
          layers: 16 + ((seed * 7) % 33),
          devices: 4 + (seed % 3),
          batch: [8, 12, 16, 32][seed % 4],
          memoryShare: seed % 2 === 0 ? [0.2, 0.9] : [0.3, 1.5],
        });
        feasible += compare(problem, schedule, pipelineSpace, `seed ${seed}`);
      }
      // All 75 (12 bests, 63 counts) are feasible today: all-null results cannot pass.
      expect(feasible).toBeGreaterThan(50);
    });
  }

  it('hybrid space (twin devices), 1F1B and GPipe: 8 random instances of 12-30 layers on 5 devices', () => {
    let feasible = 0;
    for (let seed = 400; seed < 408; seed++) {
      const problem = randomProblem(seed, { layers: 12 + ((seed * 5) % 19), devices: 5, twins: true, batch: 16 });
      feasible += compare(problem, seed % 2 === 0 ? '1f1b' : 'gpipe', (p) => hybridSpace(p), `seed ${seed}`);
    }
    // All 48 (8 bests, 40 counts) are feasible today.
    expect(feasible).toBeGreaterThan(30);
  });

  it('the benchmark instance: 128 layers on 8 devices, batch 64', () => {
    const problem = randomProblem(7, { layers: 128, devices: 8, mode: 'training', batch: 64, memoryShare: [0.3, 0.9] });
    const got = pipelineSearch(plannerContext(problem)).best;
    const want = referencePipelineDp(plannerContext(problem)).best;
    expect(want).not.toBeNull();
    expectSameStep(got, want, 'bench');
    expect(got?.stages.map((s) => `${s.from}-${s.to}:${s.devices.join('+')}`)).toEqual(
      want?.stages.map((s) => `${s.from}-${s.to}:${s.devices.join('+')}`),
    );
    expect(got?.microbatches).toBe(want?.microbatches);
  });
});

describe('pipeline search with optimizer offload equals brute force', () => {
  it('pipeline and hybrid spaces: 40 random training instances', () => {
    let feasible = 0;
    for (let seed = 500; seed < 540; seed++) {
      const problem = randomProblem(seed, { mode: 'training', twins: seed % 2 === 0 });
      problem.optimizerOffload = { hostGBps: { d0: 4 }, defaultHostGBps: 0.5 + (seed % 5), cpuGBps: 5 + (seed % 7) };
      const ctx = plannerContext(problem);
      const space = seed % 2 === 0 ? hybridSpace(problem) : pipelineSpace(problem);
      const dp = pipelineSearch(ctx, { space }).best;
      const brute = bruteForce(ctx, { space }).best;
      expectSameStep(dp, brute, `seed ${seed}`);
      if (brute) feasible++;
    }
    expect(feasible).toBeGreaterThan(10);
  });
});
