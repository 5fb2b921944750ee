/** llama.cpp's ubatches: a step's batch computed in -ub pieces, pipelined over a layer split from b2413. */
import { describe, expect, it } from 'vitest';
import { stepCost, ubatchLoads } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import type { EngineRules } from '../../../../src-main/core/engines/engine-rules.js';
import { deployment } from './engine-fixtures.js';

const prefill = (tokens: number, past = 0) => ({ decodeSeqs: 0, decodeContext: 0, prefill: [{ tokens, past }] });
const llama = engineRules('llama.cpp', { version: 'b2413' });
const unpipelined: EngineRules = { ...llama, split: { ...llama.split, pipelinesUbatches: false } };

describe('ubatchLoads', () => {
  it('cuts a batch into ubatches, decoding sequences first, each prompt piece after the part before it', () => {
    const parts = ubatchLoads({ decodeSeqs: 2, decodeContext: 200, prefill: [{ tokens: 1100, past: 10 }] }, 512);
    expect(parts.map((p) => p.decodeSeqs)).toEqual([2, 0, 0]);
    expect(parts[0]?.decodeContext).toBe(200);
    expect(parts.map((p) => p.prefill)).toEqual([
      [{ tokens: 510, past: 10 }],
      [{ tokens: 512, past: 520 }],
      [{ tokens: 78, past: 1032 }],
    ]);
  });

  it('leaves a batch that fits one ubatch whole', () => {
    expect(ubatchLoads(prefill(512), 512)).toEqual([prefill(512)]);
  });
});

describe('stepCost in ubatches', () => {
  it('on one GPU, computes a 2048-token batch as its four 512-token ubatches one after another', () => {
    const dep = deployment({ engine: llama, format: 'q4_k', gpu: 'RTX 4090' });
    const whole = stepCost(dep, prefill(2048)).gpuUs;
    const pieces = [0, 512, 1024, 1536].reduce((a, past) => a + stepCost(dep, prefill(512, past)).gpuUs, 0);
    expect(whole).toBeCloseTo(pieces, 6);
  });

  it('over a 4-GPU layer split, pipelines the ubatches: about (4 + 4 - 1) / 16 of them one after another', () => {
    const spec = { format: 'q4_k', gpu: 'RTX 4090', pp: 4 } as const;
    const piped = stepCost(deployment({ ...spec, engine: llama }), prefill(2048)).gpuUs;
    const serial = stepCost(deployment({ ...spec, engine: unpipelined }), prefill(2048)).gpuUs;
    // Equal stages and ubatches give 7/16; later ubatches attend to more past, so a little more.
    expect(piped / serial).toBeGreaterThan(7 / 16);
    expect(piped / serial).toBeLessThan(0.5);
  });

  it('gains nothing from the pipeline with one ubatch a step, nor on one GPU', () => {
    const spec = { format: 'q4_k', gpu: 'RTX 4090', pp: 4 } as const;
    expect(stepCost(deployment({ ...spec, engine: llama }), prefill(512)).gpuUs).toBeCloseTo(
      stepCost(deployment({ ...spec, engine: unpipelined }), prefill(512)).gpuUs,
      6,
    );
    const one = { format: 'q4_k', gpu: 'RTX 4090' } as const;
    expect(stepCost(deployment({ ...one, engine: llama }), prefill(2048)).gpuUs).toBeCloseTo(
      stepCost(deployment({ ...one, engine: unpipelined }), prefill(2048)).gpuUs,
      6,
    );
  });
});

describe("llama.cpp's batches by version", () => {
  it('takes -b 2048 in -ub 512 ubatches, pipelined over a layer split, from b2413 (March 2024)', () => {
    const now = engineRules('llama.cpp', { date: '2024-05-12' });
    expect(now.since).toBe('b2413');
    expect(now.batching.maxBatchedTokens).toBe(2048);
    expect(now.batching.ubatchTokens).toBe(512);
    expect(now.split.pipelinesUbatches).toBe(true);
    expect(now.memory.activationTokens).toBe(512);
  });

  it('before b2413, steps of -b 512 tokens with the layer split run one GPU after another', () => {
    const before = engineRules('llama.cpp', { date: '2024-01-10' });
    expect(before.batching.maxBatchedTokens).toBe(512);
    expect(before.batching.ubatchTokens).toBeUndefined();
    expect(before.split.pipelinesUbatches).toBe(false);
  });
});
