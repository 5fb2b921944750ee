import { describe, expect, it } from 'vitest';
import { getCatalogEntry } from '../../../../../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../../../../../src-main/core/catalog/schema.js';
import { resolveGpuName } from '../../../../../src-main/core/planner/cost/datasheets.js';
import {
  arrivalAt,
  clampLength,
  describeLoad,
  lengthSpecOf,
  longestLength,
  meanLength,
  traceLoad,
  type CapacityLoad,
} from '../../../../../src-main/core/planner/serving/capacity-load.js';
import { capacityPlan } from '../../../../../src-main/core/planner/serving/capacity-plan.js';
import type { ServingTrace } from '../../../../../src-main/core/serving/trace-rows.js';

function trace(at: number[] | null, prompt: number[], output: number[]): ServingTrace {
  return {
    format: at ? 'jsonl' : 'sharegpt',
    rows: prompt.length,
    atSeconds: at ? Float64Array.from(at) : null,
    prompt: Int32Array.from(prompt),
    output: Int32Array.from(output),
    lengthRule: at ? 'token counts as the trace gives them' : 'ceil(characters / 4), no tokenizer',
    skipped: 0,
  };
}

describe("the capacity search's load", () => {
  it("takes a JSONL trace's first rows, its times from the first row and its own mean rate", () => {
    const t = trace([5, 5.5, 6, 7, 9], [10, 20, 30, 40, 50], [1, 2, 3, 4, 5]);
    const l = traceLoad(t, { requests: 4, seed: 1 });
    expect(l.requests).toBe(4);
    expect([...(l.traceTimes ?? [])]).toEqual([0, 0.5, 1, 2]);
    // 3 gaps over 2 s.
    expect(l.rate).toBe(1.5);
    expect(meanLength(l.prompt)).toBe(25);
    expect(longestLength(l.output)).toBe(4);
    expect(traceLoad(t, { requests: 4, seed: 1, rate: 9 }).rate).toBe(9);
  });

  it("replays the trace's times scaled so a replica's mean rate is the rate tried", () => {
    const l = traceLoad(trace([0, 0.5, 1, 2], [1, 1, 1, 1], [1, 1, 1, 1]), { requests: 4, seed: 1 });
    const a = arrivalAt(l, 3);
    expect(a.kind).toBe('trace');
    if (a.kind === 'trace') expect(Array.from(a.atSeconds)).toEqual([0, 0.25, 0.5, 1]);
  });

  it('refuses a trace whose rows arrive at one time, and asks a ShareGPT trace for a rate', () => {
    expect(() => traceLoad(trace([3, 3, 3], [1, 1, 1], [1, 1, 1]), { requests: 10, seed: 1 })).toThrow(
      /first 3 rows arrive at one time/,
    );
    const s = trace(null, [100, 200], [10, 20]);
    expect(() => traceLoad(s, { requests: 10, seed: 1 })).toThrow(/give a rate \(--rate N\)/);
    const l = traceLoad(s, { requests: 10, seed: 1, rate: 4 });
    expect(l).toMatchObject({ rate: 4, requests: 10, traceTimes: null });
    expect(arrivalAt(l, 2)).toEqual({ kind: 'rate', perSecond: 2, seed: 1 });
    expect(describeLoad(l, { file: 'chat.json', trace: s }).prompt).toMatch(
      /^chat\.json's first 2 rows cycled over 10 requests \(ceil\(characters \/ 4\), no tokenizer\), mean 150 tokens$/,
    );
  });

  it("reads length specs and gives each one's mean, longest and clamp", () => {
    expect(lengthSpecOf(undefined, 1024, '--prompt')).toBe(1024);
    expect(lengthSpecOf(300, 1024, '--prompt')).toBe(300);
    const u = lengthSpecOf('100-400', 1, '--output');
    expect([meanLength(u), longestLength(u)]).toEqual([250, 400]);
    const ln = lengthSpecOf('lognormal:2000:0.5', 1, '--prompt');
    expect(meanLength(ln)).toBeCloseTo(2000 * Math.exp(0.125), 6);
    // Its p99 (z = 2.326).
    expect(longestLength(ln)).toBe(Math.ceil(2000 * Math.exp(2.326 * 0.5)));
    expect(longestLength(clampLength(ln, 3000))).toBe(3000);
    expect(clampLength(u, 10)).toBe(u);
    expect(() => lengthSpecOf('lognormal:2000', 1, '--prompt')).toThrow(/--prompt lognormal:2000: write lognormal/);
  });

  it('draws bursts (gamma gaps) when the CV is not 1, and a burstier load breaks at a lower rate', () => {
    const base: CapacityLoad = { rate: 8, prompt: 1000, output: 100, requests: 100, seed: 1 };
    expect(arrivalAt(base, 2)).toEqual({ kind: 'rate', perSecond: 2, seed: 1 });
    expect(arrivalAt({ ...base, burst: 4 }, 2)).toEqual({ kind: 'burst', perSecond: 2, cv: 4, seed: 1 });
    const plan = (load: CapacityLoad) =>
      capacityPlan({
        entry: getCatalogEntry('llama-3.1-8b') as TransformerEntry,
        engine: 'vllm',
        formats: ['bf16'],
        gpus: [{ sheet: resolveGpuName('H100 SXM5'), maxPerReplica: 1 }],
        load,
        slo: [{ metric: 'ttft', percentile: 'p90', ms: 300 }],
        price: () => ({ perHour: 2, given: true, source: null }),
        top: 1,
      });
    const poisson = plan(base).deployments[0];
    const bursty = plan({ ...base, burst: 4 }).deployments[0];
    expect(bursty?.breaksAt).toBeLessThan(poisson?.breaksAt ?? 0);
    expect(plan({ ...base, burst: 4 }).load.described.arrivals).toBe('bursts, gaps gamma with CV 4 (seed 1)');
  });
});
