import { describe, expect, it } from 'vitest';
import { distinctReplicas, timeClasses } from '../../../../../src-main/core/planner/cost/time-classes.js';

const f = (...v: number[]): Float64Array => Float64Array.from(v);
const i = (...v: number[]): Int32Array => Int32Array.from(v);

describe('timeClasses', () => {
  it('gives devices with equal step, forward and missing prefixes one class, in order of first appearance', () => {
    const step = [f(0, 3, 5), f(0, 1, 5), f(0, 3, 5), f(0, 3, 5), f(0, 3, 5)];
    const forward = [f(0, 1, 2), f(0, 1, 2), f(0, 1, 2), f(0, 2, 2), f(0, 1, 2)];
    const missing = [i(0, 0, 0), i(0, 0, 0), i(0, 0, 0), i(0, 0, 0), i(0, 0, 1)];
    // 0 and 2 alike; 1 differs in a step prefix with the same total, 3 in forward, 4 in a missing layer.
    expect([...timeClasses(step, forward, missing)]).toEqual([0, 1, 0, 2, 3]);
  });
});

describe('distinctReplicas', () => {
  it('keeps the first replica of each sequence of classes', () => {
    const cls = Int32Array.from([0, 0, 1, 1, 0, 0, 0, 1]);
    expect(
      distinctReplicas(
        [
          [0, 1],
          [2, 3],
          [4, 5],
          [6, 7],
        ],
        cls,
      ),
    ).toEqual([
      [0, 1],
      [2, 3],
      [6, 7],
    ]);
  });
});
