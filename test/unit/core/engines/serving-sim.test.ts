/**
 * The replica simulation against what queueing theory and the step model say it must give:
 * at a vanishing rate a request sees the prefill alone and then the decode step; at saturation the
 * engine's batch ceiling sets the throughput; Little's law holds; the same seed gives the same run.
 */
import { describe, expect, it } from 'vitest';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { serve } from '../../../../src-main/core/engines/engine-figures.js';
import { stepCost } from '../../../../src-main/core/engines/engine-step.js';
import { simulateReplica } from '../../../../src-main/core/engines/serving-sim.js';
import { deployment } from './engine-fixtures.js';

const dep = deployment({ engine: 'vllm', model: 'llama-3.1-8b', gpu: 'H100 SXM5' });

describe('simulateReplica', () => {
  it('at a vanishing rate: TTFT is the prefill alone, TPOT the decode step of one sequence', () => {
    const run = serve(dep, { prompt: 512, output: 64, requests: 5, arrival: { kind: 'rate', perSecond: 0.001 } });
    const prefillUs = stepCost(dep, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens: 512, past: 0 }] }).us;
    expect(run.ttft.p50).toBeCloseTo(prefillUs, 3);
    const mid = stepCost(dep, { decodeSeqs: 1, decodeContext: 512 + 32, prefill: [] }).us;
    expect(run.tpot.p50 / mid).toBeGreaterThan(0.98);
    expect(run.tpot.p50 / mid).toBeLessThan(1.02);
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
      const run = serve(dep, {
        prompt: 256,
        output: 128,
        requests: 400,
        arrival: { kind: 'rate', perSecond, seed: 7 },
      });
      const throughput = run.sim.requests.length / run.sim.makespanUs;
      expect(run.sim.meanInSystem / (throughput * run.e2e.mean)).toBeCloseTo(1, 2);
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
});
