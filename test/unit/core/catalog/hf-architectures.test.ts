/**
 * config.json of each supported architecture, written from the published hyper-parameters, to a
 * model description whose parameters equal the official checkpoint's (the sum of its safetensors
 * tensor elements), and the one-line refusals of configs it cannot take.
 */
import { describe, expect, it } from 'vitest';
import { hfConfigDecoder } from '../../../../src-main/core/catalog/hf-config.js';
import { entryWorkload, kvBytesPerToken, kvCacheBytes } from '../../../../src-main/core/catalog/index.js';
import type { CatalogEntry, TransformerEntry } from '../../../../src-main/core/catalog/index.js';
import {
  DEEPSEEK_V2_LITE,
  DEEPSEEK_V3,
  GEMMA2_9B,
  GEMMA3_12B,
  GEMMA3_1B,
  LLAMA_31_8B,
  MISTRAL_7B_V03,
  MIXTRAL_8X22B,
  PHI3_MINI_4K,
  PHI4,
  QWEN15_MOE_A27B,
  QWEN2_57B_A14B,
  QWEN3_06B,
  QWEN3_30B_A3B,
  QWEN3_8B,
} from '../../../helpers/hf-configs.js';

const decode = (cfg: Record<string, unknown>) => hfConfigDecoder(cfg, 'm/config.json', 'm');
const entry = (cfg: Record<string, unknown>): CatalogEntry => decode(cfg).entry;
const transformer = (cfg: Record<string, unknown>): TransformerEntry => {
  const e = entry(cfg);
  if (e.kind !== 'transformer') throw new Error('not a transformer');
  return e;
};
const nodes = (cfg: Record<string, unknown>) => entryWorkload(entry(cfg), { seq: 1 }).nodes;
const params = (cfg: Record<string, unknown>): number => nodes(cfg).reduce((s, n) => s + n.params, 0);
/** Parameters a token goes through: all but the routed experts it is not sent to (topK of experts). */
const activeParams = (cfg: Record<string, unknown>): number => {
  const e = transformer(cfg);
  const share = (e.topK ?? 1) / (e.experts ?? 1);
  return nodes(cfg).reduce((s, n) => s + (n.name.includes('.mlp.experts.') ? n.params * share : n.params), 0);
};

describe('config.json architectures: parameters equal the official checkpoints', () => {
  // Figures: the safetensors totals (Hugging Face model pages), or the model cards' rounded ones.
  it.each([
    ['Llama-3.1-8B (8,030,261,248)', LLAMA_31_8B, 8_030_261_248],
    ['Mistral-7B-v0.3 (7,248,023,552)', MISTRAL_7B_V03, 7_248_023_552],
    ['Qwen3-0.6B (0.6B; 0.44B without embeddings)', QWEN3_06B, 596_049_920],
    ['Qwen3-8B (8.2B)', QWEN3_8B, 8_190_735_360],
    ['Gemma-2-9B (9,241,705,984)', GEMMA2_9B, 9_241_705_984],
    ['Gemma-3-1B (999,885,952)', GEMMA3_1B, 999_885_952],
    ['Gemma-3-12B language model (12.2B with its 0.4B vision tower)', GEMMA3_12B, 11_766_034_176],
    ['Phi-3-mini-4k (3.8B: 3,821,079,552)', PHI3_MINI_4K, 3_821_079_552],
    ['Phi-4 (14.7B: 14,659,507,200)', PHI4, 14_659_507_200],
  ])('%s', (_name, cfg, expected) => {
    expect(params(cfg)).toBe(expected);
  });

  it.each([
    // Mixtral 8x22B: 141B total, 39B active (Mistral AI).
    ['Mixtral-8x22B (141B, 39B active)', MIXTRAL_8X22B, 140_630_071_296, 39_161_468_928],
    // Qwen3-30B-A3B: 30.5B total, 3.3B activated (model card).
    ['Qwen3-30B-A3B (30.5B, 3.3B active)', QWEN3_30B_A3B, 30_532_122_624, 3_353_032_704],
    // Qwen1.5-MoE-A2.7B: 14.3B total, 2.7B activated (model card).
    ['Qwen1.5-MoE-A2.7B (14.3B, 2.7B active)', QWEN15_MOE_A27B, 14_315_784_192, 2_689_173_504],
    // Qwen2-57B-A14B: 57B total, 14B activated (model card).
    ['Qwen2-57B-A14B (57.4B, 14B active)', QWEN2_57B_A14B, 57_408_658_944, 14_249_270_784],
    // DeepSeek-V2-Lite: 15.7B total, 2.4B activated (DeepSeek counts the latter without the
    // 0.21B token embedding: 2.66B - 0.21B = 2.45B).
    ['DeepSeek-V2-Lite (15.7B, 2.4B active)', DEEPSEEK_V2_LITE, 15_706_484_224, 2_661_150_208],
    // DeepSeek-V3: 671B main model (685B with the 14B multi-token-prediction module), 37B activated.
    ['DeepSeek-V3 (671B, 37B active)', DEEPSEEK_V3, 671_026_419_200, 37_552_297_472],
  ])('%s', (_name, cfg, total, active) => {
    expect(params(cfg)).toBe(total);
    expect(activeParams(cfg)).toBe(active);
  });
});

describe('config.json architectures: the shapes behind the counts', () => {
  it('Qwen3-0.6B: head_dim 128 widens q/o to 2048 and k/v to 1024; per-head Q/K norms; no warning', () => {
    const e = transformer(QWEN3_06B);
    expect(e.headDim).toBe(128);
    expect(e.qkNorm).toBe(true);
    const qkv = nodes(QWEN3_06B).find((n) => n.name === 'block.0.attn.qkv');
    expect(qkv?.params).toBe(1024 * (2048 + 2 * 1024));
    expect(nodes(QWEN3_06B).find((n) => n.name === 'block.0.attn.out')?.params).toBe(2048 * 1024);
    expect(nodes(QWEN3_06B).find((n) => n.name === 'block.0.attn.qk_norm')?.params).toBe(256);
    expect(decode(QWEN3_06B).warnings).toEqual([]);
  });

  it('Gemma 2 alternates local and global layers; Gemma 3 has 5 local : 1 global, or its layer_types', () => {
    expect(transformer(GEMMA2_9B)).toMatchObject({
      window: 4096,
      localPattern: 2,
      sandwichNorm: true,
      gatedAct: 'gelu',
    });
    expect(transformer(GEMMA3_1B)).toMatchObject({ window: 512, localPattern: 6, qkNorm: true });
    const types = Array.from({ length: 26 }, (_, i) => ((i + 1) % 6 === 0 ? 'full_attention' : 'sliding_attention'));
    const listed = transformer({ ...GEMMA3_1B, sliding_window_pattern: undefined, layer_types: types });
    expect(listed.layerTypes?.filter((t) => t === 'global')).toHaveLength(4);
    expect(params({ ...GEMMA3_1B, layer_types: types, sliding_window_pattern: undefined })).toBe(999_885_952);
  });

  it('Gemma 3 with vision plans its text_config, and says the vision tower is left out', () => {
    expect(decode(GEMMA3_12B).warnings.join('\n')).toMatch(/vision tower.*not planned/);
  });

  it('DeepSeek-V3: the first 3 blocks dense, then routed and shared experts; MLA nodes; MTP left out in a warning', () => {
    const names = nodes(DEEPSEEK_V3).map((n) => n.name);
    expect(names).toContain('block.0.mlp.gate');
    expect(names.some((n) => n.startsWith('block.2.mlp.experts.'))).toBe(false);
    expect(names).toContain('block.3.mlp.experts.gate');
    expect(names).toContain('block.3.mlp.shared.down');
    for (const part of ['q_a', 'q_b', 'kv_a', 'kv_b', 'out']) expect(names).toContain(`block.0.attn.${part}`);
    const router = nodes(DEEPSEEK_V3).find((n) => n.name === 'block.3.mlp.router');
    expect(router?.params).toBe(7168 * 256 + 256);
    expect(decode(DEEPSEEK_V3).warnings.join('\n')).toMatch(/multi-token-prediction layer is not planned/);
    expect(nodes(DEEPSEEK_V2_LITE).map((n) => n.name)).toContain('block.0.attn.q');
  });

  it('Qwen2-MoE: a shared expert behind a sigmoid gate (Linear(hidden, 1)), Q/K/V biases', () => {
    const gate = nodes(QWEN15_MOE_A27B).find((n) => n.name === 'block.0.mlp.shared.router');
    expect(gate?.params).toBe(2048);
    expect(transformer(QWEN15_MOE_A27B).qkvBias).toBe(true);
  });

  it('Qwen3-MoE: mlp_only_layers and decoder_sparse_step make dense blocks of intermediate_size', () => {
    const e = transformer({ ...QWEN3_30B_A3B, mlp_only_layers: [0], decoder_sparse_step: 2 });
    expect(e).toMatchObject({ denseLayerList: [0], moeEvery: 2, denseFfn: 6144 });
    const names = nodes({ ...QWEN3_30B_A3B, mlp_only_layers: [0], decoder_sparse_step: 2 }).map((n) => n.name);
    expect(names).toContain('block.0.mlp.up');
    expect(names).toContain('block.1.mlp.experts.up');
    expect(names).toContain('block.2.mlp.up');
  });
});

describe('KV cache of the new attention kinds', () => {
  it('sliding-window layers hold at most the window: Gemma-2-9B at 8192 tokens caches 4096 in its 21 local layers', () => {
    const e = transformer(GEMMA2_9B);
    const perLayerToken = 2 * 8 * 256 * 2; // key and value, 8 KV heads x 256, bf16
    expect(kvCacheBytes(e, { context: 8192, batch: 1, dtype: 'bf16' })).toBe(perLayerToken * (21 * 8192 + 21 * 4096));
    expect(kvCacheBytes(e, { context: 1000, batch: 2, dtype: 'bf16' })).toBe(perLayerToken * 42 * 1000 * 2);
    expect(kvBytesPerToken(e, 'bf16')).toBe(perLayerToken * 42);
  });

  it('MLA caches kv_lora_rank + qk_rope_head_dim values per layer per token, whatever the heads', () => {
    const e = transformer(DEEPSEEK_V3);
    expect(kvBytesPerToken(e, 'bf16')).toBe(61 * (512 + 64) * 2);
  });

  it('head_dim sets the KV width: Qwen3-0.6B caches 2 x 8 x 128 values per layer per token', () => {
    expect(kvBytesPerToken(transformer(QWEN3_06B), 'bf16')).toBe(28 * 2 * 8 * 128 * 2);
  });
});

describe('config.json architectures: one line for what cannot be planned', () => {
  const oneLine = (cfg: unknown): string => {
    try {
      hfConfigDecoder(cfg, 'm/config.json', 'm');
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };

  it('an unknown model_type names every supported one', () => {
    const line = oneLine({ ...LLAMA_31_8B, model_type: 'mamba' });
    for (const t of ['qwen3_moe', 'qwen2_moe', 'gemma2', 'gemma3', 'gemma3_text', 'phi3', 'deepseek_v2', 'deepseek_v3'])
      expect(line).toContain(t);
    expect(line.split('\n')).toHaveLength(1);
  });

  it.each([
    ['a DeepSeek config without kv_lora_rank', { ...DEEPSEEK_V3, kv_lora_rank: undefined }, /no kv_lora_rank/],
    [
      'a DeepSeek moe_layer_freq other than 1',
      { ...DEEPSEEK_V3, moe_layer_freq: 2 },
      /moe_layer_freq 2 is not supported/,
    ],
    ['an absurd number of experts', { ...QWEN3_30B_A3B, num_experts: 1e9 }, /num_experts 1000000000 is out of range/],
    ['more experts per token than experts', { ...QWEN3_30B_A3B, num_experts_per_tok: 129 }, /num_experts_per_tok 129/],
    [
      'a Qwen-MoE without moe_intermediate_size',
      { ...QWEN3_30B_A3B, moe_intermediate_size: undefined },
      /no moe_intermediate_size/,
    ],
    [
      'mlp_only_layers past the last layer',
      { ...QWEN3_30B_A3B, mlp_only_layers: [48] },
      /mlp_only_layers entry 48 is out of range/,
    ],
    ['Gemma 3 without text_config', { ...GEMMA3_12B, text_config: undefined }, /no text_config object/],
    [
      'a nested field out of range',
      { ...GEMMA3_12B, text_config: { ...GEMMA3_12B.text_config, hidden_size: -1 } },
      /text_config\.hidden_size -1/,
    ],
    ['layer_types of the wrong length', { ...GEMMA3_1B, layer_types: ['full_attention'] }, /layer_types has 1 entries/],
    ['an absurd head_dim', { ...QWEN3_8B, head_dim: 1e7 }, /head_dim 10000000 is out of range/],
  ])('%s', (_name, cfg, line) => {
    const message = oneLine(cfg);
    expect(message).toMatch(line);
    expect(message.split('\n')).toHaveLength(1);
  });
});
