import { describe, expect, it } from 'vitest';
import { tracedLabelUs } from '../../../../src-main/core/profiler/overhead.js';
import { summarize } from '../../../../src-main/core/profiler/timing-stats.js';
import {
  boundedTraceNodeUs,
  isWholeTraceReading,
  groupReadings,
  retracedLabelUs,
  traceReadingUs,
  wholeReadingsMedianUs,
} from '../../../../src-main/core/profiler/trace-cost.js';

const at2 = { nodeUs: 0.2, profilerNodeUs: 2 };
const at3 = { nodeUs: 0.2, profilerNodeUs: 3 };

describe('traceReadingUs', () => {
  it('undoes tracedLabelUs above the floor and on it', () => {
    for (const reading of [2, 2.5, 3, 4, 17, 250.5])
      for (const o of [at2, at3])
        for (const nodes of [1, 2]) {
          const label = tracedLabelUs(reading, nodes, o);
          expect(traceReadingUs(label, nodes, o)).toBeCloseTo(reading, 9);
        }
  });

  it('takes only the per-node cost off without a trace cost', () => {
    expect(traceReadingUs(5.2, 1, { nodeUs: 0.2, profilerNodeUs: null })).toBeCloseTo(5, 9);
  });
});

describe('isWholeTraceReading', () => {
  it('accepts whole and half microseconds, not a difference of wall-clock medians', () => {
    expect(isWholeTraceReading(3)).toBe(true);
    expect(isWholeTraceReading(2.5)).toBe(true);
    expect(isWholeTraceReading(2.9999999999999996)).toBe(true);
    expect(isWholeTraceReading(0.2009)).toBe(false);
    expect(isWholeTraceReading(0)).toBe(false);
  });
});

describe('boundedTraceNodeUs', () => {
  it('is never above the lowest one-node reading of the run', () => {
    expect(boundedTraceNodeUs(3, [2, 2, 3, 40])).toBe(2);
  });

  it('keeps the chain figure where no reading is lower, or none is given', () => {
    expect(boundedTraceNodeUs(2, [2, 3])).toBe(2);
    expect(boundedTraceNodeUs(3, [])).toBe(3);
    expect(boundedTraceNodeUs(3, [Number.NaN, 0])).toBe(3);
    expect(boundedTraceNodeUs(null, [2])).toBeNull();
  });

  it('makes two runs that traced the same kernels agree when their chains read 2 and 3 µs', () => {
    const readings = [2, 2, 3, 3, 4, 9, 120];
    const first = boundedTraceNodeUs(2, readings);
    const second = boundedTraceNodeUs(3, readings);
    expect(first).toBe(second);
    const labelsOf = (p: number | null, chain: typeof at2) =>
      readings.map((r) => retracedLabelUs(tracedLabelUs(r, 1, chain), 1, chain, p));
    expect(labelsOf(second, at3)).toEqual(labelsOf(first, at2));
  });
});

describe('retracedLabelUs', () => {
  it('moves a label by the change of trace cost above the floor', () => {
    expect(retracedLabelUs(tracedLabelUs(10, 1, at3), 1, at3, 2)).toBeCloseTo(tracedLabelUs(10, 1, at2), 9);
    expect(retracedLabelUs(tracedLabelUs(10, 1, at3), 1, at3, 2) - tracedLabelUs(10, 1, at3)).toBeCloseTo(1, 9);
  });

  it('lifts a label off the floor where the new cost leaves the reading above it', () => {
    // 3 µs read less 3 µs sits on the floor (0.3 + 0.2); less 2 µs it is 1 + 0.2.
    expect(tracedLabelUs(3, 1, at3)).toBeCloseTo(0.5, 9);
    expect(retracedLabelUs(0.5, 1, at3, 2)).toBeCloseTo(1.2, 9);
  });
});

describe('wholeReadingsMedianUs', () => {
  const median = (readings: number[]): number | null => wholeReadingsMedianUs(groupReadings(readings));
  /** A 256-node chain traced 10 times: `atLow` readings of `low` µs, the rest one µs more. */
  const chain = (low: number, atLow: number): number[] => [
    ...Array<number>(atLow).fill(low),
    ...Array<number>(2560 - atLow).fill(low + 1),
  ];

  it('is the plain median where every reading is the same whole µs', () => {
    expect(median([3])).toBe(3);
    expect(median(chain(3, 2560))).toBe(3);
    expect(median(chain(3, 0))).toBe(4);
  });

  it('reads readings split between two whole µs between them, by the split', () => {
    expect(median(chain(3, 1280))).toBeCloseTo(3.5, 9);
    expect(median(chain(3, 1920))).toBeCloseTo(2.5 + 1280 / 1920, 9);
    expect(median([2, 3, 3, 3, 9])).toBeCloseTo(2.5 + 1.5 / 3, 9);
  });

  it('does not flip by a whole µs when the split crosses the middle (run w, 2 threads: 3 then 4 µs)', () => {
    const first = chain(3, 1300);
    const second = chain(3, 1260);
    expect(summarize(first).medianUs).toBe(3);
    expect(summarize(second).medianUs).toBe(4);
    const a = median(first) as number;
    const b = median(second) as number;
    expect(Math.abs(a - b)).toBeLessThan(0.05);
    // Every traced label of a run moves with the figure: a 4 µs reading's label, in both runs.
    const label = (p: number): number => tracedLabelUs(4, 1, { nodeUs: 0.2, profilerNodeUs: p });
    expect(Math.abs(label(a) - label(b))).toBeLessThan(0.05);
    expect(label(3) - label(4)).toBeCloseTo(0.6, 9);
  });

  it('takes the plain median of readings that are not whole, and none of none', () => {
    expect(median([2.4, 3.1, 3.3, 8])).toBeCloseTo(3.2, 9);
    expect(median([])).toBeNull();
    expect(median([Number.NaN])).toBeNull();
  });
});

describe('groupReadings', () => {
  it('keeps how many read each µs, ascending; the median reads groups in any order', () => {
    const readings = [4, 3, 4, 3, 3, 12, Number.NaN];
    expect(groupReadings(readings)).toEqual([
      { us: 3, count: 3 },
      { us: 4, count: 2 },
      { us: 12, count: 1 },
    ]);
    expect(
      wholeReadingsMedianUs([
        { us: 4, count: 2 },
        { us: 3, count: 3 },
        { us: 12, count: 1 },
      ]),
    ).toBeCloseTo(3.5, 9);
    expect(wholeReadingsMedianUs([{ us: 3, count: 0 }])).toBeNull();
  });
});
