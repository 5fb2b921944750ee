import { describe, expect, it } from 'vitest';
import { minOverCap } from '../../../../../src-main/core/planner/search/cap-search.js';
import { bruteForce } from '../reference/brute-force.js';
import { expectSameOptimum, SCHEDULES } from '../reference/same-optimum.js';
import { hybridSpace, pipelineSpace } from '../../../../../src-main/core/planner/search/group-space.js';
import { pipelineSearch } from '../../../../../src-main/core/planner/search/pipeline-search.js';
import { microbatchCandidates, plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { seededRandom } from '../../../../../src-main/core/random.js';
import { randomProblem } from '../random-problem.js';

const schedules = SCHEDULES;

describe('pipeline DP equals brute force', () => {
  for (const schedule of schedules) {
    it(`serving with a KV cache held for the whole batch, ${schedule}: 40 random inference instances`, () => {
      let feasible = 0;
      for (let seed = 500; seed < 540; seed++) {
        const ctx = plannerContext(randomProblem(seed, { mode: 'inference', resident: true, twins: seed % 2 === 0 }));
        for (const space of [pipelineSpace(ctx.problem), hybridSpace(ctx.problem)]) {
          const dp = pipelineSearch(ctx, { schedule, space });
          const brute = bruteForce(ctx, { schedule, space });
          expectSameOptimum(dp.best, brute.best);
          if (brute.best) feasible++;
        }
      }
      expect(feasible).toBeGreaterThan(15);
      expect(feasible).toBeLessThan(80);
    });
  }

  for (const schedule of schedules) {
    it(`pipeline space, ${schedule}: 60 random instances (up to 8 layers, 3-4 devices)`, () => {
      let feasible = 0;
      for (let seed = 1; seed <= 60; seed++) {
        const ctx = plannerContext(randomProblem(seed));
        const space = pipelineSpace(ctx.problem);
        const dp = pipelineSearch(ctx, { schedule, space });
        const brute = bruteForce(ctx, { schedule, space });
        expectSameOptimum(dp.best, brute.best);
        if (brute.best) feasible++;
      }
      // The instances must exercise both outcomes.
      expect(feasible).toBeGreaterThan(20);
      expect(feasible).toBeLessThan(60);
    });
  }

  it('agrees for every microbatch count on its own (the T-axis branch and bound)', () => {
    for (let seed = 100; seed < 115; seed++) {
      const ctx = plannerContext(randomProblem(seed, { layers: 6, devices: 3 }));
      for (const m of microbatchCandidates(ctx.problem.batch)) {
        const dp = pipelineSearch(ctx, { microbatches: [m] });
        const brute = bruteForce(ctx, { microbatches: [m] });
        expectSameOptimum(dp.best, brute.best);
      }
    }
  });

  for (const schedule of schedules) {
    it(`hybrid space (twin devices in data-parallel groups), ${schedule}: 40 random instances`, () => {
      let groups = 0;
      for (let seed = 200; seed < 240; seed++) {
        const ctx = plannerContext(randomProblem(seed, { twins: true, devices: 4 }));
        const space = hybridSpace(ctx.problem);
        const dp = pipelineSearch(ctx, { schedule, space });
        const brute = bruteForce(ctx, { schedule, space });
        expectSameOptimum(dp.best, brute.best);
        if (dp.best?.stages.some((s) => s.devices.length > 1)) groups++;
      }
      expect(groups).toBeGreaterThan(0);
    });
  }

  it('uses every device at most once and leaves devices out when that is faster', () => {
    let leftOut = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const ctx = plannerContext(randomProblem(seed, { memoryShare: [2, 3] }));
      const best = pipelineSearch(ctx).best;
      if (!best) continue;
      const used = best.stages.flatMap((s) => s.devices);
      expect(new Set(used).size).toBe(used.length);
      if (used.length < ctx.problem.devices.length) leftOut++;
    }
    expect(leftOut).toBeGreaterThan(0);
  });
});

describe('branch and bound over the cap T', () => {
  it('finds min over plans of Σ + w·max, as trying every cap does', () => {
    const r = seededRandom(9);
    for (let i = 0; i < 300; i++) {
      const plans = Array.from({ length: 1 + Math.floor(r() * 40) }, () => ({
        value: Math.round(r() * 1000),
        actualMax: Math.round(r() * 100),
      }));
      const weight = Math.floor(r() * 20);
      const caps = Float64Array.from(new Set(plans.map((p) => p.actualMax))).sort();
      const solve = (cap: number): { value: number; actualMax: number } | null =>
        plans
          .filter((p) => p.actualMax <= cap)
          .reduce<{ value: number; actualMax: number } | null>((b, p) => (!b || p.value < b.value ? p : b), null);
      const expected = Math.min(...plans.map((p) => p.value + weight * p.actualMax));
      const got = minOverCap(caps, weight, solve);
      expect(got.total).toBe(expected);
      expect(got.runs).toBeLessThanOrEqual(caps.length + 1);
    }
  });
});
