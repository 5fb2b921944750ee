import { describe, expect, it } from 'vitest';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { planAll } from '../../../../../src-main/core/planner/search/index.js';
import { clusterSearch, nodeClasses } from '../../../../../src-main/core/planner/search/cluster-search.js';
import { hybridSpace } from '../../../../../src-main/core/planner/search/group-space.js';
import type { PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { randomCluster } from '../random-problem.js';
import { bruteForce } from '../reference/brute-force.js';

const cluster = (seed: number, machines: number, perMachine: number, kinds: number): PlanProblem =>
  randomCluster(seed, { machines, perMachine, kinds, layers: 2 + (seed % 5), networkGBps: 5 });

describe('cluster search', () => {
  it('groups machines of the same GPUs into classes, CPUs left out', () => {
    const p = cluster(7, 4, 2, 2);
    const withCpu: PlanProblem = {
      ...p,
      devices: [
        ...p.devices,
        { id: 'm0/cpu', name: 'cpu', kind: 'cpu', machine: 'm0', memoryBytes: 1e11, estimate: 'profiled' },
      ],
    };
    const classes = nodeClasses(withCpu);
    expect(classes.map((c) => c.machines.length)).toEqual([2, 2]);
    expect(classes.flatMap((c) => c.machines.flat()).length).toBe(8);
  });

  it('finds plans that use each device at most once, priced on the whole problem', () => {
    let found = 0;
    for (let seed = 11; seed < 41; seed++) {
      const p = cluster(seed, 4, 2, 1);
      const r = clusterSearch(plannerContext(p), { schedule: '1f1b', microbatches: [1, 2, 4] });
      expect(r.replicaShapes).toBeGreaterThan(0);
      for (const plan of r.plans.filter((x) => x.feasible)) {
        found++;
        const all = plan.stages.flatMap((s) => s.devices);
        expect(new Set(all).size).toBe(all.length);
        expect(plan.stepUs).toBeGreaterThan(0);
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  it('with planAll, is never worse than the exact search on small clusters', () => {
    let compared = 0;
    for (let seed = 300; seed < 340; seed++) {
      const p = cluster(seed, 2 + (seed % 3), 1 + (seed % 2), 1 + (seed % 2));
      const ctx = plannerContext(p);
      const exact = bruteForce(ctx, { space: hybridSpace(p), maxPlans: 2e6 }).best;
      if (!exact) continue;
      compared++;
      const best = planAll(p, undefined, { microbatches: [1, 2, 4] }).plans.find((x) => x.feasible);
      expect(best, `seed ${seed}`).toBeDefined();
      expect(best!.stepUs, `seed ${seed}`).toBeLessThanOrEqual(exact.stepUs * (1 + 1e-9));
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('on one machine does nothing (the exact spaces cover it)', () => {
    const p = cluster(5, 1, 2, 1);
    expect(clusterSearch(plannerContext(p), { schedule: '1f1b', microbatches: [1, 2] }).plans).toEqual([]);
  });
});
