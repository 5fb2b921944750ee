/** Context parallelism's slice of a sample and ring attention's exposed steps (cost/context-parallel.ts). */
import { describe, expect, it } from 'vitest';
import { contextProblem, ringAttentionUs } from '../../../../../src-main/core/planner/cost/context-parallel.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import type { PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { likeGpus } from '../../../../helpers/like-gpus.js';

const { ids, devices, links, times } = likeGpus(4, { alphaUs: 10, gbps: 100 });

/** Four GPUs linked at 100 GB/s, 10 µs; one block whose attention core takes `coreUs` a sample. */
function problem(coreUs: number): PlanProblem {
  return {
    layers: [
      {
        name: 'block.0',
        forwardUs: times(4000),
        backwardUs: times(8000),
        params: 1e8,
        outBytesPerSample: 8e6,
        activationBytesPerSample: 4e8,
        kvBytesPerSample: 4e7,
        selective: { activationBytesPerSample: 2e8, recomputeUs: times(coreUs) },
      },
    ],
    devices,
    links,
    mode: 'training',
    batch: 4,
    sequence: 8192,
    bytesPerParam: 16,
    zeroStage: 0,
    overheadBytes: 0,
  };
}

describe('contextProblem', () => {
  it('makes a sample c slices of s/c tokens: per-slice times, activations and K/V over c, c times the batch', () => {
    const p = contextProblem(problem(1000), 4);
    const l = p.layers[0];
    expect(p.batch).toBe(16);
    expect(p.sequence).toBe(2048);
    expect(l?.forwardUs['m/gpu:0']).toBe(1000);
    expect(l?.backwardUs['m/gpu:0']).toBe(2000);
    expect(l?.activationBytesPerSample).toBe(1e8);
    expect(l?.outBytesPerSample).toBe(2e6);
    expect(l?.kvBytesPerSample).toBe(1e7);
    expect(l?.selective?.recomputeUs['m/gpu:0']).toBe(250);
    expect(l?.params).toBe(1e8);
    expect(contextProblem(problem(1000), 1)).toEqual(problem(1000));
  });
});

describe('ringAttentionUs', () => {
  const stage = { from: 0, to: 1 };
  it('exposes (c − 1) messages of the K/V slice forward and (c − 1) of K/V and their gradients backward when attention hides nothing', () => {
    const ctx = plannerContext(contextProblem(problem(0), 4));
    // 2 slices a rank: each step sends 2 x 1e7 bytes; 10 µs + 2e7 / 1e5 = 210 µs; backward 2 x the bytes: 410 µs.
    expect(ringAttentionUs(ctx, ids, stage, 2, 1, 4)).toBeCloseTo(3 * 210 + 3 * 410, 9);
  });

  it('hides each step’s message behind that step’s attention (1/c of the rank’s), and reruns the forward ring under recomputation', () => {
    // A slice’s attention: 1000 / 4 = 250 µs, 2 slices a rank: 500 µs, 125 a step: 85 µs exposed forward, 410 − 250 = 160 backward.
    const ctx = plannerContext(contextProblem(problem(1000), 4));
    expect(ringAttentionUs(ctx, ids, stage, 2, 1, 4)).toBeCloseTo(3 * 85 + 3 * 160, 9);
    const recomputed = plannerContext({ ...contextProblem(problem(1000), 4), recompute: 'selective' });
    expect(ringAttentionUs(recomputed, ids, stage, 2, 1, 4)).toBeCloseTo(2 * 3 * 85 + 3 * 160, 9);
    // Long enough attention hides the ring whole.
    expect(ringAttentionUs(plannerContext(contextProblem(problem(1e6), 4)), ids, stage, 2, 1, 4)).toBe(0);
  });

  it('splits the heads over the tensor-parallel members, each in its own ring, and is 0 without cp or when serving', () => {
    const ctx = plannerContext(contextProblem(problem(0), 2));
    // tp = 2, cp = 2: rings {0, 2} and {1, 3}; 2 slices x 2e7 bytes / 2 members = 2e7: 210 µs, backward 410.
    expect(ringAttentionUs(ctx, ids, stage, 2, 2, 2)).toBeCloseTo(210 + 410, 9);
    expect(ringAttentionUs(ctx, ids, stage, 2, 1, 1)).toBe(0);
    expect(ringAttentionUs(plannerContext({ ...problem(0), mode: 'inference' }), ids, stage, 2, 1, 4)).toBe(0);
  });
});
