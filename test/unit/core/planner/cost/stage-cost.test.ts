import { describe, expect, it } from 'vitest';
import { alphaBetaCostModel, type CostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { createCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { planAll } from '../../../../../src-main/core/planner/search/index.js';
import type { PlanDevice } from '../../../../../src-main/core/planner/types.js';
import { randomProblem } from '../random-problem.js';

describe('alpha-beta cost model', () => {
  const devices: PlanDevice[] = ['x/a', 'x/b', 'y/c'].map((id) => ({
    id,
    name: 'GPU',
    kind: 'gpu',
    machine: id.slice(0, 1),
    memoryBytes: 1,
    estimate: 'profiled',
  }));
  const model = alphaBetaCostModel({
    devices,
    links: [
      { a: 'x/a', b: 'x/b', alphaUs: 5, gbps: 100, kind: 'nvlink' },
      { a: 'x', b: 'y', alphaUs: 30, gbps: 10, kind: 'net' },
    ],
  });
  it('alpha + bytes / (GB/s · 1e3) µs, either direction, zero on one device', () => {
    expect(model.linkUs('x/a', 'x/b', 1e6)).toBeCloseTo(5 + 10, 12);
    expect(model.linkUs('x/b', 'x/a', 1e6)).toBeCloseTo(15, 12);
    expect(model.linkUs('x/a', 'x/a', 1e6)).toBe(0);
  });
  it('falls back to the link between machines; no link is Infinity', () => {
    expect(model.linkUs('x/a', 'y/c', 1e6)).toBeCloseTo(30 + 100, 12);
    const lonely = alphaBetaCostModel({ devices, links: [] });
    expect(lonely.linkUs('x/a', 'x/b', 1)).toBe(Infinity);
  });
  it('ring all-reduce over the slowest link: 2(n−1)/n · S/β + 2(n−1)·α', () => {
    expect(model.allReduceUs(['x/a', 'x/b'], 1e6)).toBeCloseTo(1 * 10 + 2 * 5, 12);
    expect(model.allReduceUs(['x/a', 'x/b', 'y/c'], 3e6)).toBeCloseTo((4 / 3) * 300 + 4 * 30, 9);
    expect(model.allReduceUs(['x/a'], 1e6)).toBe(0);
  });
  it('takes collectives.ts’s model in its place', () => {
    const p = randomProblem(3, { layers: 4, devices: 3, memoryShare: [1, 2] });
    const injected: CostModel = createCostModel(p.links);
    const r = planAll(p, injected);
    expect(r.plans[0]?.feasible).toBe(true);
  });
});
