/**
 * A prompt tokenized by the server before its scheduler sees it (request-path.ts): the first token
 * waits for it, requests are tokenized one after another, the GPU keeps stepping meanwhile, and the
 * replica's queueing identities still hold.
 */
import { describe, expect, it } from 'vitest';
import { serve } from '../../../../src-main/core/engines/engine-figures.js';
import { replicaKvTokens } from '../../../../src-main/core/engines/engine-memory.js';
import type { EngineRules } from '../../../../src-main/core/engines/engine-rules.js';
import { stepCost } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import {
  ENGLISH_BYTES_PER_TOKEN,
  HF_TOKENIZER_US_PER_TOKEN,
  tokenizedAt,
  tokenizeUsPerToken,
} from '../../../../src-main/core/engines/request-path.js';
import { simulateReplica, type RequestResult } from '../../../../src-main/core/engines/serving-sim.js';
import { deployment } from './engine-fixtures.js';

const sglang = engineRules('sglang', { version: '0.4.4' });
const withTokenizer = (usPerToken: number): EngineRules => ({
  ...sglang,
  host: { ...sglang.host, tokenizeUsPerToken: usPerToken },
});
const shipped = deployment({ engine: sglang });
const prefillUs = (tokens: number): number =>
  stepCost(shipped, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens, past: 0 }] }).us;
const ttftOf = (r: RequestResult | undefined): number => (r ? r.firstToken - r.arrival : NaN);

describe('request path: the prompt tokenized before the scheduler sees it', () => {
  it("costs Hugging Face's fast tokenizer 3.94 bytes a token at 1.93 bytes/µs; SGLang 0.4 and every vLLM state it, SGLang 0.3 does not", () => {
    expect(HF_TOKENIZER_US_PER_TOKEN).toBeCloseTo(2.041, 3);
    expect(sglang.host.tokenizeUsPerToken).toBe(HF_TOKENIZER_US_PER_TOKEN);
    expect(engineRules('sglang', { version: '0.3.0' }).host.tokenizeUsPerToken).toBeUndefined();
    for (const version of ['0.4.0', '0.5.0', '0.6.0', '0.8.2'])
      expect(engineRules('vllm', { version }).host.tokenizeUsPerToken).toBe(HF_TOKENIZER_US_PER_TOKEN);
  });

  it("TensorRT-LLM 0.9-0.19 (Triton's ensemble tokenizes in its preprocessing model) states it; the 0.20 rule does not", () => {
    for (const version of ['0.9.0', '0.12.0', '0.14.0', '0.19.0'])
      expect(engineRules('tensorrt-llm', { version }).host.tokenizeUsPerToken).toBe(HF_TOKENIZER_US_PER_TOKEN);
    expect(engineRules('tensorrt-llm', { version: '0.20.0' }).host.tokenizeUsPerToken).toBeUndefined();
    // At a vanishing rate a TensorRT-LLM request's first token is its tokenization, then its context step.
    const trt = deployment({ engine: engineRules('tensorrt-llm', { version: '0.14.0' }) });
    const context = stepCost(trt, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens: 467, past: 0 }] }).us;
    const load = { prompt: 467, output: 16, requests: 5, arrival: { kind: 'rate' as const, perSecond: 0.001 } };
    expect(serve(trt, load).ttft.p50).toBeCloseTo(467 * HF_TOKENIZER_US_PER_TOKEN + context, 3);
  });

  it('waits for the requests tokenized before it, then its own prompt', () => {
    expect(tokenizedAt(-Infinity, 100, 1000, 2)).toBe(2100);
    expect(tokenizedAt(5000, 100, 1000, 2)).toBe(7000);
    expect(tokenizedAt(50, 100, 1000, 0)).toBe(100);
  });

  it('at a vanishing rate the first token is the tokenization and then the prefill alone', () => {
    const load = { prompt: 1000, output: 16, requests: 5, arrival: { kind: 'rate' as const, perSecond: 0.001 } };
    const run = serve(shipped, load);
    expect(run.ttft.p50).toBeCloseTo(1000 * HF_TOKENIZER_US_PER_TOKEN + prefillUs(1000), 3);
    // Without it the oracle is the prefill alone, as before.
    const none = serve(deployment({ engine: withTokenizer(0) }), load);
    expect(none.ttft.p50).toBeCloseTo(prefillUs(1000), 3);
  });

  it('pays per byte: denser text (6.16 bytes a token) takes 6.16/3.94 as long a token as English', () => {
    expect(tokenizeUsPerToken(2)).toBe(2);
    expect(tokenizeUsPerToken(2, ENGLISH_BYTES_PER_TOKEN)).toBe(2);
    expect(tokenizeUsPerToken(2, 6.16)).toBeCloseTo((2 * 6.16) / 3.94, 9);
    expect(tokenizeUsPerToken(0, 6.16)).toBe(0);
    for (const bad of [0, -1, NaN, Infinity])
      expect(() => tokenizeUsPerToken(2, bad)).toThrow(/bytes per prompt token must be a positive number/);
  });

  it("a load's bytes per token move only the tokenization: vanishing-rate TTFT = tokens x per-byte cost + prefill", () => {
    const load = { prompt: 1000, output: 16, requests: 5, arrival: { kind: 'rate' as const, perSecond: 0.001 } };
    const dense = serve(shipped, { ...load, promptBytesPerToken: 6.16 });
    expect(dense.ttft.p50).toBeCloseTo((1000 * HF_TOKENIZER_US_PER_TOKEN * 6.16) / 3.94 + prefillUs(1000), 3);
    const english = serve(shipped, { ...load, promptBytesPerToken: ENGLISH_BYTES_PER_TOKEN });
    expect(english.ttft.p50).toBeCloseTo(serve(shipped, load).ttft.p50, 9);
    // The decode steps do not depend on the prompt's text.
    expect(dense.tpot.p50).toBeCloseTo(english.tpot.p50, 9);
    // An engine that tokenizes nothing is not moved by the text.
    const none = deployment({ engine: withTokenizer(0) });
    expect(serve(none, { ...load, promptBytesPerToken: 6.16 }).ttft.p50).toBeCloseTo(prefillUs(1000), 3);
  });

  it('tokenizes requests one after another: the second of two sent together waits for the first', () => {
    const slow = deployment({ engine: withTokenizer(50) });
    const opts = { kvTokens: replicaKvTokens(slow), maxNumSeqs: 256, maxBatchedTokens: 8192 };
    const decodeUs = stepCost(slow, { decodeSeqs: 1, decodeContext: 1100, prefill: [] }).us;
    const [a, b] = simulateReplica(
      slow,
      [
        { at: 0, prompt: 1000, output: 400 },
        { at: 0, prompt: 1000, output: 8 },
      ],
      opts,
    ).requests;
    expect(ttftOf(a)).toBeCloseTo(50_000 + prefillUs(1000), 3);
    // B reaches the scheduler at 100 ms, while A decodes: the step running, the one formed, then its prefill.
    expect(ttftOf(b)).toBeGreaterThan(100_000 + prefillUs(1000));
    expect(ttftOf(b)).toBeLessThan(100_000 + prefillUs(1000) + 2.05 * decodeUs);
  });

  it('does not hold the GPU: a running answer keeps its decode steps while another prompt is tokenized', () => {
    const slow = deployment({ engine: withTokenizer(50) });
    const opts = { kvTokens: replicaKvTokens(slow), maxNumSeqs: 256, maxBatchedTokens: 8192 };
    const run = simulateReplica(
      slow,
      [
        { at: 0, prompt: 1000, output: 2000 },
        { at: 60_000, prompt: 1000, output: 8 },
      ],
      opts,
    );
    const decodeUs = stepCost(slow, { decodeSeqs: 2, decodeContext: 2200, prefill: [] }).us;
    // The longest gap is the other prompt's step and a decode step, not its 50 ms of tokenization.
    expect(Math.max(...run.itl.gapsUs)).toBeLessThan(prefillUs(1000) + 2.05 * decodeUs);
  });

  it("a closed loop's next request is tokenized after it is sent", () => {
    const reqs = Array.from({ length: 4 }, () => ({ at: 0, prompt: 1000, output: 4 }));
    const slow = deployment({ engine: withTokenizer(20) });
    const run = simulateReplica(slow, reqs, {
      kvTokens: replicaKvTokens(slow),
      maxNumSeqs: 256,
      maxBatchedTokens: 8192,
      closedLoop: 1,
    });
    for (const r of run.requests) expect(ttftOf(r)).toBeCloseTo(20_000 + prefillUs(1000), 3);
  });

  it.each([10, 40])("holds Little's law at %i requests/s with a slow tokenizer", (perSecond) => {
    const slow = deployment({ engine: withTokenizer(20) });
    const run = serve(slow, { prompt: 256, output: 128, requests: 400, arrival: { kind: 'rate', perSecond, seed: 7 } });
    const throughput = run.sim.requests.length / run.sim.makespanUs;
    expect(run.sim.meanInSystem / (throughput * run.e2e.mean)).toBeCloseTo(1, 2);
  });
});

describe("request path: vLLM's API server tokenizes before the engine core sees the request", () => {
  const v1 = deployment({ engine: engineRules('vllm', { version: '0.8.2' }) });
  const v1Prefill = (tokens: number): number =>
    stepCost(v1, { decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens, past: 0 }] }).us;

  it('at a vanishing rate a V1 first token is the tokenization, then the prefill alone', () => {
    const run = serve(v1, {
      prompt: 1000,
      output: 16,
      requests: 5,
      arrival: { kind: 'rate', perSecond: 0.001 },
    });
    expect(run.ttft.p50).toBeCloseTo(1000 * HF_TOKENIZER_US_PER_TOKEN + v1Prefill(1000), 3);
  });

  it('one tokenizer thread: of two prompts sent together, the second reaches the scheduler after both are tokenized', () => {
    const opts = { kvTokens: replicaKvTokens(v1), maxNumSeqs: 256, maxBatchedTokens: 8192 };
    const [a, b] = simulateReplica(
      v1,
      [
        { at: 0, prompt: 4000, output: 4 },
        { at: 0, prompt: 4000, output: 4 },
      ],
      opts,
    ).requests;
    const tokenize = 4000 * HF_TOKENIZER_US_PER_TOKEN;
    expect(ttftOf(a)).toBeCloseTo(tokenize + v1Prefill(4000), 3);
    // B is handed over 8.2 ms after both arrive, while A's prompt step runs: it waits for that step.
    expect(ttftOf(b)).toBeGreaterThanOrEqual(2 * tokenize + v1Prefill(4000));
  });
});
