/** Serving figures of a plan, against hand computations on a two-stage plan. */
import { describe, expect, it } from 'vitest';
import {
  compareServing,
  servingFigures,
  type ServingFigures,
  type ServingInput,
} from '../../../../../src-main/core/planner/serving/serving.js';
import type { Plan, PlanLayer, PlanProblem } from '../../../../../src-main/core/planner/types.js';

const layer = (params: number, kv: number): PlanLayer => ({
  name: 'block',
  forwardUs: {},
  backwardUs: {},
  params,
  outBytesPerSample: 0,
  activationBytesPerSample: 0,
  residentBytesPerSample: kv,
});

const GB = 1e9;
const problem = { layers: [layer(1e9, 0), layer(1e9, 1e8), layer(2e9, 1e8)], batch: 4 } as unknown as PlanProblem;
const plan = {
  stages: [
    { from: 0, to: 2, devices: ['a'], timeUs: 0, memoryBytes: {} },
    { from: 2, to: 3, devices: ['b', 'c'], timeUs: 0, memoryBytes: {} },
  ],
  stepUs: 5000,
  memory: [
    { device: 'a', neededBytes: 10 * GB, availableBytes: 12 * GB },
    { device: 'b', neededBytes: 10 * GB, availableBytes: 10.2 * GB },
    { device: 'c', neededBytes: 10 * GB, availableBytes: 20 * GB },
  ],
} as unknown as Plan;

/** A request of 1000 prompt tokens and none generated, a model of 8000 tokens' context, 16-bit weights; a, b, c's bandwidths. */
const SERVED: ServingInput = {
  prompt: 1000,
  tokens: 0,
  modelContext: 8000,
  bytesPerParam: 2,
  decodeGBps: { a: 1000, b: 500, c: 1000 },
};

describe('servingFigures', () => {
  it('reads only the experts a decode step’s tokens touch in a mixture-of-experts block', () => {
    // 1 GB of dense weights and 8 GB of experts (8 of 1 GB), 2 per token; no KV cache.
    const moe = { ...layer(9e9, 0), experts: { params: 8e9, count: 8, topK: 2 } };
    const one = { layers: [moe], batch: 1 } as unknown as PlanProblem;
    const single = {
      stages: [{ from: 0, to: 1, devices: ['a'], timeUs: 0, memoryBytes: {} }],
      stepUs: 1000,
      memory: [{ device: 'a', neededBytes: 20 * GB, availableBytes: 80 * GB }],
    } as unknown as Plan;
    const input = { prompt: 100, tokens: 0, modelContext: 8000, bytesPerParam: 1, decodeGBps: { a: 1000 } };
    // Batch 1: 1 GB dense + 2 experts of 1 GB, at 1000 GB/s.
    expect(servingFigures(one, single, input).decodeStepUs).toBeCloseTo((3 * GB) / 1e6, 6);
    // Batch 4: 8 x (1 - (6/8)^4) = 5.47 experts touched.
    const four = servingFigures({ ...one, batch: 4 } as PlanProblem, single, input).decodeStepUs;
    expect(four).toBeCloseTo(((1 + 8 * (1 - 0.75 ** 4)) * GB) / 1e6, 6);
  });

  it('adds the stages’ decode times, each its slowest device reading weights and its sequences’ KV cache', () => {
    const s = servingFigures(problem, plan, SERVED);
    // Stage 1: 4 GB of weights + 1e8 x 4 sequences of cache at 1000 GB/s; stage 2: 4 GB + 1e8 x 2 at 500 GB/s.
    const stage1 = (4 * GB + 4e8) / 1e6;
    const stage2 = (4 * GB + 2e8) / 5e5;
    expect(s.decodeStepUs).toBeCloseTo(stage1 + stage2, 6);
    expect(s.tokensPerSecond).toBeCloseTo((4 * 1e6) / (stage1 + stage2), 6);
    expect(s.ttftUs).toBe(5000);
    // Device b has 0.2 GB free for a 0.2 GB cache at 1000 tokens: twice the context.
    expect(s.maxContext).toBe(2000);
  });

  it('is capped at the model’s context', () => {
    const roomy = { ...plan, memory: plan.memory.map((m) => ({ ...m, availableBytes: 1e15 })) } as Plan;
    const s = servingFigures(problem, roomy, { ...SERVED, decodeGBps: {} });
    expect(s.maxContext).toBe(8000);
  });

  it('times a whole request: the first token, then its output tokens’ steps at the mean context', () => {
    // The cache is held for 1000 + 1000 tokens; the steps average the one at 1500, three quarters of it.
    const s = servingFigures(problem, plan, { ...SERVED, tokens: 1000 });
    const step = (4 * GB + 0.75 * 4e8) / 1e6 + (4 * GB + 0.75 * 2e8) / 5e5;
    expect(s.decodeStepUs).toBeCloseTo(step, 6);
    expect(s.requestUs).toBeCloseTo(5000 + 1000 * step, 3);
    expect(s.tokensPerSecondPerSequence).toBeCloseTo(1e6 / step, 6);
    expect(s.tokensPerSecond).toBeCloseTo(4 * s.tokensPerSecondPerSequence, 6);
  });

  it('finds the most concurrent sequences every device holds, and the tokens per second there', () => {
    const s = servingFigures(problem, plan, SERVED);
    // a: 12 GB less 9.6 GB without its cache holds 24 sequences of 0.1 GB; b: 0.4 GB, 4 sequences
    // on each of the 2 replicas: 8; c: 102 x 2. The step at 8: stage 1 reads 8 caches, stage 2 four.
    expect(s.maxBatch).toBe(8);
    const step = (4 * GB + 8e8) / 1e6 + (4 * GB + 4e8) / 5e5;
    expect(s.maxBatchDecodeStepUs).toBeCloseTo(step, 6);
    expect(s.maxBatchTokensPerSecond).toBeCloseTo(8e6 / step, 6);
  });

  it('takes a token’s arithmetic (the prefill’s time per prompt token) as a floor on a large batch’s step', () => {
    const one = {
      ...layer(1e9, 1e6),
      forwardUs: { a: 1e5 },
    };
    const p1 = { layers: [one], batch: 1 } as unknown as PlanProblem;
    const plan1 = {
      stages: [{ from: 0, to: 1, devices: ['a'], timeUs: 0, memoryBytes: {} }],
      stepUs: 1e5,
      memory: [{ device: 'a', neededBytes: 2 * GB + 1e6, availableBytes: 2 * GB + 1e9 }],
    } as unknown as Plan;
    const s = servingFigures(p1, plan1, { ...SERVED, decodeGBps: { a: 1000 } });
    // Batch 1 reads 2 GB in 2000 µs (its 100 µs of arithmetic hides); 1000 sequences take 1e5 µs of arithmetic.
    expect(s.decodeStepUs).toBeCloseTo((2 * GB + 1e6) / 1e6, 6);
    expect(s.maxBatch).toBe(1000);
    expect(s.maxBatchDecodeStepUs).toBeCloseTo(1e5, 6);
  });
});

describe('compareServing', () => {
  const figures = (requestUs: number, maxBatchTokensPerSecond: number): ServingFigures =>
    ({ requestUs, maxBatchTokensPerSecond }) as ServingFigures;

  it('ranks by a whole request’s time for latency, by tokens per second at the largest batch for throughput', () => {
    const quick = figures(1e6, 500);
    const wide = figures(2e6, 2000);
    expect([wide, quick].sort((a, b) => compareServing('latency', a, b))).toEqual([quick, wide]);
    expect([quick, wide].sort((a, b) => compareServing('throughput', a, b))).toEqual([wide, quick]);
  });
});
