import { describe, expect, it } from 'vitest';
import {
  linearDomain,
  linearScale,
  linearTicks,
  logDomain,
  logScale,
  logTickLabel,
  logTicks,
  niceStep,
} from '../../../../src-renderer/src/lib/scales.js';

describe('chart scales', () => {
  it('maps a linear domain onto pixels and back', () => {
    const x = linearScale([0, 100], [50, 550]);
    expect(x(0)).toBe(50);
    expect(x(50)).toBe(300);
    expect(x(100)).toBe(550);
    expect(x.invert(300)).toBe(50);
  });

  it('maps decades evenly on a log scale, non-positive values to the low end', () => {
    const y = logScale([1, 1000], [300, 0]);
    expect(y(1)).toBe(300);
    expect(y(10)).toBeCloseTo(200);
    expect(y(1000)).toBeCloseTo(0);
    expect(y(0)).toBe(300);
    expect(y.invert(100)).toBeCloseTo(100);
  });

  it('chooses 1-2-5 steps and round ticks', () => {
    expect(niceStep(10, 5)).toBe(2);
    expect(niceStep(100, 4)).toBe(20);
    expect(niceStep(7, 5)).toBe(1);
    expect(linearTicks(0, 10, 5)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(linearTicks(0.1, 0.35, 5)).toEqual([0.1, 0.15, 0.2, 0.25, 0.3, 0.35]);
    expect(linearTicks(3, 3)).toEqual([3]);
  });

  it('ticks every decade, with 2x and 5x over short spans and every other decade over long ones', () => {
    expect(logTicks(1, 1000)).toEqual([1, 10, 100, 1000]);
    expect(logTicks(1, 100)).toEqual([1, 2, 5, 10, 20, 50, 100]);
    expect(logTicks(1e-4, 1e6)).toEqual([1e-4, 0.01, 1, 100, 1e4, 1e6]);
    expect(logTicks(0, 10)).toEqual([]);
  });

  it('widens domains to whole decades and nice maxima', () => {
    expect(logDomain([3, 250])).toEqual([1, 1000]);
    expect(logDomain([0, -1, NaN])).toEqual([1, 10]);
    expect(logDomain([10])).toEqual([10, 100]);
    expect(linearDomain([0, 87])).toEqual([0, 100]);
    expect(linearDomain([])).toEqual([0, 1]);
  });

  it('labels log ticks compactly', () => {
    expect(logTickLabel(1000)).toBe('1k');
    expect(logTickLabel(0.01)).toBe('0.01');
    expect(logTickLabel(1e-4)).toBe('1e-4');
    expect(logTickLabel(2e9)).toBe('2G');
  });
});
