import { describe, expect, it } from 'vitest';
import { alphaBetaCostModel, type CostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { createCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { splitSamples } from '../../../../../src-main/core/planner/cost/stage-cost.js';
import { planAll } from '../../../../../src-main/core/planner/search/index.js';
import { seededRandom } from '../../../../../src-main/core/random.js';
import type { PlanDevice } from '../../../../../src-main/core/planner/types.js';
import { randomProblem } from '../random-problem.js';

const makespan = (shares: number[], per: number[]): number =>
  Math.max(0, ...shares.map((n, i) => (n > 0 ? n * (per[i] as number) : 0)));

/** Best makespan over every split (small cases). */
function bestMakespan(samples: number, per: number[]): number {
  if (per.length === 1) return samples * (per[0] as number);
  let best = Infinity;
  for (let n = 0; n <= samples; n++) {
    best = Math.min(best, Math.max(n > 0 ? n * (per[0] as number) : 0, bestMakespan(samples - n, per.slice(1))));
  }
  return best;
}

describe('splitting a microbatch over data-parallel replicas', () => {
  it('splits in proportion to speed', () => {
    expect(splitSamples(8, [1, 1])).toEqual([4, 4]);
    expect(splitSamples(8, [1, 3])).toEqual([6, 2]);
    expect(splitSamples(3, [5, 5, 5, 5])).toEqual([1, 1, 1, 0]);
  });
  it('gives everything to a device that takes no time, and nothing to one that cannot run', () => {
    expect(splitSamples(5, [2, 0])).toEqual([0, 5]);
    expect(splitSamples(5, [2, Infinity])).toEqual([5, 0]);
  });
  it('has the smallest slowest replica (against every split)', () => {
    const r = seededRandom(5);
    for (let i = 0; i < 300; i++) {
      const n = 1 + Math.floor(r() * 3);
      const per = Array.from({ length: n }, () => 0.5 + r() * 4);
      const samples = 1 + Math.floor(r() * 12);
      const shares = splitSamples(samples, per);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(samples);
      expect(makespan(shares, per)).toBeCloseTo(bestMakespan(samples, per), 9);
    }
  });
});

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
