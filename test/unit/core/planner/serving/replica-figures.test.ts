/** Goodput under the SLO, KV use and the queue of one replica, bracketed by the engine's band (replica-figures.ts). */
import { describe, expect, it } from 'vitest';
import type { RequestResult } from '../../../../../src-main/core/engines/serving-sim.js';
import {
  goodShare,
  replicaFigures,
  replicaSeries,
} from '../../../../../src-main/core/planner/serving/replica-figures.js';
import type { SloCap } from '../../../../../src-main/core/planner/serving/serving-plan-request.js';
import type { Series } from '../../../../../src-main/core/serving/timeline.js';

const series = (values: number[], sliceUs = 1e6): Series => ({
  sliceUs,
  points: values.map((v, i) => ({ atUs: i * sliceUs, mean: v, max: v * 2 })),
  peak: Math.max(...values) * 2,
});

/** A request with TTFT `ttftMs` and TPOT `tpotMs` over `output` tokens. */
function req(ttftMs: number, tpotMs: number, output = 11): RequestResult {
  const firstToken = ttftMs * 1000;
  return { arrival: 0, firstToken, end: firstToken + tpotMs * 1000 * (output - 1), prompt: 100, output };
}

function run(requests: RequestResult[], kv: { mean: number; peak: number }, queue: number[]) {
  return {
    sim: {
      requests,
      makespanUs: 4e6,
      steps: 1,
      preemptions: 0,
      peakRunning: 1,
      meanInSystem: 1,
      meanKvTokens: kv.mean,
      peakKvTokens: kv.peak,
      kvSeries: series([kv.mean / 2, kv.peak / 2]),
      queueSeries: series(queue),
      itl: { gapsUs: new Float64Array(), counts: new Float64Array() },
      refused: 0,
      cut: false,
    },
  };
}

const SLO: SloCap[] = [
  { metric: 'ttft', percentile: 'p90', ms: 100 },
  { metric: 'ttft', percentile: 'p50', ms: 80 },
  { metric: 'tpot', percentile: 'p90', ms: 20 },
];

describe('goodShare', () => {
  it('counts the requests within every cap (the tightest of a metric), a one-token answer meeting any TPOT cap', () => {
    const r = run([req(50, 10), req(90, 10), req(50, 30), req(70, 10, 1)], { mean: 0, peak: 0 }, [0]);
    // 90 ms breaks the 80 ms p50 cap for that request; 30 ms TPOT breaks 20 ms.
    expect(goodShare(r, SLO)).toBe(0.5);
    // Latencies 1.5x longer: the one-token answer's 105 ms TTFT breaks too; only 75 ms and 15 ms meet.
    expect(goodShare(r, SLO, 1.5)).toBe(0.25);
    expect(goodShare(run([], { mean: 0, peak: 0 }, [0]), SLO)).toBe(0);
  });
});

describe('replicaFigures', () => {
  it('gives goodput as share x rate, KV use as % of capacity, the queue mean over equal slices, each ranged by the band', () => {
    const mid = run([req(50, 10), req(90, 10)], { mean: 400, peak: 800 }, [0, 1, 2, 1]);
    const fast = run([req(50, 10), req(60, 10)], { mean: 300, peak: 600 }, [0, 0, 1, 1]);
    const slow = run([req(60, 10), req(120, 10)], { mean: 700, peak: 1000 }, [1, 3, 4, 4]);
    const asked: number[] = [];
    const f = replicaFigures(mid, 4, SLO, 1000, { low: 0.5, high: 2, cells: 3 }, (rate) => {
      asked.push(rate);
      return rate < 4 ? fast : slow;
    });
    expect(asked).toEqual([2, 8]);
    expect(f.requests).toBe(2);
    expect(f.goodShare.value).toBe(0.5);
    expect(f.goodput.value).toBe(2);
    // Fast run's latencies halved: both meet; slow doubled: none.
    expect(f.goodShare.range).toEqual([0, 1]);
    expect(f.goodput.range).toEqual([0, 4]);
    expect(f.kvUsePct.mean).toEqual({ value: 40, range: [30, 70] });
    expect(f.kvUsePct.peak).toEqual({ value: 80, range: [60, 100] });
    expect(f.queue.mean).toEqual({ value: 1, range: [0.5, 3] });
    expect(f.queue.peak).toEqual({ value: 4, range: [2, 8] });
  });

  it('gives no range without a band and runs nothing more', () => {
    const f = replicaFigures(run([req(50, 10)], { mean: 1, peak: 2 }, [0]), 3, SLO, 10, null, () => {
      throw new Error('not asked');
    });
    expect(f.goodput).toEqual({ value: 3, range: null });
    expect(f.kvUsePct.peak).toEqual({ value: 20, range: null });
  });
});

describe('replicaSeries', () => {
  it('turns the KV series into % of capacity and times into seconds, the queue left in requests', () => {
    const s = replicaSeries(run([], { mean: 100, peak: 300 }, [1, 2]), 1000);
    expect(s.sliceS).toBe(1);
    expect(s.kvUsePct).toEqual([
      { atS: 0, mean: 5, max: 10 },
      { atS: 1, mean: 15, max: 30 },
    ]);
    expect(s.queue).toEqual([
      { atS: 0, mean: 1, max: 2 },
      { atS: 1, mean: 2, max: 4 },
    ]);
  });
});
