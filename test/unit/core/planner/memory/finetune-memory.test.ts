/**
 * Fine-tuning memory in the planner: frozen weights beside the adapters' state, the stacks'
 * activations, and full recomputation that keeps checkpoints and holds one block's peak.
 */
import { describe, expect, it } from 'vitest';
import { tunedActivationBytes, tunedLayerMemory } from '../../../../../src-main/core/planner/memory/finetune-memory.js';
import { recomputeProblem } from '../../../../../src-main/core/planner/memory/recompute.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import type { PlanLayer, PlanProblem } from '../../../../../src-main/core/planner/types.js';

const block = {
  role: 'block',
  activationBytesPerSample: 1000,
  scoreBytesPerSample: 300,
  checkpointBytesPerSample: 100,
  logitsPerSample: 0,
} as const;
const head = {
  role: 'head',
  activationBytesPerSample: 50,
  scoreBytesPerSample: 0,
  checkpointBytesPerSample: 10,
  logitsPerSample: 40,
} as const;

describe('the stacks’ activations', () => {
  it('keeps no attention scores, holds the loss’s logits at the stack’s bytes, and never recomputes the head', () => {
    expect(tunedLayerMemory(block, 'peft')).toEqual({
      activationBytesPerSample: 700,
      fullRecompute: { keptBytesPerSample: 100, peakBytesPerSample: 700 },
    });
    expect(tunedLayerMemory(head, 'peft')).toEqual({ activationBytesPerSample: 400, fullRecompute: 'never' });
    expect(tunedLayerMemory(head, 'torchtune').activationBytesPerSample).toBe(120);
    expect(tunedLayerMemory(head, 'unsloth').activationBytesPerSample).toBe(0);
    // Unsloth offloads the checkpoints to host memory.
    expect(tunedLayerMemory(block, 'unsloth').fullRecompute).toEqual({
      keptBytesPerSample: 0,
      peakBytesPerSample: 700,
    });
  });

  it('adds up to the kept activations, or the checkpoints plus one block’s peak', () => {
    const layers = [tunedLayerMemory(block, 'peft'), tunedLayerMemory(block, 'peft'), tunedLayerMemory(head, 'peft')];
    expect(tunedActivationBytes(layers)).toEqual({ kept: 1800, checkpointed: 100 + 100 + 400 + 700 });
  });
});

const layer = (name: string, extra: Partial<PlanLayer>): PlanLayer => ({
  name,
  forwardUs: { d: 10 },
  backwardUs: { d: 15 },
  params: 1000,
  outBytesPerSample: 100,
  activationBytesPerSample: 700,
  ...extra,
});

const problem = (zeroStage: 0 | 3, devices = 1): PlanProblem => ({
  layers: [
    layer('block.0', { frozenBytes: 5000, fullRecompute: { keptBytesPerSample: 100, peakBytesPerSample: 700 } }),
    layer('block.1', { frozenBytes: 5000, fullRecompute: { keptBytesPerSample: 100, peakBytesPerSample: 700 } }),
    layer('head', { frozenBytes: 2000, params: 0, activationBytesPerSample: 400, fullRecompute: 'never' }),
  ],
  devices: Array.from({ length: devices }, (_, i) => ({
    id: `d${i}`,
    name: 'gpu',
    kind: 'gpu' as const,
    machine: 'm',
    memoryBytes: 1e9,
    estimate: 'datasheet' as const,
  })),
  links: [],
  mode: 'training',
  batch: 4,
  bytesPerParam: 16,
  zeroStage,
  overheadBytes: 0,
});

describe('a fine-tuned stage’s memory', () => {
  const load = { from: 0, to: 3, tp: 1, replicas: 1, samples: 2, inFlight: 1, microbatches: 2 };

  it('holds the frozen weights beside 16 bytes per adapter parameter', () => {
    const m = plannerContext(problem(0)).tables.deviceNeed(load);
    expect(m.parameterBytes).toBe(12_000 + 16 * 2000);
    expect(m.activationBytes).toBe(2 * (700 + 700 + 400));
  });

  it('shards the frozen weights over the replicas under ZeRO-3 only', () => {
    const m = plannerContext(problem(3, 2)).tables.deviceNeed({ ...load, replicas: 2 });
    expect(m.parameterBytes).toBe(12_000 / 2 + (16 * 2000) / 2);
  });

  it('full recomputation keeps the checkpoints, the head whole, and one block’s peak per sample', () => {
    const full = recomputeProblem(problem(0), 'full') as PlanProblem;
    expect(full.layers[2]).toEqual(problem(0).layers[2]);
    const m = plannerContext(full).tables.deviceNeed(load);
    expect(m.activationBytes).toBe(2 * (100 + 100 + 400) + 2 * 700);
  });
});
