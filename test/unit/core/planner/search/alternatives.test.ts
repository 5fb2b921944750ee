import { describe, expect, it } from 'vitest';
import { mcmcSearch } from '../../../../../src-main/core/planner/search/mcmc.js';
import { pipelineSearch } from '../../../../../src-main/core/planner/search/pipeline-search.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { relaxationSearch, repairContiguous } from '../../../../../src-main/core/planner/search/relaxation.js';
import type { Plan } from '../../../../../src-main/core/planner/types.js';
import { randomProblem } from '../random-problem.js';

function expectValidPipeline(plan: Plan, layers: number): void {
  expect(plan.stages[0]?.from).toBe(0);
  expect(plan.stages[plan.stages.length - 1]?.to).toBe(layers);
  plan.stages.forEach((s, i) => {
    expect(s.devices).toHaveLength(1);
    if (i > 0) expect(s.from).toBe(plan.stages[i - 1]?.to);
  });
  const used = plan.stages.flatMap((s) => s.devices);
  expect(new Set(used).size).toBe(used.length);
}

describe('MCMC and relaxation searches', () => {
  it('return feasible plans no better than the DP optimum', () => {
    let mcmcHits = 0;
    for (let seed = 50; seed < 62; seed++) {
      const ctx = plannerContext(randomProblem(seed, { layers: 8, devices: 4, memoryShare: [1.2, 2.5] }));
      const optimum = pipelineSearch(ctx).best;
      expect(optimum).not.toBeNull();
      const opt = optimum!.stepUs;
      for (const plan of [mcmcSearch(ctx, { seed, iterations: 1500 }), relaxationSearch(ctx, { seed, steps: 150 })]) {
        expect(plan.feasible).toBe(true);
        expectValidPipeline(plan, ctx.problem.layers.length);
        expect(plan.stepUs).toBeGreaterThanOrEqual(opt * (1 - 1e-9));
      }
      if (mcmcSearch(ctx, { seed, iterations: 1500 }).stepUs <= opt * (1 + 1e-9)) mcmcHits++;
    }
    // MCMC should reach the optimum on some of these small instances.
    expect(mcmcHits).toBeGreaterThan(0);
  });

  it('MCMC is reproducible for a seed', () => {
    const ctx = plannerContext(randomProblem(70, { layers: 8, devices: 4 }));
    const a = mcmcSearch(ctx, { seed: 3, iterations: 500 });
    const b = mcmcSearch(ctx, { seed: 3, iterations: 500 });
    expect(a).toEqual(b);
  });

  it('repairs a per-layer assignment into contiguous stages, one per device', () => {
    const runs = repairContiguous([0, 0, 1, 0, 2, 2, 1, 1, 1]);
    expect(runs.map((r) => r.device)).toEqual([0, 2, 1]);
    expect(runs.map((r) => [r.from, r.to])).toEqual([
      [0, 4],
      [4, 6],
      [6, 9],
    ]);
    expect(repairContiguous([3, 3, 3])).toEqual([{ from: 0, to: 3, device: 3 }]);
  });
});
