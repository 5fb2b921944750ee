import { describe, expect, it } from 'vitest';
import { bruteForce } from '../reference/brute-force.js';
import { expectSameOptimum } from '../reference/same-optimum.js';
import { hybridSpace, pipelineSpace } from '../../../../../src-main/core/planner/search/group-space.js';
import { pipelineSearch } from '../../../../../src-main/core/planner/search/pipeline-search.js';
import { dpStateSpace } from '../../../../../src-main/core/planner/search/dp-state-space.js';
import { DpStageTables } from '../../../../../src-main/core/planner/search/dp-stage-tables.js';
import { SuffixDp } from '../../../../../src-main/core/planner/search/suffix-dp.js';
import { ScratchLease } from '../../../../../src-main/core/planner/search/scratch.js';
import { plannerContext, type PlannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { randomProblem } from '../random-problem.js';
import type { Schedule } from '../../../../../src-main/core/planner/types.js';

const like = (seed: number): PlannerContext =>
  plannerContext(randomProblem(seed, { twins: true, devices: 4, tensor: true, layers: 8, batch: 8 }));

describe('DpStageTables', () => {
  it('a group of the same devices as an earlier one takes its stage times, which are its own; the optimum equals brute force', () => {
    let copied = 0;
    for (let seed = 700; seed < 712; seed++) {
      const ctx = like(seed);
      const space = hybridSpace(ctx.problem);
      const states = dpStateSpace(space, ctx, '1f1b');
      const tables = new DpStageTables(ctx, states, new ScratchLease());
      const L = ctx.problem.layers.length;
      const samples = 2;
      tables.fill(4, samples, 4);
      states.groups.forEach((g, gid) => {
        if ((tables.copyOf[gid] as number) < 0) return;
        copied++;
        const timeOf = ctx.tables.evenStageTimer(g.devs, samples, g.tp);
        for (let from = 0; from < L; from++) {
          for (let to = from + 1; to <= L; to++) {
            const k = gid * tables.rangesPerGroup + from * (L + 1) + to;
            if ((tables.stageFit[k] as number) >= 1) expect(tables.stageTime[k]).toBe(timeOf.time(from, to));
          }
        }
      });
      expectSameOptimum(pipelineSearch(ctx, { space }).best, bruteForce(ctx, { space }).best);
    }
    // Twins of a class make such groups, or the test proves nothing.
    expect(copied).toBeGreaterThan(10);
  });

  it("skips counts, and caps, below each layer's least device time summed over all the devices; the optimum is unchanged", () => {
    let tighter = 0;
    let skipped = 0;
    let capped = 0;
    for (let seed = 700; seed < 712; seed++) {
      const ctx = like(seed);
      const space = hybridSpace(ctx.problem);
      const states = dpStateSpace(space, ctx, '1f1b');
      const dp = new SuffixDp(ctx, states, '1f1b');
      const L = ctx.problem.layers.length;
      for (const m of [1, 2, 4, 8]) {
        // The floor without the device-time term: each layer at its least time, over at most `stages` stages.
        const samples = ctx.problem.batch / m;
        const least = Array.from({ length: L }, (_, l) =>
          Math.min(...states.groups.map((g) => ctx.tables.evenStageTimer(g.devs, samples, g.tp).time(l, l + 1))),
        );
        const sum = least.reduce((a, b) => a + b, 0);
        const stages = Math.min(states.totalMembers, L);
        const before = (sum + (m - 1) * Math.max(...least, sum / stages)) * (1 - 1e-9);
        expect(dp.stepFloor(m)).toBeGreaterThanOrEqual(before);
        if (dp.stepFloor(m) > before) tighter++;
        // After the tables: no cap below the least largest time, Σ over layers of the least
        // |g|·t_g(l), over the devices.
        const work = Array.from({ length: L }, (_, l) =>
          Math.min(
            ...states.groups.map((g) => g.size * ctx.tables.evenStageTimer(g.devs, samples, g.tp).time(l, l + 1)),
          ),
        ).reduce((a, b) => a + b, 0);
        const leastLargest = (work / ctx.problem.devices.length) * (1 - 1e-9);
        dp.prepare(m);
        const caps = dp.capValues(0, 0, Infinity);
        expect(caps.every((c) => c >= leastLargest)).toBe(true);
        // Some one-layer stage lies below it: the rule has caps to drop.
        if (Math.min(...least) < leastLargest) capped++;
      }
      dp.release();
      const fast = pipelineSearch(ctx, { space });
      skipped += fast.byMicrobatches.filter((r) => r.dpRuns === 0 && r.tmaxCandidates === 0 && !r.plan).length;
      expectSameOptimum(fast.best, pipelineSearch(ctx, { space, exactPerMicrobatch: true }).best);
      expectSameOptimum(fast.best, bruteForce(ctx, { space }).best);
    }
    expect(tighter).toBeGreaterThan(5);
    expect(capped).toBeGreaterThan(5);
    expect(skipped).toBeGreaterThan(0);
  });
  it("answers a range's time and fit before its tables (probe) as the tables answer it after", () => {
    let asked = 0;
    for (let seed = 720; seed < 726; seed++) {
      const ctx = like(seed);
      const spaces = [
        { space: hybridSpace(ctx.problem), schedule: '1f1b' as Schedule },
        { space: pipelineSpace(ctx.problem), schedule: 'gpipe' as Schedule },
      ];
      for (const { space, schedule } of spaces) {
        const states = dpStateSpace(space, ctx, schedule);
        const tables = new DpStageTables(ctx, states, new ScratchLease());
        const L = ctx.problem.layers.length;
        for (const m of [1, 2, 4, 8]) {
          const samples = ctx.problem.batch / m;
          const maxInFlight = schedule === 'gpipe' ? m : Math.min(m, states.totalMembers);
          // Every range of every even group, each count in flight and one more, at its own time, just below it and without a cap.
          const answers = (): boolean[] =>
            states.groups.flatMap((g, gid) => {
              if (!tables.evenGroup[gid]) return [];
              const timer = ctx.tables.evenStageTimer(g.devs, samples, g.tp);
              const out: boolean[] = [];
              for (let from = 0; from < L; from++) {
                for (let to = from + 1; to <= L; to++) {
                  const t = timer.time(from, to);
                  for (let need = 1; need <= maxInFlight + 1; need++)
                    for (const tmax of [Infinity, t, t * (1 - 1e-12)])
                      out.push(tables.rangeWithin(gid, from, to, tmax, need));
                }
              }
              return out;
            });
          tables.probe(m, samples, maxInFlight);
          const before = answers();
          tables.fill(m, samples, maxInFlight);
          expect(before).toEqual(answers());
          asked += before.length;
        }
      }
    }
    expect(asked).toBeGreaterThan(10_000);
  });
});
