/**
 * Collective costs against values worked out by hand from the alpha-beta formulas
 * (S/beta µs = bytes / (GB/s x 1e3)).
 */
import { describe, expect, it } from 'vitest';
import {
  messageUs,
  ringAllReduceUs,
  bottleneck,
  treeAllReduceUs,
} from '../../../../../src-main/core/planner/cost/collectives.js';
import { createCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import type { PlanLink } from '../../../../../src-main/core/planner/types.js';

const link = (a: string, b: string, alphaUs: number, gbps: number): PlanLink => ({ a, b, alphaUs, gbps, kind: 'test' });

/** Ring a-b-c-d-a: one slow edge c-d (10 µs, 50 GB/s); fast diagonals a-c, b-d. */
const LINKS: PlanLink[] = [
  link('a', 'b', 5, 100),
  link('b', 'c', 5, 100),
  link('c', 'd', 10, 50),
  link('d', 'a', 5, 100),
  link('a', 'c', 3, 200),
  link('b', 'd', 3, 200),
];
const RING = ['a', 'b', 'c', 'd'];
/** The planner's cost model over LINKS, with no measured collectives. */
const MODEL = createCostModel(LINKS);

describe('alpha-beta collectives', () => {
  it('prices one message as alpha + bytes / beta', () => {
    expect(messageUs({ alphaUs: 5, gbps: 100 }, 1e6)).toBe(15);
    expect(MODEL.linkUs('a', 'b', 1e6)).toBe(15);
    expect(MODEL.linkUs('b', 'a', 1e6)).toBe(15);
    expect(MODEL.linkUs('a', 'a', 1e6)).toBe(0);
    expect(MODEL.linkUs('a', 'b', 0)).toBe(0);
  });

  it('takes the slowest link among ring neighbours, in the given order', () => {
    expect(bottleneck(RING, LINKS)).toEqual({ alphaUs: 10, gbps: 50 });
    // a-c-b-d-a avoids c-d
    expect(bottleneck(['a', 'c', 'b', 'd'], LINKS)).toEqual({ alphaUs: 5, gbps: 100 });
  });

  it('all-reduces 100 MB by ring: 2(n-1)/n S/beta + 2(n-1) alpha = 3000 + 60', () => {
    // S/beta = 1e8 / 5e4 = 2000 µs
    expect(ringAllReduceUs(4, 1e8, { alphaUs: 10, gbps: 50 })).toBe(3060);
    expect(treeAllReduceUs(4, 1e8, { alphaUs: 10, gbps: 50 })).toBe(8040); // 2·2·(10 + 2000)
    expect(MODEL.allReduceUs(RING, 1e8)).toBe(3060);
    expect(MODEL.allReduceUs(['a', 'c', 'b', 'd'], 1e8)).toBe(1530); // 1.5·1000 + 6·5
  });

  it('all-reduces 1 kB by tree, which needs fewer latency steps: 2·2·(10 + 0.02)', () => {
    expect(ringAllReduceUs(4, 1000, { alphaUs: 10, gbps: 50 })).toBeCloseTo(60.03, 9);
    expect(MODEL.allReduceUs(RING, 1000)).toBeCloseTo(40.08, 9);
  });

  it('uses a tree depth of ceil(log2 n) for n that is not a power of two', () => {
    expect(treeAllReduceUs(3, 1000, { alphaUs: 10, gbps: 50 })).toBeCloseTo(2 * 2 * 10.02, 9);
    expect(treeAllReduceUs(5, 1000, { alphaUs: 10, gbps: 50 })).toBeCloseTo(2 * 3 * 10.02, 9);
  });

  it('costs nothing for one device or no bytes; a ring with a missing link has no bottleneck', () => {
    expect(MODEL.allReduceUs(['a'], 1e8)).toBe(0);
    expect(MODEL.allReduceUs(RING, 0)).toBe(0);
    expect(bottleneck(['a', 'x'], LINKS)).toBeNull();
  });
});

describe('cost model', () => {
  it('answers linkUs and allReduceUs like the functions, Infinity without a route', () => {
    const m = createCostModel(LINKS);
    expect(m.linkUs('c', 'd', 1e6)).toBe(30);
    expect(m.linkUs('d', 'd', 1e6)).toBe(0);
    expect(m.allReduceUs(RING, 1e8)).toBe(3060);
    expect(m.linkUs('a', 'x', 1)).toBe(Infinity);
    expect(m.allReduceUs(['a', 'x'], 1)).toBe(Infinity);
  });

  it('replaces the model with a measured all-reduce fit for the same device set, in any order', () => {
    const m = createCostModel(LINKS, [
      { op: 'all_reduce', devices: ['d', 'c', 'b', 'a'], fit: { alphaUs: 30, gbps: 40 } },
    ]);
    expect(m.allReduceUs(RING, 1e8)).toBe(2530); // 30 + 1e8 / 4e4
    expect(m.allReduceUs(['a', 'b'], 1e8)).toBe(2 * 5 + 1e8 / 1e5); // not measured: ring of two
  });
});
