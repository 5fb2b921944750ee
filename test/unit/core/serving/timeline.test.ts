/** A run's KV cache and queue over time, downsampled to a few hundred time-weighted points. */
import { describe, expect, it } from 'vitest';
import { SERIES_POINTS, Timeline } from '../../../../src-main/core/serving/timeline.js';

describe('Timeline', () => {
  it('keeps at most SERIES_POINTS slices, each the time-weighted mean and the max, and the peak', () => {
    const t = new Timeline();
    for (let i = 0; i < 10_000; i++) t.record(i * 10, 10, i === 5_000 ? 999 : 4, 0);
    const s = t.series('kv', 0, 100_000);
    expect(s.points).toHaveLength(SERIES_POINTS);
    expect(s.sliceUs).toBe(500);
    expect(s.peak).toBe(999);
    const spike = s.points[100];
    // The slice with the spike: 49 steps of 4 and one of 999, each 10 µs.
    expect(spike?.max).toBe(999);
    expect(spike?.mean).toBeCloseTo((49 * 4 + 999) / 50, 9);
    expect(s.points[0]).toEqual({ atUs: 0, mean: 4, max: 4 });
  });

  it('counts an idle gap as 0 and spreads a long step over the slices it covers', () => {
    const t = new Timeline();
    t.record(0, 100, 0, 6);
    t.record(300, 100, 0, 2);
    const s = t.series('queue', 0, 400, 4);
    expect(s.points.map((p) => p.mean)).toEqual([6, 0, 0, 2]);
    expect(t.series('queue', 0, 400, 2).points.map((p) => p.mean)).toEqual([3, 1]);
  });
});
