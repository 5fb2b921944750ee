import { describe, expect, it } from 'vitest';
import { bruteForce } from '../reference/brute-force.js';
import { expectSameOptimum, SCHEDULES } from '../reference/same-optimum.js';
import { hybridSpace, mixedSpace, tensorDegreesOf } from '../../../../../src-main/core/planner/search/group-space.js';
import { pipelineSearch } from '../../../../../src-main/core/planner/search/pipeline-search.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { pricePlan } from '../../../../../src-main/core/planner/cost/plan-cost.js';
import type { Plan, PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { randomProblem } from '../random-problem.js';

const schedules = SCHEDULES;

describe('tensor parallelism in the pipeline DP equals brute force', () => {
  for (const schedule of schedules) {
    it(`hybrid space with TP degrees 1/2/4, ${schedule}: 40 random instances (up to 8 layers, 4 devices)`, () => {
      let feasible = 0;
      let tensor = 0;
      for (let seed = 700; seed < 740; seed++) {
        const mode = seed % 3 === 0 ? 'inference' : 'training';
        const ctx = plannerContext(randomProblem(seed, { twins: true, devices: 4, tensor: true, mode }));
        const space = hybridSpace(ctx.problem);
        const dp = pipelineSearch(ctx, { schedule, space });
        const brute = bruteForce(ctx, { schedule, space });
        expectSameOptimum(dp.best, brute.best);
        if (brute.best) feasible++;
        if (dp.best?.stages.some((s) => (s.tp ?? 1) > 1)) tensor++;
      }
      expect(feasible).toBeGreaterThan(10);
      // Tensor parallelism must win somewhere, or the test proves nothing about it.
      expect(tensor).toBeGreaterThan(0);
    });
  }

  it('mixed space (unlike GPUs of one machine in tensor-parallel groups): 30 random instances', () => {
    let feasible = 0;
    for (let seed = 800; seed < 830; seed++) {
      const ctx = plannerContext(randomProblem(seed, { devices: 3, tensor: true }));
      const space = mixedSpace(ctx.problem);
      const dp = pipelineSearch(ctx, { space });
      const brute = bruteForce(ctx, { space });
      expectSameOptimum(dp.best, brute.best);
      if (brute.best) feasible++;
    }
    expect(feasible).toBeGreaterThan(5);
  });

  it('12 layers on 4 like devices, TP 1/2/4: 6 instances', () => {
    for (let seed = 900; seed < 906; seed++) {
      const problem = randomProblem(seed, { twins: true, devices: 4, tensor: true, layers: 12, batch: 4 });
      const ctx = plannerContext(problem);
      const space = hybridSpace(ctx.problem);
      expectSameOptimum(pipelineSearch(ctx, { space }).best, bruteForce(ctx, { space, maxPlans: 4e6 }).best);
    }
  });
});

describe('tensor-parallel stages', () => {
  const twoLike = (): PlanProblem => {
    const layer = (i: number) => ({
      name: `block.${i}`,
      forwardUs: { a: 1000, b: 1000 },
      backwardUs: { a: 2000, b: 2000 },
      params: 1e8,
      outBytesPerSample: 1e6,
      activationBytesPerSample: 4e7,
      tensor: { divides: [8, 8], forwardAllReduces: 2, backwardAllReduces: 2 },
    });
    return {
      layers: [layer(0), layer(1)],
      devices: ['a', 'b'].map((id) => ({
        id,
        name: 'GPU',
        kind: 'gpu' as const,
        machine: 'm',
        memoryBytes: 64e9,
        estimate: 'profiled' as const,
      })),
      links: [{ a: 'a', b: 'b', alphaUs: 5, gbps: 100, kind: 'nvlink' }],
      mode: 'training',
      batch: 2,
      bytesPerParam: 16,
      zeroStage: 0,
      overheadBytes: 0,
      tensorDegrees: [1, 2],
    };
  };

  it('halves compute, parameters and kept activations, and pays two all-reduces each way per split layer', () => {
    const ctx = plannerContext(twoLike());
    const one = pricePlan(ctx, { stages: [{ from: 0, to: 2, devices: ['a'] }], microbatches: 1, schedule: '1f1b' });
    const tp = pricePlan(ctx, {
      stages: [{ from: 0, to: 2, devices: ['a', 'b'], tp: 2 }],
      microbatches: 1,
      schedule: '1f1b',
    });
    expect(tp.kind).toBe('tensor-parallel');
    expect(tp.stages[0]?.tp).toBe(2);
    // Ring all-reduce of 2 samples x 1 MB over 2 devices: 2(n-1)/n x S/B + 2(n-1) alpha = 20 + 10 µs.
    const allReduce = (2e6 / (100 * 1e3)) * 1 + 2 * 5;
    expect(tp.stepUs).toBeCloseTo(one.stepUs / 2 + 2 * 4 * allReduce, 6);
    const need = (p: Plan, d: string): number => p.memory.find((m) => m.device === d)?.neededBytes ?? 0;
    expect(need(tp, 'a')).toBeCloseTo(need(one, 'a') / 2, 0);
    expect(need(tp, 'b')).toBeCloseTo(need(tp, 'a'), 0);
  });

  it('refuses a degree that does not divide the heads or the devices', () => {
    const p = twoLike();
    p.layers[1] = { ...p.layers[1]!, tensor: { divides: [6, 3], forwardAllReduces: 2, backwardAllReduces: 2 } };
    const ctx = plannerContext(p);
    expect(() =>
      pricePlan(ctx, { stages: [{ from: 0, to: 2, devices: ['a', 'b'], tp: 2 }], microbatches: 1, schedule: '1f1b' }),
    ).toThrow(/does not divide 3 \(layer block\.1\)/);
    expect(tensorDegreesOf(p)).toEqual([1]);
    expect(() =>
      pricePlan(plannerContext(twoLike()), {
        stages: [{ from: 0, to: 2, devices: ['a'], tp: 2 }],
        microbatches: 1,
        schedule: '1f1b',
      }),
    ).toThrow(/does not divide its 1 devices/);
  });
});
