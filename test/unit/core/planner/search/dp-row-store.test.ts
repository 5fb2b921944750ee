import { describe, expect, it } from 'vitest';
import { DpRowStore } from '../../../../../src-main/core/planner/search/dp-row-store.js';

describe('DpRowStore', () => {
  it('gives rows slots on first use and keeps their entries as the arrays grow', () => {
    const store = new DpRowStore(1000, 3);
    // 200 rows (multiples of 5), far past the first allocation.
    for (let r = 995; r >= 0; r -= 5) {
      const o = store.offset(r);
      store.value[o + 2] = r + 0.5;
      store.index[o + 1] = r;
    }
    for (let r = 0; r < 1000; r += 5) {
      expect(store.value[store.at(r) + 2]).toBe(r + 0.5);
      expect(store.index[store.at(r) + 1]).toBe(r);
      expect(store.offset(r)).toBe(store.at(r));
    }
    expect(store.slot[1]).toBe(-1);
    expect(store.value.length).toBeLessThan(1000 * 3);
  });
});
