import { describe, expect, it } from 'vitest';
import { memoryUtilization, stageMemory, unfusedScoreBytes } from '../../../../src-main/core/engines/engine-memory.js';
import type { EngineRules } from '../../../../src-main/core/engines/engine-rules.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { deployment } from './engine-fixtures.js';

describe('stageMemory', () => {
  const v04 = engineRules('vllm', { version: '0.4.1' });
  const v06 = engineRules('vllm', { version: '0.6.0' });

  it('gives vLLM 0.4-0.5 on one GPU its utilization share less weights and activations, nothing reserved beside', () => {
    const m = stageMemory(deployment({ engine: v04, gpu: 'RTX 3090' }), 0);
    const card = 24 * 2 ** 30;
    expect(m.reservedBytes).toBe(0);
    expect(m.kvBytes).toBeCloseTo(0.9 * card - m.weightBytes - m.activationBytes, 0);
  });

  it('keeps the reserve where NCCL communicators come within the profile (tensor parallel), and from 0.6 on', () => {
    expect(stageMemory(deployment({ engine: v04, tp: 2 }), 0).reservedBytes).toBe(v04.memory.reservedBytes);
    expect(stageMemory(deployment({ engine: v06, gpu: 'RTX 3090' }), 0).reservedBytes).toBe(v06.memory.reservedBytes);
    expect(v04.memory.reservedBytes).toBeGreaterThan(0);
  });
});

describe("SGLang's mem_fraction_static by tensor-parallel degree", () => {
  const sgl = engineRules('sglang', { version: '0.4.4' });
  const sgl03 = engineRules('sglang', { version: '0.3.0' });

  it('takes 0.88 alone, 0.87 at TP2-3, 0.85 at TP4-7, 0.81 at TP8-15 (0.83 in 0.3), 0.79 from TP16', () => {
    expect([1, 2, 3, 4, 7, 8, 15, 16].map((tp) => memoryUtilization(sgl.memory, tp))).toEqual([
      0.88, 0.87, 0.87, 0.85, 0.85, 0.81, 0.81, 0.79,
    ]);
    expect(memoryUtilization(sgl03.memory, 8)).toBe(0.83);
  });

  it("sizes a TP4 group's KV cache from 0.85 of each GPU, not 0.88", () => {
    const m = stageMemory(deployment({ engine: sgl, model: 'llama-3.1-70b', tp: 4 }), 0);
    const card = 80 * 2 ** 30;
    expect(m.kvBytes).toBeCloseTo(0.85 * card - m.reservedBytes - m.weightBytes - m.activationBytes, 0);
  });

  it('keeps one share at every degree where the launch states it (an empty table), and for engines without one', () => {
    const stated = { ...sgl.memory, utilization: 0.7, utilizationByTp: [] };
    expect(memoryUtilization(stated, 4)).toBe(0.7);
    const vllm = engineRules('vllm', { version: '0.6.0' });
    expect(memoryUtilization(vllm.memory, 8)).toBe(vllm.memory.utilization);
  });
});

describe("llama.cpp's input token embedding in host memory", () => {
  const cpp = engineRules('llama.cpp');
  const table = 128256 * 4096 * 2; // Llama 3 8B's token_embd in f16

  it('leaves the table off the first stage and keeps the output layer on the last (llm_load_tensors)', () => {
    const one = (engine: EngineRules) => stageMemory(deployment({ engine, gpu: 'RTX 4080', format: 'fp16' }), 0);
    const { inputEmbedding: _, ...withTable } = cpp.memory;
    const onGpu: EngineRules = { ...cpp, memory: withTable };
    expect(cpp.memory.inputEmbedding).toBe('host');
    expect(one(onGpu).weightBytes - one(cpp).weightBytes).toBe(table);
    // Over two stages the first holds its blocks only, the last its blocks and the LM head.
    const two = deployment({ engine: cpp, gpu: 'RTX 4080', format: 'fp16', pp: 2 });
    expect(stageMemory(two, 1).weightBytes - stageMemory(two, 0).weightBytes).toBe(table);
  });
});

describe('unfusedScoreBytes: the attention scores a full-cache graph reserve holds (llama.cpp without -fa)', () => {
  const cpp = engineRules('llama.cpp', {});
  const MiB = 2 ** 20;

  it('counts one layer of f32 KQ and its f32 mask: n_ctx x min(n_ctx, n_ubatch) x (heads + 1) x 4', () => {
    expect(unfusedScoreBytes(cpp, 32, 4096)).toBe(4096 * 512 * 33 * 4);
    // A context under one ubatch reserves a step of the context's tokens.
    expect(unfusedScoreBytes(cpp, 32, 256)).toBe(256 * 256 * 33 * 4);
    expect(unfusedScoreBytes(cpp, 32, 0)).toBe(0);
  });

  it("grows as llama.cpp's compute buffer grows with -c: 164 -> 2144 MiB from 2,048 to 32,768 (32 heads, -ub 512, flash_attn = 0)", () => {
    // fedora-copr/logdetective#106's log of llama_new_context_with_model (a 32-head 7B model, 128 KiB of KV a token).
    expect((unfusedScoreBytes(cpp, 32, 32768) - unfusedScoreBytes(cpp, 32, 2048)) / MiB).toBe(2144 - 164);
  });

  it('counts none under flash attention, nor for an engine that reserves no full-cache graph', () => {
    const fa = { ...cpp, attention: cpp.flashAttention ?? cpp.attention };
    expect(fa.attention.prefill).toBe('flash');
    expect(unfusedScoreBytes(fa, 32, 4096)).toBe(0);
    expect(unfusedScoreBytes(engineRules('vllm', {}), 32, 4096)).toBe(0);
  });
});
