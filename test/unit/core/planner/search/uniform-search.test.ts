import { describe, expect, it } from 'vitest';
import { pricePlan, type StageSpec } from '../../../../../src-main/core/planner/cost/plan-cost.js';
import { plannerContext, type PlannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { planAll } from '../../../../../src-main/core/planner/search/index.js';
import { uniformNodes, uniformSearch } from '../../../../../src-main/core/planner/search/uniform-search.js';
import type { PlanLink, PlanProblem, Schedule } from '../../../../../src-main/core/planner/types.js';
import { createCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { virtualDevice } from '../../../../../src-main/core/planner/cost/datasheets.js';
import { buildPlanLinks } from '../../../../../src-main/core/planner/cost/links.js';
import { randomCluster } from '../random-problem.js';

/** N like nodes of g GPUs whose blocks split over tp 1 or 2. */
function likeNodes(seed: number, machines: number, perMachine: number, layers: number): PlanProblem {
  const p = randomCluster(seed, { machines, perMachine, kinds: 1, layers, networkGBps: 5 });
  return {
    ...p,
    batch: 8,
    zeroStage: ([0, 1, 3] as const)[seed % 3] as 0 | 1 | 3,
    tensorDegrees: [1, 2],
    layers: p.layers.map((l) => ({ ...l, tensor: { divides: [4], forwardAllReduces: 2, backwardAllReduces: 2 } })),
  };
}

/** Every split of L layers into pp contiguous ranges: the stage ends. */
function splits(L: number, pp: number): number[][] {
  if (pp === 1) return [[L]];
  const out: number[][] = [];
  for (let first = 1; first <= L - pp + 1; first++)
    for (const rest of splits(L - first, pp - 1)) out.push([first, ...rest.map((e) => e + first)]);
  return out;
}

/** The uniform space by brute force: every tp, pp, dp, m and split, priced by pricePlan; the least feasible step. */
function bruteUniform(ctx: PlannerContext, schedule: Schedule, microbatches: readonly number[]): number {
  const nodes = uniformNodes(ctx);
  if (!nodes) throw new Error('not like nodes');
  const { problem, tables } = ctx;
  const L = problem.layers.length;
  const N = nodes.order.length;
  let best = Infinity;
  for (const tp of [1, 2].filter((t) => nodes.perNode % t === 0)) {
    for (const m of microbatches) {
      for (let pp = 1; pp <= Math.min(L, N / tp); pp++) {
        for (let dp = 1; dp * tp * pp <= N && dp <= problem.batch / m; dp++) {
          if (dp * tp * pp < 2) continue;
          const w = dp * tp;
          for (const ends of splits(L, pp)) {
            const stages: StageSpec[] = ends.map((to, i) => ({
              from: i === 0 ? 0 : (ends[i - 1] as number),
              to,
              devices: nodes.order.slice(i * w, (i + 1) * w).map((d) => tables.deviceIds[d] as string),
              ...(tp > 1 ? { tp } : {}),
            }));
            const plan = pricePlan(ctx, { stages, microbatches: m, schedule });
            if (plan.feasible) best = Math.min(best, plan.stepUs);
          }
        }
      }
    }
  }
  return best;
}

describe('uniform search (like nodes)', () => {
  it('finds the least step of the tp x pp x dp space, as brute force does', () => {
    let compared = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const p = likeNodes(seed, 2 + (seed % 2), seed % 4 === 0 ? 4 : 2, 3 + (seed % 4));
      const ctx = plannerContext(p);
      const schedule: Schedule = seed % 5 === 0 ? 'gpipe' : '1f1b';
      const microbatches = [1, 2, 4];
      const exact = bruteUniform(ctx, schedule, microbatches);
      const r = uniformSearch(ctx, { schedule, microbatches });
      const best = r.plans.find((x) => x.feasible);
      if (exact === Infinity) {
        expect(best, `seed ${seed}`).toBeUndefined();
        continue;
      }
      compared++;
      expect(best?.stepUs, `seed ${seed}`).toBeCloseTo(exact, 6);
    }
    expect(compared).toBeGreaterThan(15);
  });

  it('finds the same plans over a node-level link as over a link per device pair', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const p = likeNodes(seed, 2 + (seed % 3), seed % 4 === 0 ? 4 : 2, 3 + (seed % 4));
      const machineOf = new Map(p.devices.map((d) => [d.id, d.machine]));
      const across = p.links.find((l) => machineOf.get(l.a) !== machineOf.get(l.b)) as PlanLink;
      const nodes = [...new Set(p.devices.map((d) => d.machine))].map((m) =>
        p.devices.filter((d) => d.machine === m).map((d) => d.id),
      );
      const byNode: PlanProblem = {
        ...p,
        links: [...p.links.filter((l) => machineOf.get(l.a) === machineOf.get(l.b)), { ...across, nodes }],
      };
      const opts = { schedule: '1f1b' as const, microbatches: [1, 2, 4] };
      const steps = [p, byNode].map((q) => {
        const ctx = plannerContext(q, createCostModel(q.links));
        return [uniformSearch(ctx, opts).plans[0]?.stepUs, planAll(q, createCostModel(q.links)).plans[0]?.stepUs];
      });
      expect(steps[0]?.[1], `seed ${seed}`).toBeGreaterThan(0);
      expect(steps[1], `seed ${seed}`).toEqual(steps[0]);
    }
  });

  it('plans 16,384 GPUs in 2,048 like nodes over node-level links, every GPU used', () => {
    const devices = Array.from(
      { length: 16_384 },
      (_, i) => virtualDevice('H100 SXM5', { machine: `n${Math.floor(i / 8)}`, index: i % 8 }).device,
    );
    const { links } = buildPlanLinks(devices, { network: '8x400Gb-IB' });
    const times = (us: number): Record<string, number> => Object.fromEntries(devices.map((d) => [d.id, us]));
    const layer = (i: number): PlanProblem['layers'][number] => ({
      name: `block${i}`,
      forwardUs: times(2000),
      backwardUs: times(4000),
      params: 2e8,
      outBytesPerSample: 8 * 2 ** 20,
      activationBytesPerSample: 2 ** 30,
      tensor: { divides: [64, 8], forwardAllReduces: 2, backwardAllReduces: 2 },
    });
    const p: PlanProblem = {
      layers: Array.from({ length: 8 }, (_, i) => layer(i)),
      devices,
      links,
      mode: 'training',
      batch: 16_384,
      bytesPerParam: 16,
      zeroStage: 1,
      overheadBytes: 2 ** 30,
      tensorDegrees: [1, 2, 4, 8],
    };
    const ctx = plannerContext(p, createCostModel(links));
    expect(uniformNodes(ctx)?.perNode).toBe(8);
    const best = uniformSearch(ctx, { schedule: '1f1b', microbatches: [1, 2, 4] }).plans[0];
    expect(best?.feasible).toBe(true);
    const used = best?.stages.reduce((n, s) => n + s.devices.length, 0) ?? 0;
    expect(used).toBe(16_384);
  });

  it('prunes: searches fewer candidates than the space holds on a larger cluster', () => {
    const p = likeNodes(3, 8, 4, 12);
    const r = uniformSearch(plannerContext(p), { schedule: '1f1b', microbatches: [1, 2, 4, 8] });
    expect(r.plans.some((x) => x.feasible)).toBe(true);
    expect(r.searched).toBeLessThan(r.candidates);
  });

  it('applies to like nodes only: a node whose GPUs hold less memory is not one of them', () => {
    const base = randomCluster(9, { machines: 2, perMachine: 2, kinds: 1, layers: 4, networkGBps: 5 });
    const p = { ...base, devices: base.devices.map((d, i) => (i >= 2 ? { ...d, memoryBytes: d.memoryBytes / 2 } : d)) };
    expect(uniformNodes(plannerContext(p))).toBeNull();
    expect(uniformSearch(plannerContext(p), { schedule: '1f1b', microbatches: [1] }).plans).toEqual([]);
  });

  it('with planAll on many like nodes, says that unequal stages were not searched', () => {
    const p = likeNodes(4, 6, 2, 6);
    const r = planAll(p, undefined, { microbatches: [1, 2] });
    expect(r.plans[0]?.feasible).toBe(true);
    expect(r.rejected.some((x) => /unequal stages not searched on 6 like nodes/.test(x.reason))).toBe(true);
  });
});
