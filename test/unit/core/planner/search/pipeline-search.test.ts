import { describe, expect, it } from 'vitest';
import { bruteForce } from '../reference/brute-force.js';
import { hybridSpace } from '../../../../../src-main/core/planner/search/group-space.js';
import { mayBeat } from '../../../../../src-main/core/planner/search/pipeline-search.js';
import { dpStateSpace } from '../../../../../src-main/core/planner/search/dp-state-space.js';
import { SuffixDp } from '../../../../../src-main/core/planner/search/suffix-dp.js';
import { plannerContext, type PlannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { randomProblem } from '../random-problem.js';

const like = (seed: number): PlannerContext =>
  plannerContext(randomProblem(seed, { twins: true, devices: 4, tensor: true, layers: 8, batch: 8 }));

describe('mayBeat', () => {
  it('refuses a count before its tables only when no plan of it beats the limit, and keeps one that beats it by a hair', () => {
    let refusedPastFloor = 0;
    let keptAtEdge = 0;
    for (let seed = 700; seed < 708; seed++) {
      const ctx = like(seed);
      const space = hybridSpace(ctx.problem);
      const dp = new SuffixDp(ctx, dpStateSpace(space, ctx, '1f1b'), '1f1b');
      const best = bruteForce(ctx, { space }).best;
      if (!best) continue;
      for (const m of [1, 2, 4, 8]) {
        const own = bruteForce(ctx, { space, microbatches: [m] }).best;
        // Just above the count's optimum the count must be kept; at the best of all counts and a
        // little above, refused only when its optimum does not beat the limit.
        const limits = [best.stepUs, best.stepUs * 1.05, ...(own ? [own.stepUs * (1 + 1e-9)] : [])];
        for (const limit of limits) {
          const beats = own !== null && own.stepUs < limit;
          if (!mayBeat(dp, m, limit)) {
            expect(beats).toBe(false);
            if (dp.stepFloor(m) < limit) refusedPastFloor++;
          } else if (beats && limit === own.stepUs * (1 + 1e-9)) keptAtEdge++;
        }
      }
      dp.release();
    }
    // The rule refuses counts the floor before it lets through, and keeps counts at the edge.
    expect(refusedPastFloor).toBeGreaterThan(0);
    expect(keptAtEdge).toBeGreaterThan(5);
  });
});
