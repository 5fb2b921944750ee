/**
 * The replica simulation against what queueing theory and the step model say it must give:
 * at a vanishing rate a request sees the prefill alone and then the decode step; at saturation the
 * engine's batch ceiling sets the throughput; Little's law holds; the same seed gives the same run.
 */
import { describe, expect, it } from 'vitest';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import {
  promptUs,
  serve,
  type ServingLoad,
  type ServingRun,
} from '../../../../src-main/core/engines/engine-figures.js';
import { replicaKvTokens as replicaKv } from '../../../../src-main/core/engines/engine-memory.js';
import { stepCost } from '../../../../src-main/core/engines/engine-step.js';
import { simulateReplica } from '../../../../src-main/core/engines/serving-sim.js';
import { goodput, littlesLaw } from '../../../../src-main/core/serving/serving-metrics.js';
import { SERIES_POINTS } from '../../../../src-main/core/serving/timeline.js';
import { deployment } from './engine-fixtures.js';

const dep = deployment({ engine: 'vllm', model: 'llama-3.1-8b', gpu: 'H100 SXM5' });
/** The API server's tokenization of a prompt before the scheduler sees it (request-path.ts), µs. */
const tokenizeUs = (prompt: number): number => prompt * (dep.engine.host.tokenizeUsPerToken ?? 0);

/** Requests in the system as the steps saw them over throughput x mean time in the system (Little's law: 1). */
function littleRatio(d: ReturnType<typeof deployment>, perSecond: number): number {
  const run = serve(d, { prompt: 256, output: 128, requests: 400, arrival: { kind: 'rate', perSecond, seed: 7 } });
  const throughput = run.sim.requests.length / run.sim.makespanUs;
  return run.sim.meanInSystem / (throughput * run.e2e.mean);
}

describe('simulateReplica', () => {
  it("at a vanishing rate: TTFT is the prompt's tokenization and the prefill alone, TPOT the decode step of one sequence", () => {
    const run = serve(dep, { prompt: 512, output: 64, requests: 5, arrival: { kind: 'rate', perSecond: 0.001 } });
    const prefillUs = stepCost(dep, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens: 512, past: 0 }] }).us;
    expect(tokenizeUs(512)).toBeGreaterThan(0);
    expect(run.ttft.p50).toBeCloseTo(tokenizeUs(512) + prefillUs, 3);
    const mid = stepCost(dep, { decodeSeqs: 1, decodeContext: 512 + 32, prefill: [] }).us;
    expect(run.tpot.p50 / mid).toBeGreaterThan(0.98);
    expect(run.tpot.p50 / mid).toBeLessThan(1.02);
    // Every gap between tokens is one decode step; nobody ever waits in the queue.
    expect(run.itl.p99 / mid).toBeGreaterThan(0.98);
    expect(run.itl.p99 / mid).toBeLessThan(1.02);
    expect(run.sim.queueSeries.peak).toBe(0);
  });

  it("at a vanishing rate: a prompt longer than a step's token budget takes its tokenization and promptUs (its chunks one after another)", () => {
    const prompt = 3 * dep.engine.batching.maxBatchedTokens + 100;
    const run = serve(dep, { prompt, output: 8, requests: 3, arrival: { kind: 'rate', perSecond: 0.001, seed: 2 } });
    const alone = tokenizeUs(prompt) + promptUs(dep, prompt);
    expect(run.ttft.p50 / alone).toBeCloseTo(1, 9);
    expect(run.ttft.p99 / alone).toBeCloseTo(1, 9);
  });

  it('at saturation: output throughput is the batch ceiling over its decode step', () => {
    const rules = { ...engineRules('vllm'), batching: { ...engineRules('vllm').batching, maxNumSeqs: 16 } };
    const capped = deployment({ engine: rules });
    const run = serve(capped, { prompt: 16, output: 512, requests: 160, arrival: { kind: 'offline' } });
    const step = stepCost(capped, { decodeSeqs: 16, decodeContext: 16 * (16 + 256), prefill: [] }).us;
    const ceiling = (16 * 1e6) / step;
    expect(run.sim.peakRunning).toBe(16);
    expect(run.outputTokensPerSecond / ceiling).toBeGreaterThan(0.9);
    expect(run.outputTokensPerSecond / ceiling).toBeLessThan(1.01);
  });

  it.each([10, 40, 120])(
    "holds Little's law at %i requests/s: the queue the steps saw = throughput x mean time in the system",
    (perSecond) => {
      expect(littleRatio(dep, perSecond)).toBeCloseTo(1, 2);
    },
  );

  it('gives the same percentiles for the same seed, and others for another', () => {
    const load = { prompt: 256, output: 64, requests: 200 };
    const a = serve(dep, { ...load, arrival: { kind: 'rate', perSecond: 30, seed: 3 } });
    const b = serve(dep, { ...load, arrival: { kind: 'rate', perSecond: 30, seed: 3 } });
    const c = serve(dep, { ...load, arrival: { kind: 'rate', perSecond: 30, seed: 4 } });
    expect(b.ttft).toEqual(a.ttft);
    expect(c.ttft.p90).not.toBe(a.ttft.p90);
  });

  it('refuses a request larger than the whole KV cache, and preempts when on-demand growth overflows it', () => {
    const requests = Array.from({ length: 8 }, () => ({ at: 0, prompt: 100, output: 400 }));
    const r = simulateReplica(dep, [{ at: 0, prompt: 5000, output: 10 }, ...requests], {
      kvTokens: 2000,
      maxNumSeqs: 64,
      maxBatchedTokens: 8192,
    });
    expect(r.refused).toBe(1);
    expect(r.requests).toHaveLength(8);
    expect(r.preemptions).toBeGreaterThan(0);
  });

  it('runs a static batch to its longest request before admitting the next (transformers)', () => {
    const hf = deployment({ engine: 'transformers' });
    const r = simulateReplica(
      hf,
      [
        { at: 0, prompt: 64, output: 10 },
        { at: 0, prompt: 64, output: 100 },
        { at: 0, prompt: 64, output: 10 },
      ],
      { kvTokens: 1e6, maxNumSeqs: 2, maxBatchedTokens: 1 << 20 },
    );
    const [first, second, third] = r.requests;
    // The short first request ends with the long second one; the third waits for both.
    expect(first?.end).toBe(second?.end);
    expect(third?.firstToken ?? 0).toBeGreaterThan(second?.end ?? Infinity);
  });

  /** Every kind of load, with lengths drawn, and one whose KV cache is small enough to preempt. */
  const lengths = {
    prompt: { kind: 'lognormal', median: 600, sigma: 0.6 },
    output: { kind: 'lognormal', median: 120, sigma: 0.8 },
  } as const;
  const small = { ...dep, engine: { ...dep.engine, batching: { ...dep.engine.batching, maxNumSeqs: 24 } } };
  const loads: [string, ServingLoad][] = [
    ['Poisson', { ...lengths, requests: 300, arrival: { kind: 'rate', perSecond: 20, seed: 2 } }],
    ['bursts', { ...lengths, requests: 300, arrival: { kind: 'burst', perSecond: 20, cv: 3, seed: 2 } }],
    ['closed loop', { ...lengths, requests: 300, arrival: { kind: 'concurrency', users: 32 } }],
    ['offline', { ...lengths, requests: 300, arrival: { kind: 'offline' } }],
    [
      'trace',
      {
        prompt: { kind: 'trace', tokens: [100, 3000, 800] },
        output: { kind: 'trace', tokens: [50, 10, 400] },
        requests: 300,
        arrival: { kind: 'trace', atSeconds: Array.from({ length: 300 }, (_, i) => i * 0.04 + (i % 7) * 0.005) },
      },
    ],
  ];
  const runs: [string, ServingRun][] = loads.map(([name, load]) => [name, serve(small, load)]);

  it.each(runs)("holds Little's law to a 0.01 relative gap on a run of %s arrivals", (_name, run) => {
    expect(run.sim.requests).toHaveLength(300);
    expect(littlesLaw(run).relativeGap).toBeLessThan(0.01);
  });

  it.each(runs)('gives every token after the first one gap (%s): Σ ITL counts = Σ (output - 1)', (_name, run) => {
    const tokens = run.sim.requests.reduce((a, r) => a + r.output - 1, 0);
    expect(run.sim.itl.counts.reduce((a, b) => a + b, 0)).toBe(tokens);
  });

  it.each(runs)('draws the KV cache and the queue in at most 200 points, peaks kept (%s)', (_name, run) => {
    expect(run.sim.kvSeries.points.length).toBeLessThanOrEqual(SERIES_POINTS);
    expect(run.sim.kvSeries.peak).toBe(run.sim.peakKvTokens);
    expect(Math.max(...run.sim.kvSeries.points.map((p) => p.max))).toBe(run.sim.peakKvTokens);
    expect(run.sim.kvSeries.peak).toBeLessThanOrEqual(replicaKv(small));
  });

  it('a preempted request resumes from the tokens it sent: every request ends with its answer, in order', () => {
    const load = { ...lengths, requests: 200, arrival: { kind: 'offline' } } as const;
    const tight = serve(small, load);
    const r = simulateReplica(
      small,
      tight.sim.requests.map((q) => ({ at: 0, prompt: q.prompt, output: q.output })),
      { kvTokens: 6000, maxNumSeqs: 24, maxBatchedTokens: 8192 },
    );
    expect(r.preemptions).toBeGreaterThan(0);
    expect(r.requests).toHaveLength(200);
    expect(r.itl.counts.reduce((a, b) => a + b, 0)).toBe(r.requests.reduce((a, q) => a + q.output - 1, 0));
    // A resumed request's stall shows in its inter-token gaps, not in a later first token.
    expect(Math.max(...r.itl.gapsUs)).toBeGreaterThan(10 * Math.min(...r.itl.gapsUs));
    for (const q of r.requests) expect(q.firstToken).toBeLessThanOrEqual(q.end);
  });

  it('bursts at the same mean rate wait longer for a first token than Poisson arrivals', () => {
    const at = (arrival: ServingLoad['arrival']): ServingRun => serve(dep, { ...lengths, requests: 400, arrival });
    const poisson = at({ kind: 'rate', perSecond: 25, seed: 1 });
    const bursts = at({ kind: 'burst', perSecond: 25, cv: 4, seed: 1 });
    expect(bursts.ttft.p99).toBeGreaterThan(poisson.ttft.p99);
  });

  it('goodput is the rate while the SLO holds, and falls below it once the replica is overloaded', () => {
    const slo = { ttft: { percentile: 90, us: 1e6 }, tpot: { percentile: 90, us: 100e3 } };
    const at = (perSecond: number): ServingRun =>
      serve(dep, { ...lengths, requests: 300, arrival: { kind: 'rate', perSecond, seed: 4 } });
    const light = goodput(at(2), slo);
    expect(light.meets).toBe(true);
    expect(light.share).toBe(1);
    const heavy = at(2000);
    expect(goodput(heavy, slo).meets).toBe(false);
    expect(goodput(heavy, slo).requestsPerSecond).toBeLessThan(heavy.requestsPerSecond);
  });

  it('says what load it ran', () => {
    const run = runs[1]?.[1];
    expect(run?.arrivals).toBe('bursts at 20 requests/s, gaps gamma with CV 3 (seed 2)');
    expect(run?.promptLengths).toBe('lognormal, median 600 tokens, sigma 0.6 (clamped to 1-10000000)');
  });
});

describe('simulateReplica: multi-step scheduling (vLLM --num-scheduler-steps)', () => {
  const v060 = deployment({ engine: engineRules('vllm', { version: '0.6.0' }) });
  const opts = { kvTokens: replicaKv(v060), maxNumSeqs: 256, maxBatchedTokens: 8192 };
  const decodeUs = stepCost(v060, { decodeSeqs: 1, decodeContext: 128 + 15, prefill: [] }).us;

  it('streams tokens N at a time: one gap per chunk of N decode steps', () => {
    const one = simulateReplica(v060, [{ at: 0, prompt: 128, output: 31 }], { ...opts, schedulerSteps: 10 });
    // The prefill's token, then 30 tokens in three chunks of 10.
    expect(Array.from(one.itl.counts)).toEqual([1, 1, 1]);
    for (const gap of one.itl.gapsUs) {
      expect(gap / (10 * decodeUs)).toBeGreaterThan(0.97);
      expect(gap / (10 * decodeUs)).toBeLessThan(1.03);
    }
    expect(one.steps).toBe(31);
    const single = simulateReplica(v060, [{ at: 0, prompt: 128, output: 31 }], opts);
    // The same steps: the request ends when it did with one step per decision.
    expect((one.requests[0]?.end ?? 0) / (single.requests[0]?.end ?? 1)).toBeCloseTo(1, 2);
  });

  it('admits a request only at the end of the N steps: its first token waits for the boundary', () => {
    const a = { at: 0, prompt: 128, output: 200 };
    const first = simulateReplica(v060, [a], opts).requests[0]?.firstToken ?? 0;
    // B arrives just after A's first decode steps begin.
    const reqs = [a, { at: first + 1, prompt: 128, output: 8 }];
    const multi = simulateReplica(v060, reqs, { ...opts, schedulerSteps: 10 }).requests.find((r) => r.output === 8);
    const single = simulateReplica(v060, reqs, opts).requests.find((r) => r.output === 8);
    const prefillUs = stepCost(v060, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens: 128, past: 0 }] }).us;
    const ttft = (r: typeof multi): number => (r ? r.firstToken - r.arrival : NaN);
    // One step to wait with a decision every step, ten with one every ten.
    expect(ttft(single)).toBeLessThan(prefillUs + 1.05 * decodeUs);
    expect(ttft(multi)).toBeGreaterThan(prefillUs + 9.5 * decodeUs);
    expect(ttft(multi)).toBeLessThan(prefillUs + 10.5 * decodeUs);
  });

  it('changes nothing at 1 step per decision', () => {
    const reqs = Array.from({ length: 60 }, (_, i) => ({ at: i * 20_000, prompt: 100 + i, output: 50 + (i % 7) }));
    const plain = simulateReplica(v060, reqs, opts);
    const one = simulateReplica(v060, reqs, { ...opts, schedulerSteps: 1 });
    expect(one.requests).toEqual(plain.requests);
    expect(Array.from(one.itl.gapsUs)).toEqual(Array.from(plain.itl.gapsUs));
  });
});

describe("simulateReplica: SGLang's scheduling (prompt steps alone, the next step formed while this one runs)", () => {
  const shipped = engineRules('sglang', { version: '0.4.4' });
  // The scheduling alone: the prompt's tokenization before the scheduler is request-path.test.ts's.
  const sglang = { ...shipped, host: { ...shipped.host, tokenizeUsPerToken: 0 } };
  const ahead = deployment({ engine: sglang });
  const inStep = deployment({ engine: { ...sglang, batching: { ...sglang.batching, scheduleAhead: false } } });
  const opts = { kvTokens: replicaKv(ahead), maxNumSeqs: 256, maxBatchedTokens: 8192 };
  const decodeUs = stepCost(ahead, { decodeSeqs: 1, decodeContext: 128 + 2, prefill: [] }).us;
  const prefillUs = stepCost(ahead, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens: 128, past: 0 }] }).us;
  const ttftOf = (r: { firstToken: number; arrival: number } | undefined): number =>
    r ? r.firstToken - r.arrival : NaN;

  it("SGLang 0.4 and TensorRT-LLM's PyTorch backend schedule one step ahead; SGLang 0.3, the C++ executor and vLLM do not", () => {
    expect(sglang.batching.scheduleAhead).toBe(true);
    expect(engineRules('tensorrt-llm', { version: '0.20.0' }).batching.scheduleAhead).toBe(true);
    expect(engineRules('tensorrt-llm', { version: '0.14.0' }).batching.scheduleAhead).toBeUndefined();
    expect(engineRules('sglang', { version: '0.3.0' }).batching.scheduleAhead).toBeUndefined();
    expect(engineRules('vllm').batching.scheduleAhead).toBeUndefined();
  });

  it('at a vanishing rate the first token is still the prefill alone (the engine is idle when a request comes)', () => {
    const run = serve(ahead, { prompt: 512, output: 64, requests: 5, arrival: { kind: 'rate', perSecond: 0.001 } });
    const alone = stepCost(ahead, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens: 512, past: 0 }] }).us;
    expect(run.ttft.p50).toBeCloseTo(alone, 3);
  });

  it('a request arriving during a step misses the step already formed and joins the one after', () => {
    const a = { at: 0, prompt: 128, output: 200 };
    const first = simulateReplica(ahead, [a], opts).requests[0]?.firstToken ?? 0;
    // B arrives just after A's first decode step began.
    const reqs = [a, { at: first + 1, prompt: 128, output: 8 }];
    const late = simulateReplica(ahead, reqs, opts).requests.find((r) => r.output === 8);
    const now = simulateReplica(inStep, reqs, opts).requests.find((r) => r.output === 8);
    // Formed at each step's start: the rest of the running step, then the prefill.
    expect(ttftOf(now)).toBeLessThan(prefillUs + 1.02 * decodeUs);
    // Formed one step ahead: the rest of the running step, the step formed with it, then the prefill.
    expect(ttftOf(late)).toBeGreaterThan(prefillUs + 1.95 * decodeUs);
    expect(ttftOf(late)).toBeLessThan(prefillUs + 2.05 * decodeUs);
  });

  it('an engine that would sit idle takes a request that came during its last step when that step ends', () => {
    // A ends with its prefill (one token); B arrives during it.
    const reqs = [
      { at: 0, prompt: 128, output: 1 },
      { at: 10, prompt: 128, output: 4 },
    ];
    const [a, b] = simulateReplica(ahead, reqs, opts).requests;
    expect(b?.firstToken ?? 0).toBeCloseTo((a?.end ?? NaN) + prefillUs, 6);
  });

  it("a closed loop's next request, sent when one ends, misses the step already formed too", () => {
    // Four users with answers of different lengths: each next request comes while the others decode.
    const reqs = Array.from({ length: 40 }, (_, i) => ({ at: 0, prompt: 128, output: 20 + 17 * (i % 4) }));
    const mean = (d: typeof ahead): number => {
      const later = simulateReplica(d, reqs, { ...opts, closedLoop: 4 }).requests.slice(4);
      return later.reduce((a, r) => a + ttftOf(r), 0) / later.length;
    };
    expect(mean(ahead) - mean(inStep)).toBeGreaterThan(0.9 * decodeUs);
  });

  it('a prompt step runs alone: the sequences already decoding get no token in it', () => {
    const reqs = [
      { at: 0, prompt: 128, output: 50 },
      { at: 3 * prefillUs, prompt: 4096, output: 4 },
    ];
    const longUs = stepCost(ahead, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens: 4096, past: 0 }] }).us;
    const run = simulateReplica(ahead, reqs, opts);
    // A's longest gap spans B's whole prompt step and its own next decode step.
    expect(Math.max(...run.itl.gapsUs)).toBeGreaterThan(longUs + decodeUs);
    // vLLM V1 decodes A in the same step as B's prompt: A's longest gap is that one step.
    const v1 = deployment({ engine: 'vllm' });
    const mixed = simulateReplica(v1, reqs, { ...opts, kvTokens: replicaKv(v1) });
    const mixedUs = stepCost(v1, { decodeSeqs: 1, decodeContext: 200, prefill: [{ tokens: 4096, past: 0 }] }).us;
    expect(Math.max(...mixed.itl.gapsUs)).toBeLessThan(1.05 * mixedUs);
  });

  it.each([10, 40, 120])("holds Little's law at %i requests/s", (perSecond) => {
    expect(littleRatio(ahead, perSecond)).toBeCloseTo(1, 2);
  });

  it('gives the same run for the same seed', () => {
    const load: ServingLoad = {
      prompt: 256,
      output: 64,
      requests: 200,
      arrival: { kind: 'rate', perSecond: 30, seed: 4 },
    };
    const a: ServingRun = serve(ahead, load);
    expect(serve(ahead, load).ttft).toEqual(a.ttft);
  });
});
