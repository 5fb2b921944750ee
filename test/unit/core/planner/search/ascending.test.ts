import { describe, expect, it } from 'vitest';
import { ascending } from '../../../../../src-main/core/planner/search/ascending.js';
import { seededRandom } from '../../../../../src-main/core/random.js';

describe('ascending', () => {
  it('yields the indices a stable sort by key gives, ties by index', () => {
    const random = seededRandom(7);
    for (const n of [0, 1, 2, 5, 64, 1000]) {
      // Few distinct keys: many ties.
      const keys = Float64Array.from({ length: n }, () => Math.floor(random() * 10));
      const sorted = Array.from({ length: n }, (_, i) => i).sort((a, b) => (keys[a] as number) - (keys[b] as number));
      expect([...ascending(keys)]).toEqual(sorted);
    }
  });

  it('puts Infinity last and can stop early', () => {
    const keys = Float64Array.from([3, Infinity, 1, 2]);
    const it = ascending(keys);
    expect([it.next().value, it.next().value]).toEqual([2, 3]);
    expect([...ascending(keys)]).toEqual([2, 3, 0, 1]);
  });
});
