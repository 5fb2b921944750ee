import { describe, expect, it } from 'vitest';
import { groupBy, positionsBy } from '../../../../src-main/core/util/group-by.js';

describe('groupBy', () => {
  it('keeps keys in the order first seen and items in input order within a group', () => {
    const groups = groupBy(['pear', 'apple', 'plum', 'avocado', 'fig'], (s) => s[0]);
    expect([...groups]).toEqual([
      ['p', ['pear', 'plum']],
      ['a', ['apple', 'avocado']],
      ['f', ['fig']],
    ]);
  });

  it('groups the value of each item when given one', () => {
    const groups = groupBy(
      [
        { op: 'MatMul', us: 3 },
        { op: 'Add', us: 1 },
        { op: 'MatMul', us: 5 },
      ],
      (k) => k.op,
      (k) => k.us,
    );
    expect(groups.get('MatMul')).toEqual([3, 5]);
    expect(groups.get('Add')).toEqual([1]);
  });

  it('compares keys as a Map does: numbers stay numbers, no group for a key never seen', () => {
    const groups = groupBy([1, 2, 3, 4, 5], (n) => n % 2);
    expect(groups.get(1)).toEqual([1, 3, 5]);
    expect(groups.get(0)).toEqual([2, 4]);
    expect(groups.has(2)).toBe(false);
    expect(groupBy([], (n: number) => n).size).toBe(0);
  });

  it('reads any iterable once', () => {
    function* items(): Generator<string> {
      yield 'a';
      yield 'bb';
      yield 'cc';
    }
    expect(groupBy(items(), (s) => s.length)).toEqual(
      new Map([
        [1, ['a']],
        [2, ['bb', 'cc']],
      ]),
    );
  });
});

describe('positionsBy', () => {
  it('gives the positions of each key, keys in the order first seen', () => {
    expect([...positionsBy(['b', 'a', 'b', 'c', 'a'])]).toEqual([
      ['b', [0, 2]],
      ['a', [1, 4]],
      ['c', [3]],
    ]);
    expect(positionsBy([]).size).toBe(0);
  });
});
