import { describe, expect, it } from 'vitest';
import { splitSamples } from '../../../../../src-main/core/planner/cost/split-samples.js';
import { seededRandom } from '../../../../../src-main/core/random.js';

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
