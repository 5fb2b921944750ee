/** Activation recomputation applied to a problem's layers. */
import { describe, expect, it } from 'vitest';
import { recomputeProblem } from '../../../../../src-main/core/planner/memory/recompute.js';
import type { PlanLayer, PlanProblem } from '../../../../../src-main/core/planner/types.js';

const block: PlanLayer = {
  name: 'block.0',
  forwardUs: { a: 10, b: 20 },
  backwardUs: { a: 20, b: 40 },
  params: 1,
  outBytesPerSample: 100,
  activationBytesPerSample: 1000,
  selective: { activationBytesPerSample: 400, recomputeUs: { a: 3, b: 6 } },
};
const head: PlanLayer = { ...block, name: 'head', selective: undefined } as PlanLayer;
const problem = { mode: 'training', layers: [block, head] } as unknown as PlanProblem;

describe('recomputeProblem', () => {
  it('full: keeps each layer’s input-sized checkpoint and runs its forward again in backward', () => {
    const p = recomputeProblem(problem, 'full');
    expect(p?.recompute).toBe('full');
    expect(p?.layers.map((l) => [l.activationBytesPerSample, l.backwardUs])).toEqual([
      [100, { a: 30, b: 60 }],
      [100, { a: 30, b: 60 }],
    ]);
  });

  it('selective: drops the attention scores of transformer blocks and recomputes their core; other layers stay', () => {
    const p = recomputeProblem(problem, 'selective');
    expect(p?.layers.map((l) => [l.activationBytesPerSample, l.backwardUs])).toEqual([
      [400, { a: 23, b: 46 }],
      [1000, { a: 20, b: 40 }],
    ]);
  });

  it('selective under an op policy holds the block rebuilt once as its peak', () => {
    const op = {
      ...block,
      selective: { activationBytesPerSample: 350, recomputeUs: { a: 4, b: 8 }, peakBytesPerSample: 1000 },
    };
    const p = recomputeProblem({ ...problem, layers: [op, head] }, 'selective');
    expect(p?.layers[0]).toMatchObject({ activationBytesPerSample: 350, recomputePeakBytesPerSample: 1000 });
    expect(p?.layers[1]?.recomputePeakBytesPerSample).toBeUndefined();
  });

  it('does not apply to inference, nor selective without a transformer block', () => {
    expect(recomputeProblem({ ...problem, mode: 'inference' }, 'full')).toBeNull();
    expect(recomputeProblem({ ...problem, layers: [head] }, 'selective')).toBeNull();
  });
});
