/** torchtitan's op-level selective checkpointing on a catalog block: what it saves and what it runs again. */
import { describe, expect, it } from 'vitest';
import { getCatalogEntry, type TransformerEntry } from '../../../../../src-main/core/catalog/index.js';
import { opPolicyBlock } from '../../../../../src-main/core/planner/memory/op-checkpoint.js';

describe('opPolicyBlock', () => {
  it('a Llama block keeps its input, q, v, gate and down outputs and SDPA’s output; k, out and up are recomputed', () => {
    // Llama 3.1 70B: hidden 8192, 64 heads of 128, 8 KV heads (v is 1024 wide), FFN 28672.
    const b = opPolicyBlock(getCatalogEntry('llama-3.1-70b') as TransformerEntry, 4096, 2);
    const widths = 8192 + 8192 + 1024 + 28672 + 8192;
    expect(b?.keptBytes).toBe(widths * 4096 * 2 + 8192 * 4096 * 2 + 4 * 64 * 4096);
    expect(b?.recomputedShare).toEqual({
      'attn.qkv': 1024 / (8192 + 2 * 1024),
      'attn.out': 1,
      'mlp.gate': 0,
      'mlp.up': 1,
      'mlp.down': 0,
    });
  });

  it('a GELU block saves q, v and fc (the 1st, 3rd and 5th matmuls) and recomputes the projection', () => {
    const b = opPolicyBlock(getCatalogEntry('gpt2-small') as TransformerEntry, 1024, 2);
    expect(b?.recomputedShare).toEqual({ 'attn.qkv': 1 / 3, 'attn.out': 1, 'mlp.fc': 0, 'mlp.proj': 1 });
    expect(b?.keptBytes).toBe((768 + 768 + 768 + 3072 + 768) * 1024 * 2 + 4 * 12 * 1024);
  });
});
