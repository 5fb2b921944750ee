/**
 * All-gather and reduce-scatter (gather-scatter.ts) against values worked out by hand
 * (S/beta µs = bytes / (GB/s x 1e3)): 8 GPUs a node, NVLink 240 GB/s at 4 µs inside, NICs of
 * 45 GB/s at 5 µs between nodes; and the ZeRO-3 sync priced with them (stage-cost.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  allReduceOverUs,
  allReduceRoute,
  type AllReduceRoute,
} from '../../../../../src-main/core/planner/cost/all-reduce.js';
import {
  createCostModel,
  shardCollectiveUs,
  type CostModel,
} from '../../../../../src-main/core/planner/cost/cost-model.js';
import { gatherScatterOver } from '../../../../../src-main/core/planner/cost/gather-scatter.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import type { PlanLink, PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { twoGpuProblem } from '../../../../helpers/two-gpu-problem.js';

const GPUS = [0, 1, 2, 3, 4, 5, 6, 7];
const S = 1e9;

/** `nodes` x 8 GPUs, every pair linked: NVLink inside (NVLS at `nvlsGbps` when given), 8 rails between. */
function cluster(nodes: number, nvlsGbps?: number): { devices: string[]; links: PlanLink[] } {
  const devices = Array.from({ length: nodes }, (_, n) => GPUS.map((g) => `n${n}/cuda:${g}`)).flat();
  const links: PlanLink[] = [];
  devices.forEach((a, i) =>
    devices.slice(i + 1).forEach((b) => {
      if (a.slice(0, 2) === b.slice(0, 2))
        links.push({ a, b, kind: 'NVLINK', alphaUs: 4, gbps: 240, ...(nvlsGbps ? { nvlsGbps } : {}) });
      else links.push({ a, b, kind: 'NETWORK', alphaUs: 5, gbps: 45, rails: { count: 8, gbps: 45, perGpu: 1 } });
    }),
  );
  return { devices, links };
}

function routeOf(nodes: number, nvlsGbps?: number): AllReduceRoute {
  const { devices, links } = cluster(nodes, nvlsGbps);
  const route = allReduceRoute(devices, links);
  if (!route) throw new Error('expected a route');
  return route;
}

describe('all-gather and reduce-scatter in one node', () => {
  it('runs a ring: 7/8 x 1e9 / 240e3 + 7 x 4 = 3673.833 µs, half the ring all-reduce', () => {
    const route = routeOf(1);
    expect(gatherScatterOver(route, S)).toMatchObject({ us: expect.closeTo(3673.833, 3), algorithm: 'ring' });
    expect(2 * gatherScatterOver(route, S).us).toBeCloseTo(allReduceOverUs(route, S), 6);
  });

  it('keeps the ring where the switch is slower: NVLS at 137 GB/s takes 1e9 / 137e3 + 4 µs', () => {
    // NVLS halves an all-reduce (S/nvls for both directions at once) but not either half alone.
    const route = routeOf(1, 137);
    expect(allReduceOverUs(route, S)).toBeCloseTo(1e9 / 137e3 + 8, 3);
    expect(gatherScatterOver(route, S)).toMatchObject({ us: expect.closeTo(3673.833, 3), algorithm: 'ring' });
  });

  it('goes through the switch where it is faster than the ring: 1e9 / 300e3 + 4 = 3337.333 µs', () => {
    expect(gatherScatterOver(routeOf(1, 300), S)).toMatchObject({ us: expect.closeTo(3337.333, 3), algorithm: 'nvls' });
  });

  it('costs nothing alone or for nothing', () => {
    expect(gatherScatterOver(routeOf(1), 0).us).toBe(0);
    const one = allReduceRoute(['n0/cuda:0'], cluster(1).links);
    expect(one && gatherScatterOver(one, S).us).toBe(0);
  });
});

describe('all-gather and reduce-scatter across 2 nodes x 8 GPUs', () => {
  it('runs a ring per rail without NVLS: 15/16 x 1e9 / min(8 x 45, 240)e3 + 15 x 5 = 3981.25 µs', () => {
    expect(gatherScatterOver(routeOf(2), S)).toMatchObject({ us: expect.closeTo(3981.25, 3), algorithm: 'rail-ring' });
  });

  it('is hierarchical where the switch reduces: max(1e9 / 300e3, 1/2 x 1e9 / 360e3) + 4 + 5 = 3342.333 µs', () => {
    expect(gatherScatterOver(routeOf(2, 300), S)).toMatchObject({
      us: expect.closeTo(3342.333, 3),
      algorithm: 'hierarchical',
    });
  });

  it('crosses the network (N−1)/N of the buffer hierarchically: 4 nodes are network-bound', () => {
    // 3/4 x 1e9 / 360e3 = 2083.333 µs on the rails against 1e9 / 600e3 = 1666.667 through the switch; 4 + 3 x 5.
    expect(gatherScatterOver(routeOf(4, 600), S).us).toBeCloseTo(2083.333 + 4 + 15, 3);
  });
});

describe('the cost model', () => {
  const { devices, links } = cluster(1);

  it('prices both over the all-reduce route', () => {
    const cost = createCostModel(links);
    expect(cost.allGatherUs?.(devices, S)).toBeCloseTo(3673.833, 3);
    expect(cost.reduceScatterUs?.(devices, S)).toBeCloseTo(3673.833, 3);
    expect(cost.allGatherUs?.(devices.slice(0, 1), S)).toBe(0);
    expect(createCostModel(links.slice(1)).allGatherUs?.(devices, S)).toBe(Infinity);
  });

  it('takes a measured all-gather for its devices, and half a measured all-reduce where none is', () => {
    const fit = { alphaUs: 10, gbps: 100 };
    const gathered = createCostModel(links, [{ op: 'all_gather', devices, fit }]);
    expect(gathered.allGatherUs?.(devices, S)).toBeCloseTo(10 + 1e4, 6);
    expect(gathered.reduceScatterUs?.(devices, S)).toBeCloseTo(3673.833, 3);
    expect(gathered.allReduceKey?.(devices)).toBeNull();
    const reduced = createCostModel(links, [{ op: 'all_reduce', devices, fit }]);
    expect(reduced.reduceScatterUs?.(devices, S)).toBeCloseTo((10 + 1e4) / 2, 6);
  });

  it('falls back to half an all-reduce for a cost model without them', () => {
    const cost: CostModel = { linkUs: () => 0, allReduceUs: (_, bytes) => bytes / 1e3 };
    expect(shardCollectiveUs(cost, 'all_gather', devices, S)).toBe(5e5);
  });
});

describe('sharded sync priced with the all-gather and reduce-scatter of the cost model', () => {
  // Two GPUs, four layers of 1e8 parameters (2e8 bytes each), no compute to hide behind, one microbatch.
  const problem = (zeroStage: 0 | 1 | 2 | 3): PlanProblem =>
    twoGpuProblem(
      { forwardUs: { a: 0, b: 0 }, names: ['G', 'G'], memoryBytes: 80e9, link: { alphaUs: 0, gbps: 100, kind: 'NV' } },
      { batch: 2, zeroStage },
    );
  const base: CostModel = { linkUs: () => 0, allReduceUs: () => 1000 };

  it('reduce-scatters gradients and all-gathers weights under ZeRO-1 and ZeRO-2, all-reduces under DDP', () => {
    const cost: CostModel = { ...base, allGatherUs: () => 300, reduceScatterUs: () => 100 };
    const syncUs = (z: 0 | 1 | 2): number => plannerContext(problem(z), cost).tables.gradientSyncUs([0, 1], 0, 4, 1, 2);
    expect(syncUs(0)).toBe(1000);
    expect(syncUs(1)).toBe(400);
    expect(syncUs(2)).toBe(400);
  });

  it('exposes two gathers and one reduce-scatter per layer, each at its own price', () => {
    const cost: CostModel = { ...base, allGatherUs: () => 300, reduceScatterUs: () => 100 };
    expect(plannerContext(problem(3), cost).tables.gradientSyncUs([0, 1], 0, 4, 1, 2)).toBeCloseTo(
      4 * (2 * 300 + 100),
      6,
    );
  });

  it('takes half the all-reduce for each without them', () => {
    expect(plannerContext(problem(3), base).tables.gradientSyncUs([0, 1], 0, 4, 1, 2)).toBeCloseTo(4 * 3 * 500, 6);
  });
});
