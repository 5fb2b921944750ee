/** The key/value cache and the current decoders' attention and experts, against hand-computed figures. */
import { describe, expect, it } from 'vitest';
import {
  catalogWorkload,
  getCatalogEntry,
  kvBytesPerToken,
  kvCacheBytes,
} from '../../../../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../../../../src-main/core/catalog/index.js';

const decoder = (name: string): TransformerEntry => getCatalogEntry(name) as TransformerEntry;

describe('kvCacheBytes', () => {
  it('Llama 3.1 8B at bf16 and 8k context holds 1.07 GB per sequence (2 x 32 layers x 8 x 128 x 8192 x 2 B)', () => {
    expect(kvCacheBytes(decoder('llama-3.1-8b'), { context: 8192, batch: 1, dtype: 'bf16' })).toBe(1_073_741_824);
    expect(kvBytesPerToken(decoder('llama-3.1-8b'), 'bf16')).toBe(131_072);
  });

  it('scales with context, batch and element size; grouped-query attention divides it by heads / kvHeads', () => {
    const e = decoder('llama-3.1-70b');
    const one = kvCacheBytes(e, { context: 1024, batch: 1, dtype: 'fp16' });
    expect(one).toBe(2 * 80 * 8 * 128 * 1024 * 2);
    expect(kvCacheBytes(e, { context: 4096, batch: 4, dtype: 'fp32' })).toBe(one * 4 * 4 * 2);
    // Llama 2 7B has no GQA: one key/value head per query head.
    expect(kvBytesPerToken(decoder('llama-7b'), 'fp16')).toBe(2 * 32 * 4096 * 2);
    expect(kvBytesPerToken(decoder('qwen2.5-7b'), 'bf16')).toBe(2 * 28 * 4 * 128 * 2);
    expect(kvBytesPerToken(decoder('mixtral-8x7b'), 'bf16')).toBe(kvBytesPerToken(decoder('mistral-7b'), 'bf16'));
  });
});

describe('current decoders in the catalog', () => {
  it('grouped-query attention: the QKV GEMM is h + 2 x kvHeads x headDim wide, with biases only in Qwen2.5', () => {
    const llama = catalogWorkload('llama-3.1-8b', { seq: 16 });
    const qkv = llama.nodes.find((n) => n.name === 'block.0.attn.qkv');
    expect(qkv?.kernel?.shape).toEqual({ B: 1, M: 16, N: 4096 + 2 * 1024, K: 4096 });
    expect(qkv?.params).toBe(4096 * 6144);
    const qwen = catalogWorkload('qwen2.5-7b', { seq: 16 }).nodes.find((n) => n.name === 'block.0.attn.qkv');
    expect(qwen?.params).toBe(3584 * (3584 + 1024) + (3584 + 1024));
  });

  it('mixture of experts: all experts held, topK of them computed per token', () => {
    const w = catalogWorkload('mixtral-8x7b', { seq: 16 });
    const gate = w.nodes.find((n) => n.name === 'block.0.mlp.experts.gate');
    expect(gate?.params).toBe(8 * 4096 * 14336);
    expect(gate?.kernel?.shape).toEqual({ B: 1, M: 2 * 16, N: 14336, K: 4096 });
    const dense = catalogWorkload('mistral-7b', { seq: 16 }).nodes.find((n) => n.name === 'block.0.mlp.gate');
    expect(gate && dense ? gate.flops / dense.flops : 0).toBe(2);
    expect(w.nodes.some((n) => n.name === 'block.0.mlp.router')).toBe(true);
  });
});
