import { describe, expect, it } from 'vitest';
import { devicePrefixes, distinctReplicas } from '../../../../../src-main/core/planner/cost/time-classes.js';

const layer = (f: Record<string, number>, b: Record<string, number>) => ({ forwardUs: f, backwardUs: b });
const devices = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id }));

describe('devicePrefixes', () => {
  // a, c and f alike; b has the same totals in another order, d another forward/backward split, e misses a layer.
  const layers = [
    layer({ a: 1, b: 2, c: 1, d: 2, e: 1, f: 1 }, { a: 2, b: 1, c: 2, d: 1, e: 2, f: 2 }),
    layer({ a: 1, b: 1, c: 1, d: 1, f: 1 }, { a: 1, b: 2, c: 1, d: 1, e: 1, f: 1 }),
    layer({ a: 0, b: 0, c: 0, d: 1, e: 0, f: 0 }, { a: 0, b: 0, c: 0, d: 0, e: 0, f: 0 }),
  ];

  it('gives devices with equal times layer by layer one class, in order of first appearance', () => {
    const p = devicePrefixes(layers, devices, true);
    expect([...p.timeClass]).toEqual([0, 1, 0, 2, 3, 0]);
    expect([...(p.step[1] as Float64Array)]).toEqual([0, 3, 6, 6]);
    expect([...(p.forward[3] as Float64Array)]).toEqual([0, 2, 3, 4]);
    expect([...(p.missing[4] as Int32Array)]).toEqual([0, 0, 1, 1]);
  });

  it('keeps one set of arrays per class, shared by its devices', () => {
    const p = devicePrefixes(layers, devices, true);
    expect(p.step[2]).toBe(p.step[0]);
    expect(p.forward[5]).toBe(p.forward[0]);
    expect(p.step[1]).not.toBe(p.step[0]);
  });

  it('classes inference by forward times alone', () => {
    // Without backward times, b (forward 2, 1, 0) and d (2, 1, 1) still differ; a, c, f alike.
    expect([...devicePrefixes(layers, devices, false).timeClass]).toEqual([0, 1, 0, 2, 3, 0]);
    const same = [layer({ a: 1, b: 1 }, { a: 1, b: 5 })];
    expect([...devicePrefixes(same, devices.slice(0, 2), false).timeClass]).toEqual([0, 0]);
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
