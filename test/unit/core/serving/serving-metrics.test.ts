/** Percentiles, goodput under an SLO and Little's law on hand-made runs. */
import { describe, expect, it } from 'vitest';
import type { RequestResult } from '../../../../src-main/core/engines/serving-sim.js';
import {
  goodput,
  latencySummary,
  littlesLaw,
  weightedSummary,
} from '../../../../src-main/core/serving/serving-metrics.js';

const req = (arrival: number, firstToken: number, end: number, output: number): RequestResult => ({
  arrival,
  firstToken,
  end,
  prompt: 100,
  output,
});

describe('latency percentiles', () => {
  it('are nearest-rank: p90 of 1..10 is 9, p99 is 10', () => {
    expect(latencySummary([10, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toEqual({ mean: 5.5, p50: 5, p90: 9, p99: 10 });
    expect(latencySummary([])).toEqual({ mean: 0, p50: 0, p90: 0, p99: 0 });
  });

  it('weighted by counts give what the values written out one by one give', () => {
    const gapsUs = Float64Array.from([30, 10, 20, 50]);
    const counts = Float64Array.from([3, 5, 1, 1]);
    const expanded = [30, 30, 30, 10, 10, 10, 10, 10, 20, 50];
    expect(weightedSummary({ gapsUs, counts })).toEqual(latencySummary(expanded));
  });
});

describe('goodput', () => {
  // TTFT 100, 200, ..., 1000 µs; TPOT 10 µs for all but the last two (100 µs).
  const requests = Array.from({ length: 10 }, (_, i) =>
    req(0, (i + 1) * 100, (i + 1) * 100 + (i >= 8 ? 100 : 10) * 10, 11),
  );
  const run = { sim: { requests, makespanUs: 2e6 } };

  it('counts the requests within every cap per second of the run, and checks the percentiles', () => {
    const g = goodput(run, { ttft: { percentile: 90, us: 900 }, tpot: { percentile: 90, us: 50 } });
    // 9 within the TTFT cap, of which 8 within the TPOT cap; p90 TTFT = 900, p90 TPOT = 100.
    expect(g.share).toBe(0.8);
    expect(g.requestsPerSecond).toBe(4);
    expect(g.ttftUs).toBe(900);
    expect(g.tpotUs).toBe(100);
    expect(g.meets).toBe(false);
    expect(goodput(run, { ttft: { percentile: 90, us: 900 }, tpot: { percentile: 80, us: 50 } }).meets).toBe(true);
  });

  it('with no caps every request is good', () => {
    expect(goodput(run, {})).toMatchObject({ share: 1, meets: true, requestsPerSecond: 5 });
  });
});

describe("Little's law", () => {
  it('balances when the mean in system is throughput x mean time in system', () => {
    // Two requests of 1 s each over a 4 s run: 0.5 in the system on average.
    const requests = [req(0, 1, 1e6, 2), req(2e6, 2.5e6, 3e6, 2)];
    expect(littlesLaw({ sim: { requests, makespanUs: 4e6, meanInSystem: 0.5 } }).relativeGap).toBe(0);
    expect(littlesLaw({ sim: { requests, makespanUs: 4e6, meanInSystem: 0.6 } }).relativeGap).toBeCloseTo(0.2, 9);
  });
});
