import { describe, expect, it } from 'vitest';
import { ListCache } from '../../../../../src-main/core/planner/cost/list-cache.js';

describe('ListCache', () => {
  it('finds a value by the list it was added with, by another list of the same devices, and per degree', () => {
    const cache = new ListCache<string>();
    const list = [3, 1, 2];
    expect(cache.find(list, 1)).toBeUndefined();
    expect(cache.add(list, 1, 'tp1')).toBe('tp1');
    expect(cache.find(list, 1)).toBe('tp1');
    // A list built afresh for a plan being priced: the same devices in the same order.
    expect(cache.find([3, 1, 2], 1)).toBe('tp1');
    expect(cache.find([3, 1, 2], 2)).toBeUndefined();
    cache.add([3, 1, 2], 2, 'tp2');
    expect(cache.find(list, 2)).toBe('tp2');
    // Another order is another list of rings and replicas.
    expect(cache.find([1, 2, 3], 1)).toBeUndefined();
  });
});
