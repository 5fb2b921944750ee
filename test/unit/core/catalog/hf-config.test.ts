/** Hugging Face config.json files to model descriptions, against the official parameter counts. */
import { describe, expect, it } from 'vitest';
import { hfConfigDecoder } from '../../../../src-main/core/catalog/hf-config.js';
import { entryWorkload, getCatalogEntry } from '../../../../src-main/core/catalog/index.js';
import type { CatalogEntry } from '../../../../src-main/core/catalog/index.js';
import { LLAMA_31_8B } from '../../../helpers/hf-configs.js';

const paramsOf = (e: CatalogEntry): number => entryWorkload(e, { seq: 1 }).nodes.reduce((s, n) => s + n.params, 0);
const entry = (cfg: Record<string, unknown>): CatalogEntry => hfConfigDecoder(cfg, 'm/config.json', 'm').entry;
const params = (cfg: Record<string, unknown>): number => paramsOf(entry(cfg));

/** The published config.json fields of these models (Hugging Face model repositories). */
const MISTRAL_7B = {
  model_type: 'mistral',
  hidden_size: 4096,
  intermediate_size: 14336,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  vocab_size: 32000,
  max_position_embeddings: 32768,
  sliding_window: 4096,
  hidden_act: 'silu',
  rms_norm_eps: 1e-5,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};
const MIXTRAL_8X7B = { ...MISTRAL_7B, model_type: 'mixtral', num_local_experts: 8, num_experts_per_tok: 2 };
const QWEN25_7B = {
  model_type: 'qwen2',
  hidden_size: 3584,
  intermediate_size: 18944,
  num_hidden_layers: 28,
  num_attention_heads: 28,
  num_key_value_heads: 4,
  vocab_size: 152064,
  max_position_embeddings: 131072,
  hidden_act: 'silu',
  rms_norm_eps: 1e-6,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};
const GPT2 = {
  model_type: 'gpt2',
  activation_function: 'gelu_new',
  n_ctx: 1024,
  n_embd: 768,
  n_head: 12,
  n_layer: 12,
  n_positions: 1024,
  vocab_size: 50257,
};
const BERT_BASE = {
  model_type: 'bert',
  hidden_act: 'gelu',
  hidden_size: 768,
  intermediate_size: 3072,
  max_position_embeddings: 512,
  num_attention_heads: 12,
  num_hidden_layers: 12,
  type_vocab_size: 2,
  vocab_size: 30522,
};
const ROBERTA_BASE = {
  ...BERT_BASE,
  model_type: 'roberta',
  max_position_embeddings: 514,
  type_vocab_size: 1,
  vocab_size: 50265,
};
const PYTHIA_160M = {
  model_type: 'gpt_neox',
  hidden_act: 'gelu',
  hidden_size: 768,
  intermediate_size: 3072,
  max_position_embeddings: 2048,
  num_attention_heads: 12,
  num_hidden_layers: 12,
  rotary_pct: 0.25,
  tie_word_embeddings: false,
  use_parallel_residual: true,
  vocab_size: 50304,
  torch_dtype: 'float16',
};
const QWEN3_8B = {
  model_type: 'qwen3',
  hidden_size: 4096,
  intermediate_size: 12288,
  num_hidden_layers: 36,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  head_dim: 128,
  vocab_size: 151936,
  max_position_embeddings: 40960,
  hidden_act: 'silu',
  attention_bias: false,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

describe('hfConfigDecoder', () => {
  it.each([
    ['Llama 3.1 8B', LLAMA_31_8B, 8_030_261_248, 'llama-3.1-8b'],
    ['Mistral 7B v0.1', MISTRAL_7B, 7_241_732_096, 'mistral-7b'],
    ['Qwen2.5-7B', QWEN25_7B, 7_615_616_512, 'qwen2.5-7b'],
    ['Mixtral 8x7B', MIXTRAL_8X7B, 46_702_792_704, 'mixtral-8x7b'],
    ['GPT-2 small', GPT2, 124_439_808, 'gpt2-small'],
    ['BERT-base (with pooler)', BERT_BASE, 109_482_240, 'bert-base'],
  ])('reads %s into its official parameter count, as the catalog entry does', (_, cfg, official, catalogName) => {
    expect(params(cfg)).toBe(official);
    expect(paramsOf(getCatalogEntry(catalogName))).toBe(official);
  });

  it('reads RoBERTa-base (124,645,632 with pooler) and Pythia-160M (GPT-NeoX, 162,322,944)', () => {
    expect(params(ROBERTA_BASE)).toBe(124_645_632);
    expect(params(PYTHIA_160M)).toBe(162_322_944);
    expect(hfConfigDecoder(PYTHIA_160M, 'p/config.json', 'p').warnings.join()).toMatch(/parallel/);
  });

  it('reads Qwen3-8B at its official 8,190,735,360, Q/K norms included, without a warning', () => {
    const d = hfConfigDecoder(QWEN3_8B, 'q/config.json', 'Qwen3-8B');
    expect(paramsOf(d.entry)).toBe(8_190_735_360);
    expect(d.warnings).toEqual([]);
  });

  it('takes the dtype from torch_dtype and the name as data', () => {
    expect(entry(LLAMA_31_8B).defaults.dtype).toBe('bf16');
    expect(entry(PYTHIA_160M).defaults.dtype).toBe('fp16');
    expect(entry(GPT2).defaults.dtype).toBe('fp32');
    const d = hfConfigDecoder(LLAMA_31_8B, 'x/config.json', "My Model; rm -rf / 'x'");
    expect(d.entry.title).toBe("My Model; rm -rf / 'x'");
    expect(d.entry.name).toBe("My Model; rm -rf / 'x'");
  });

  const refusal = (cfg: unknown): string => {
    try {
      hfConfigDecoder(cfg, 'm/config.json', 'm');
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };

  it('refuses bad configs in one line naming the field and what works', () => {
    const unknown = refusal({ ...LLAMA_31_8B, model_type: 'mamba' });
    expect(unknown).toMatch(/model_type "mamba" is not supported; supported: llama, mistral/);
    expect(refusal({ ...LLAMA_31_8B, model_type: undefined })).toMatch(/model_type is missing; supported:/);
    const { hidden_size: _, ...noHidden } = LLAMA_31_8B;
    expect(refusal(noHidden)).toMatch(/config\.json has no hidden_size \(a whole number from 1 to 131072\)/);
    expect(refusal({ ...LLAMA_31_8B, num_hidden_layers: 100000 })).toMatch(
      /num_hidden_layers 100000 is out of range \(1\.\.256\)/,
    );
    expect(refusal({ ...LLAMA_31_8B, vocab_size: -3 })).toMatch(/vocab_size -3 is out of range/);
    expect(refusal({ ...LLAMA_31_8B, head_dim: 0 })).toMatch(/head_dim 0 is out of range/);
    expect(refusal({ ...LLAMA_31_8B, hidden_size: 4097, head_dim: undefined })).toMatch(
      /num_attention_heads 32 does not divide hidden_size 4097 and there is no head_dim/,
    );
    expect(refusal({ ...LLAMA_31_8B, num_key_value_heads: 7 })).toMatch(/num_key_value_heads 7 does not divide/);
    expect(refusal({ ...LLAMA_31_8B, hidden_act: 'relu' })).toMatch(
      /hidden_act "relu" is not supported here \(supported: silu/,
    );
    expect(refusal({ ...MIXTRAL_8X7B, num_experts_per_tok: 9 })).toMatch(
      /num_experts_per_tok 9 is out of range \(1\.\.8\)/,
    );
    expect(refusal([1, 2])).toMatch(/must hold a JSON object/);
    for (const line of [unknown, refusal(noHidden)]) expect(line).not.toContain('\n');
  });

  it.each([
    ['a string', '512', 'the string "512"'],
    ['a boolean', true, 'the boolean true'],
    ['a list', [512], 'a list'],
    ['an object', { value: 512 }, 'an object'],
    ['a long string', '5'.repeat(10_000), `the string "${'5'.repeat(40)}..."`],
  ])('a numeric field holding %s is named with its type, not called out of range', (_what, value, described) => {
    for (const key of ['hidden_size', 'num_hidden_layers', 'intermediate_size', 'vocab_size', 'num_key_value_heads']) {
      const line = refusal({ ...LLAMA_31_8B, [key]: value });
      expect(line).toMatch(new RegExp(`config\\.json ${key} must be a number from 1 to \\d+, got `));
      expect(line.endsWith(`, got ${described}`)).toBe(true);
      expect(line).not.toContain('out of range');
    }
  });

  it('a fraction is named as not whole', () => {
    expect(refusal({ ...LLAMA_31_8B, hidden_size: 4096.5 })).toMatch(
      /config\.json hidden_size must be a whole number from 1 to 131072, got 4096\.5$/,
    );
  });
});
