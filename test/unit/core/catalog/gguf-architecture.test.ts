/** GGUF metadata (as llama.cpp writes it) to decoder descriptions, against the official parameter counts. */
import { describe, expect, it } from 'vitest';
import { ggufDecoder, type GgufMetadata } from '../../../../src-main/core/catalog/gguf-architecture.js';
import { catalogWorkload, entryWorkload } from '../../../../src-main/core/catalog/index.js';

/** The header keys llama.cpp's convert_hf_to_gguf.py writes for these models. */
function llamaMetadata(over: Record<string, unknown> = {}): GgufMetadata {
  return {
    'general.architecture': 'llama',
    'general.name': 'Meta Llama 3.1 8B Instruct',
    'general.file_type': 15,
    'llama.block_count': 32,
    'llama.context_length': 131072,
    'llama.embedding_length': 4096,
    'llama.feed_forward_length': 14336,
    'llama.attention.head_count': 32,
    'llama.attention.head_count_kv': 8,
    'llama.vocab_size': 128256,
    ...over,
  };
}

const params = (md: GgufMetadata, tensors: string[] | null = ['output.weight']): number =>
  entryWorkload(ggufDecoder(md, tensors, 'm.gguf', 'm').entry, { seq: 1 }).nodes.reduce((s, n) => s + n.params, 0);

describe('ggufDecoder', () => {
  it('builds the model at the catalog model’s default sequence (the context, at most 8,192 tokens)', () => {
    const entry = ggufDecoder(llamaMetadata(), null, 'm.gguf', 'm').entry;
    expect(entryWorkload(entry).bindings.seq).toBe(catalogWorkload('llama-3.1-8b').bindings.seq);
    expect(ggufDecoder(llamaMetadata({ 'llama.context_length': 2048 }), null, 'm.gguf', 'm').entry.defaults.seq).toBe(
      2048,
    );
  });

  it('reads Llama 3.1 8B, Mixtral 8x7B and Qwen2.5 7B headers into the official parameter counts', () => {
    expect(params(llamaMetadata())).toBe(8_030_261_248);
    const mixtral = llamaMetadata({
      'llama.context_length': 32768,
      'llama.vocab_size': 32000,
      'llama.expert_count': 8,
      'llama.expert_used_count': 2,
    });
    expect(params(mixtral)).toBe(46_702_792_704);
    const qwen: GgufMetadata = {
      'general.architecture': 'qwen2',
      'qwen2.block_count': 28,
      'qwen2.context_length': 32768,
      'qwen2.embedding_length': 3584,
      'qwen2.feed_forward_length': 18944,
      'qwen2.attention.head_count': 28,
      'qwen2.attention.head_count_kv': 4,
      'tokenizer.ggml.tokens': new Array<string>(152064).fill('t'),
    };
    expect(params(qwen)).toBe(7_615_616_512);
  });

  it('takes the weight format from general.file_type and tied embeddings from a missing output.weight', () => {
    expect(ggufDecoder(llamaMetadata(), null, 'm.gguf', 'm').weights).toBe('q4_k');
    expect(ggufDecoder(llamaMetadata({ 'general.file_type': 7 }), null, 'm.gguf', 'm').weights).toBe('q8_0');
    expect(ggufDecoder(llamaMetadata({ 'general.file_type': 99 }), null, 'm.gguf', 'm').weights).toBeNull();
    const tied = ggufDecoder(llamaMetadata(), ['token_embd.weight', 'blk.0.attn_q.weight'], 'm.gguf', 'm');
    expect(tied.entry).toMatchObject({ tiedEmbeddings: true, title: 'Meta Llama 3.1 8B Instruct' });
    expect(params(llamaMetadata(), ['token_embd.weight'])).toBe(8_030_261_248 - 128256 * 4096);
  });

  it('says in one line what it cannot read', () => {
    expect(() => ggufDecoder({ 'general.architecture': 'mamba' }, null, 'm.gguf', 'm')).toThrow(
      'm.gguf: GGUF architecture "mamba" is not supported (supported: llama, qwen2)',
    );
    expect(() => ggufDecoder(llamaMetadata({ 'llama.block_count': undefined }), null, 'm.gguf', 'm')).toThrow(
      'm.gguf: GGUF metadata llama.block_count is missing',
    );
    expect(() => ggufDecoder(llamaMetadata({ 'llama.attention.head_count': -3 }), null, 'm.gguf', 'm')).toThrow(
      'm.gguf: GGUF metadata llama.attention.head_count is not a positive count (-3)',
    );
    expect(() => ggufDecoder({}, null, 'm.gguf', 'm')).toThrow('m.gguf: no general.architecture in its GGUF metadata');
  });

  it('names the type of a metadata value that is no number', () => {
    const cases: [unknown, string][] = [
      ['4096', 'the string "4096"'],
      [true, 'the boolean true'],
      [[4096], 'a list'],
    ];
    for (const [value, described] of cases)
      expect(() => ggufDecoder(llamaMetadata({ 'llama.embedding_length': value }), null, 'm.gguf', 'm')).toThrow(
        `m.gguf: GGUF metadata llama.embedding_length must be a number from 1 to 131072, got ${described}`,
      );
  });

  it('refuses hyper-parameters outside the ranges real models use, in one line, before anything is built', () => {
    const refused = (over: Record<string, unknown>): string => {
      try {
        ggufDecoder(llamaMetadata(over), null, 'model.gguf', 'm');
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(refused({ 'llama.block_count': 1_000_000_000 })).toBe(
      'model.gguf: GGUF metadata llama.block_count 1000000000 is out of range (1..256)',
    );
    expect(refused({ 'llama.feed_forward_length': 2n ** 50n })).toBe(
      'model.gguf: GGUF metadata llama.feed_forward_length 1125899906842624 is out of range (1..1048576)',
    );
    expect(refused({ 'llama.embedding_length': 2 ** 20, 'llama.attention.head_count': 32 })).toBe(
      'model.gguf: GGUF metadata llama.embedding_length 1048576 is out of range (1..131072)',
    );
    expect(refused({ 'llama.vocab_size': 1e300 })).toBe(
      'model.gguf: GGUF metadata llama.vocab_size 1e+300 is out of range (1..4194304)',
    );
    expect(refused({ 'llama.context_length': 2 ** 40 })).toMatch(/llama\.context_length 1099511627776 is out of range/);
    expect(refused({ 'llama.expert_count': 100_000, 'llama.expert_used_count': 2 })).toMatch(
      /llama\.expert_count 100000 is out of range \(1\.\.\d+\)$/,
    );
    expect(refused({ 'llama.expert_count': 8, 'llama.expert_used_count': 9 })).toBe(
      'model.gguf: GGUF metadata llama.expert_used_count 9 is out of range (1..8)',
    );
    expect(refused({ 'llama.attention.head_count_kv': 64 })).toBe(
      'model.gguf: GGUF metadata llama.attention.head_count_kv 64 is out of range (1..32)',
    );
  });

  it('accepts the largest real decoders (Llama 3.1 405B, DeepSeek-V3-sized experts)', () => {
    const llama405b = llamaMetadata({
      'llama.block_count': 126,
      'llama.embedding_length': 16384,
      'llama.feed_forward_length': 53248,
      'llama.attention.head_count': 128,
      'llama.attention.head_count_kv': 8,
    });
    expect(params(llama405b)).toBeGreaterThan(405e9);
    const manyExperts = llamaMetadata({ 'llama.expert_count': 256, 'llama.expert_used_count': 8 });
    expect(ggufDecoder(manyExperts, null, 'm.gguf', 'm').entry).toMatchObject({ experts: 256, topK: 8 });
  });
});
