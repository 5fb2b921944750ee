import { describe, expect, it } from 'vitest';
import {
  MAX_SPAN,
  bandPolygon,
  bandValues,
  clampedY,
  latencyAt,
  latencyDomain,
  latencyTick,
  panelLabel,
  percentileLines,
  percentilesOf,
  rateDomain,
  type RatePoint,
} from '../../../../src-renderer/src/lib/latency-rate.js';
import { linearScale, logScale } from '../../../../src-renderer/src/lib/scales.js';

const ms = 1000;
const points: RatePoint[] = [
  { rate: 2, ttft: { p50: 200 * ms, p90: 300 * ms, p99: 400 * ms }, tpot: { p50: 20 * ms, p90: 25 * ms } },
  { rate: 8, ttft: { p50: 400 * ms, p90: 700 * ms, p99: 900 * ms }, tpot: { p50: 30 * ms, p90: 40 * ms } },
  { rate: 16, ttft: { p50: 3000 * ms, p90: 9000 * ms, p99: 20_000 * ms }, tpot: { p50: 45 * ms, p90: 60 * ms } },
];

describe('latency-vs-rate chart', () => {
  it('reads the percentiles the points carry, ascending, and a missing one as none', () => {
    expect(percentilesOf(points, 'ttft')).toEqual([50, 90, 99]);
    expect(percentilesOf(points, 'tpot')).toEqual([50, 90]);
    expect(latencyAt(points[0] as RatePoint, 'tpot', 99)).toBeNull();
    expect(latencyAt(points[1] as RatePoint, 'ttft', 90)).toBe(700 * ms);
  });

  it('spans the rates from 0 past the break rate in round steps', () => {
    expect(rateDomain(points, null)).toEqual([0, 20]);
    expect(rateDomain(points, 22)).toEqual([0, 25]);
    expect(rateDomain([], null)).toEqual([0, 1]);
  });

  it('covers the latencies, the SLO and its band in whole decades', () => {
    expect(latencyDomain(points, 'tpot', [{ percentile: 90, us: 50 * ms }], null)).toEqual([10_000, 100_000]);
    // The band's high end at the top rate (60 ms x 2) reaches the next decade.
    expect(latencyDomain(points, 'tpot', [{ percentile: 90, us: 50 * ms }], { low: 0.8, high: 2 })).toEqual([
      10_000, 1_000_000,
    ]);
  });

  it('stops the latency axis MAX_SPAN times above the lowest figure and holds higher points on its edge', () => {
    const runaway: RatePoint[] = [
      { rate: 1, ttft: { p50: 100 }, tpot: {} },
      { rate: 2, ttft: { p50: 100 * MAX_SPAN * 50 }, tpot: {} },
    ];
    const dom = latencyDomain(runaway, 'ttft', [], null);
    expect(dom).toEqual([100, 10_000]);
    const y = logScale(dom, [200, 0]);
    expect(clampedY(y, 100 * MAX_SPAN * 50)).toBe(0);
    expect(clampedY(y, 1)).toBe(200);
  });

  it('writes latency ticks in seconds past a minute', () => {
    expect(latencyTick(100_000)).toBe('100 ms');
    expect(latencyTick(10e6)).toBe('10 s');
    expect(latencyTick(100e6)).toBe('100 s');
  });

  it('draws a percentile as one run of points, split where a rate has no figure', () => {
    const x = linearScale([0, 20], [0, 200]);
    const y = logScale([10_000, 100_000], [100, 0]);
    expect(percentileLines(points, 'tpot', 50, x, y)).toEqual(['20,69.9 80,52.3 160,34.7']);
    const gap: RatePoint[] = [
      { rate: 2, ttft: {}, tpot: { p50: 10_000 } },
      { rate: 8, ttft: {}, tpot: {} },
      { rate: 16, ttft: {}, tpot: { p50: 100_000 } },
    ];
    expect(percentileLines(gap, 'tpot', 50, x, y)).toEqual(['20,100', '160,0']);
  });

  it('draws the band around the SLO percentile as the high edge out and the low edge back', () => {
    expect(bandValues(points, 'tpot', 90, null)).toEqual([]);
    expect(bandValues(points, 'tpot', 90, { low: 0.5, high: 2 })[0]).toEqual({ rate: 2, low: 12_500, high: 50_000 });
    const x = linearScale([0, 20], [0, 200]);
    const y = logScale([10_000, 100_000], [100, 0]);
    const poly = bandPolygon(points, 'tpot', 90, { low: 0.5, high: 2 }, x, y).split(' ');
    expect(poly).toHaveLength(6);
    expect(poly.map((p) => p.split(',')[0])).toEqual(['20', '80', '160', '160', '80', '20']);
    expect(bandPolygon(points.slice(0, 1), 'tpot', 90, { low: 0.5, high: 2 }, x, y)).toBe('');
  });

  it('labels a panel with its lines, its SLO and where it breaks', () => {
    expect(panelLabel('ttft', [50, 90, 99], [{ percentile: 90, us: 1e6 }], 12.5)).toBe(
      'Time to first token against request rate: p50, p90, p99; SLO p90 under 1 s; breaks at 12.5 requests/s',
    );
    expect(panelLabel('tpot', [50], [], null)).toBe(
      'Time per output token after the first against request rate: p50; meets the SLO at every rate drawn',
    );
  });
});
