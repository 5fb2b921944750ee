/** Serving figures of a plan, against hand computations on a two-stage plan. */
import { describe, expect, it } from 'vitest';
import { servingFigures } from '../../../../../src-main/core/planner/cost/serving.js';
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

describe('servingFigures', () => {
  it('adds the stages’ decode times, each its slowest device reading weights and its sequences’ KV cache', () => {
    const s = servingFigures(problem, plan, {
      context: 1000,
      modelContext: 8000,
      bytesPerParam: 2,
      decodeGBps: { a: 1000, b: 500, c: 1000 },
    });
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
    const s = servingFigures(problem, roomy, { context: 1000, modelContext: 8000, bytesPerParam: 2, decodeGBps: {} });
    expect(s.maxContext).toBe(8000);
  });
});
