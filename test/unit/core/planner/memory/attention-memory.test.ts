import { describe, expect, it } from 'vitest';
import { transformerLayerActivationBytes } from '../../../../../src-main/core/catalog/activation-memory.js';
import {
  blockActivationBytes,
  softmaxStatsBytes,
  trainedActivationTotals,
  trainedLayersMemory,
  TRAINING_STACK_ATTENTION,
} from '../../../../../src-main/core/planner/memory/attention-memory.js';

// A GPT block of Korthikanti et al.: 16-bit, GELU MLP of 4h, dropout; s = 2048, h = 4096, a = 32, one sequence.
const s = 2048;
const h = 4096;
const a = 32;
const gpt = { seq: s, batch: 1, hidden: h, heads: a, ffn: 4 * h, elementBytes: 2, mlp: 'gelu', dropout: true } as const;
const shape = { seq: s, heads: a, elementBytes: 2, dropout: true };

describe('a block under fused and unfused attention', () => {
  const unfused = transformerLayerActivationBytes(gpt);
  it("unfused keeps Korthikanti's sbh(34 + 5as/h): 34·2048·4096 + 5·32·2048² = 956,301,312 bytes", () => {
    expect(unfused).toBe(956_301_312);
    expect(blockActivationBytes(unfused, shape, 'unfused')).toBe(956_301_312);
  });
  it('fused keeps 34sbh and the fp32 softmax statistics (4·a·s = 262,144 bytes), no s² scores', () => {
    expect(softmaxStatsBytes(shape)).toBe(262_144);
    expect(blockActivationBytes(unfused, shape, 'fused')).toBe(285_212_672 + 262_144);
  });
  it('counts a batch of sequences with the scores and statistics of each', () => {
    const four = transformerLayerActivationBytes({ ...gpt, batch: 4 });
    expect(blockActivationBytes(four, shape, 'fused', 4)).toBe(4 * (285_212_672 + 262_144));
  });
  it('training assumes fused attention, and says which stacks run it', () => {
    expect(TRAINING_STACK_ATTENTION.kernel).toBe('fused');
    expect(TRAINING_STACK_ATTENTION.source).toMatch(/SDPA/);
  });
});

describe('full recomputation: the stored block inputs plus one block while it is recomputed', () => {
  // Two blocks keeping 100 bytes unfused, 40 of them s² terms (s = 2, a = 2, 2-byte, dropout:
  // (2e + 1)·a·s² = 5·2·4 = 40), with inputs of 10 bytes; a head keeping 30 with an output of 30.
  const tiny = { seq: 2, heads: 2, elementBytes: 2, dropout: true };
  const layers = [
    { block: true, activationBytes: 100, outBytes: 10 },
    { block: true, activationBytes: 100, outBytes: 10 },
    { block: false, activationBytes: 30, outBytes: 30 },
  ];
  it('a fused block keeps 100 − 40 + 4·2·2 = 76 bytes; a layer that is not a block keeps its own count', () => {
    const m = trainedLayersMemory(layers, tiny, 'fused');
    expect(m.map((l) => l.activationBytes)).toEqual([76, 76, 30]);
    expect(m[0]?.fullRecompute).toEqual({ keptBytes: 10, peakBytes: 76 });
    expect(m[2]?.fullRecompute).toBeUndefined();
  });
  it('without recomputation 76 + 76 + 30 = 182; with it 10 + 10 + 30 + the 76 of one block = 126', () => {
    const m = trainedLayersMemory(layers, tiny, 'fused');
    expect(
      trainedActivationTotals(
        m,
        layers.map((l) => l.outBytes),
      ),
    ).toEqual({ kept: 182, checkpointed: 126 });
  });
  it('unfused, the peak is the whole block with its scores: 10 + 10 + 30 + 100 = 150', () => {
    const m = trainedLayersMemory(layers, tiny, 'unfused');
    expect(
      trainedActivationTotals(
        m,
        layers.map((l) => l.outBytes),
      ).checkpointed,
    ).toBe(150);
  });
});
