/**
 * SGLang's admission with the running sequences' output reserved (PrefillAdder, new_token_ratio): the
 * helpers' arithmetic, which versions carry it, and the replica's behaviour: a request is held while
 * the reserved output would not fit and runs once a running sequence ends; Little's law still holds.
 */
import { describe, expect, it } from 'vitest';
import type { EngineRules } from '../../../../src-main/core/engines/engine-rules.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import {
  admissionTokens,
  decayedRatio,
  ratioAfterRetract,
  reservedOutput,
} from '../../../../src-main/core/engines/output-reserve.js';
import { simulateReplica, type SimRequest, type SimResult } from '../../../../src-main/core/engines/serving-sim.js';
import { deployment } from './engine-fixtures.js';

const sglang = engineRules('sglang', { version: '0.4.4' });
const rule = sglang.batching.outputReserve;
const unreserved: EngineRules = { ...sglang, batching: { ...sglang.batching, outputReserve: undefined } };
const caps = { maxNumSeqs: 256, maxBatchedTokens: 8192 };

describe('outputReserve: the arithmetic', () => {
  if (!rule) throw new Error('SGLang 0.4 reserves output');

  it("SGLang 0.4 reserves the running sequences' output; SGLang 0.3 (not read) and vLLM do not", () => {
    expect(rule).toEqual({ initRatio: 0.7, minRatio: 0.7 * 0.14, decaySteps: 600, clip: 4096, retractSteps: 20 });
    expect(engineRules('sglang', { version: '0.3.0' }).batching.outputReserve).toBeUndefined();
    expect(engineRules('vllm').batching.outputReserve).toBeUndefined();
  });

  it('reserves each running sequence its remaining output, clipped at 4096, times the ratio', () => {
    const running = [
      { output: 1000, generated: 400 },
      { output: 10_000, generated: 0 },
      { output: 5, generated: 5 },
    ];
    expect(reservedOutput(rule, 0.5, running)).toBeCloseTo((600 + 4096) * 0.5, 9);
    expect(admissionTokens(rule, 300, 10_000)).toBe(300 + 4096);
  });

  it('decays the ratio from 0.7 to 0.098 over 600 decode steps, and not below', () => {
    expect(decayedRatio(rule, 0.7, 300)).toBeCloseTo((0.7 + 0.098) / 2, 9);
    expect(decayedRatio(rule, 0.7, 600)).toBeCloseTo(0.098, 9);
    expect(decayedRatio(rule, 0.7, 6000)).toBeCloseTo(0.098, 9);
  });

  it('after a preemption: (tokens written + 20 a sequence) over the outputs of those left, at most 1', () => {
    expect(ratioAfterRetract(rule, [{ output: 1000, generated: 180 }])).toBeCloseTo(0.2, 9);
    expect(ratioAfterRetract(rule, [{ output: 10, generated: 9 }])).toBe(1);
  });
});

describe('outputReserve: the replica', () => {
  const reserving = deployment({ engine: sglang });
  const plain = deployment({ engine: unreserved });
  // A decodes 1,000 tokens; B comes while it does. A holds ~100-1,100 tokens and is expected to write ~0.7 x 1,000 more.
  const a: SimRequest = { at: 0, prompt: 100, output: 1000 };
  const b: SimRequest = { at: 50_000, prompt: 100, output: 500 };
  const run = (d: typeof reserving, kvTokens: number): SimResult => simulateReplica(d, [a, b], { kvTokens, ...caps });

  it("holds a request while the running sequences' reserved output leaves too little for its prompt and output", () => {
    const [ra, rb] = run(reserving, 1300).requests;
    expect(rb?.firstToken ?? 0).toBeGreaterThan(ra?.end ?? Infinity);
    // Without the reservation the cache has room for B's prompt now: it starts while A decodes.
    const [pa, pb] = run(plain, 1300).requests;
    expect(pb?.firstToken ?? Infinity).toBeLessThan(pa?.end ?? 0);
  });

  it('admits it at once when the cache holds both', () => {
    const [ra, rb] = run(reserving, 4000).requests;
    expect(rb?.firstToken ?? Infinity).toBeLessThan(ra?.end ?? 0);
  });

  it('a request alone runs even when its prompt and output exceed what the reservation counts', () => {
    const r = simulateReplica(reserving, [{ at: 0, prompt: 900, output: 300 }], { kvTokens: 1000, ...caps });
    expect(r.requests).toHaveLength(1);
  });

  const busy: SimRequest[] = Array.from({ length: 200 }, (_, i) => ({ at: i * 20_000, prompt: 200, output: 400 }));
  const tight = { kvTokens: 8000, ...caps };

  it.each([
    ['reserving', reserving],
    ['not reserving', plain],
  ])("holds Little's law on a run whose cache binds (%s)", (_name, d) => {
    const r = simulateReplica(d, busy, tight);
    expect(r.requests).toHaveLength(200);
    const e2e = r.requests.reduce((s, q) => s + q.end - q.arrival, 0) / r.requests.length;
    expect(r.meanInSystem / ((r.requests.length / r.makespanUs) * e2e)).toBeCloseTo(1, 2);
  });

  it('on that run, waits longer for first tokens and preempts less than admitting on the prompt alone', () => {
    const ttft = (r: SimResult): number => {
      const t = r.requests.map((q) => q.firstToken - q.arrival).sort((x, y) => x - y);
      return t[t.length >> 1] ?? NaN;
    };
    const held = simulateReplica(reserving, busy, tight);
    const free = simulateReplica(plain, busy, tight);
    expect(ttft(held)).toBeGreaterThan(ttft(free));
    expect(held.preemptions).toBeLessThan(free.preemptions);
  });
});
