import { describe, expect, it } from 'vitest';
import {
  checkHeaderTensorCount,
  checkIndexTensorCount,
  describeStored,
  SAFETENSORS_LIMITS,
  safetensorsTensors,
  storedWeights,
} from '../../../../src-main/core/catalog/safetensors.js';
import {
  bnb4Linear,
  fp8Linear,
  gptqLinear,
  llamaTensors,
  safetensorsHeader,
  type TensorSpec,
} from '../../../helpers/safetensors.js';

/** A small Llama: 426,624 parameters, 294,912 of them in the attention and MLP linears. */
export const SMALL_LLAMA = {
  architectures: ['LlamaForCausalLM'],
  model_type: 'llama',
  hidden_size: 128,
  intermediate_size: 256,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 32,
  vocab_size: 512,
  max_position_embeddings: 4096,
  rms_norm_eps: 1e-5,
  hidden_act: 'silu',
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};
const PARAMS = 426_624;
const LINEAR_PARAMS = 294_912;

const checked = (tensors: TensorSpec[]): TensorSpec[] => {
  const { header, dataBytes } = safetensorsHeader(tensors);
  return safetensorsTensors('m.safetensors', header, dataBytes);
};

describe('the weights a safetensors checkpoint stores', () => {
  it('counts a bf16 Llama exactly, its dtype bf16, not quantized', () => {
    const s = storedWeights(checked(llamaTensors(SMALL_LLAMA)), undefined);
    expect(s).toEqual({
      params: PARAMS,
      dtype: 'BF16',
      quantization: 'none',
      bits: null,
      quantizedParams: 0,
      bytes: PARAMS * 2,
      format: 'bf16',
    });
    expect(describeStored(s)).toBe('bf16');
  });

  it('unpacks GPTQ 4-bit qweights (bits from quantization_config), its zeros, scales and g_idx no parameters', () => {
    const tensors = checked(llamaTensors(SMALL_LLAMA, 'F16', gptqLinear(4)));
    const s = storedWeights(tensors, { quant_method: 'gptq', bits: 4, group_size: 128 });
    expect(s).toMatchObject({ params: PARAMS, dtype: 'F16', quantization: 'gptq', bits: 4, format: 'int4' });
    expect(s.quantizedParams).toBe(LINEAR_PARAMS);
    expect(describeStored(s)).toBe('GPTQ 4-bit (f16 elsewhere)');
    // 8-bit GPTQ packs 4 values per int32 and maps to int8.
    const eight = storedWeights(checked(llamaTensors(SMALL_LLAMA, 'F16', gptqLinear(8))), {
      quant_method: 'gptq',
      bits: 8,
    });
    expect(eight).toMatchObject({ params: PARAMS, bits: 8, format: 'int8' });
  });

  it('names AWQ from its quantization_config', () => {
    const s = storedWeights(checked(llamaTensors(SMALL_LLAMA, 'F16', gptqLinear(4))), { quant_method: 'awq', bits: 4 });
    expect(s).toMatchObject({ params: PARAMS, quantization: 'awq', bits: 4, format: 'int4' });
  });

  it('unpacks bitsandbytes NF4 (two weights a byte), its absmax, quant_map and quant_state constants', () => {
    const s = storedWeights(checked(llamaTensors(SMALL_LLAMA, 'BF16', bnb4Linear('nf4'))), {
      quant_method: 'bitsandbytes',
      load_in_4bit: true,
      bnb_4bit_quant_type: 'nf4',
    });
    expect(s).toMatchObject({ params: PARAMS, dtype: 'BF16', quantization: 'bnb-nf4', bits: 4, format: 'int4' });
    expect(storedWeights(checked(llamaTensors(SMALL_LLAMA, 'BF16', bnb4Linear('fp4'))), undefined).quantization).toBe(
      'bnb-fp4',
    );
  });

  it('counts bitsandbytes int8 weights once, SCB and weight_format constants', () => {
    const int8 = (name: string, out: number, inp: number): TensorSpec[] => [
      { name: `${name}.weight`, dtype: 'I8', shape: [out, inp] },
      { name: `${name}.SCB`, dtype: 'F32', shape: [out] },
      { name: `${name}.weight_format`, dtype: 'U8', shape: [] },
    ];
    const s = storedWeights(checked(llamaTensors(SMALL_LLAMA, 'F16', int8)), { quant_method: 'bitsandbytes' });
    expect(s).toMatchObject({ params: PARAMS, dtype: 'F16', quantization: 'bnb-int8', bits: 8, format: 'int8' });
  });

  it('reads an fp8 checkpoint: e4m3 weights, their scales constants', () => {
    const s = storedWeights(checked(llamaTensors(SMALL_LLAMA, 'BF16', fp8Linear)), {
      quant_method: 'fp8',
      fmt: 'e4m3',
      weight_block_size: [128, 128],
    });
    expect(s).toMatchObject({ params: PARAMS, dtype: 'BF16', quantization: 'fp8', bits: 8, format: 'fp8' });
    expect(s.quantizedParams).toBe(LINEAR_PARAMS);
    expect(describeStored(s)).toBe('fp8 (bf16 elsewhere)');
  });

  it('leaves buffers out: rotary inv_freq, integer position_ids', () => {
    const s = storedWeights(
      checked([
        ...llamaTensors(SMALL_LLAMA),
        { name: 'model.layers.0.self_attn.rotary_emb.inv_freq', dtype: 'F32', shape: [16] },
        { name: 'embeddings.position_ids', dtype: 'I64', shape: [1, 512] },
      ]),
      undefined,
    );
    expect(s.params).toBe(PARAMS);
    expect(s.dtype).toBe('BF16');
  });
});

describe('a safetensors header checked, one line each', () => {
  const one =
    (entry: unknown, dataBytes = 1 << 20): (() => unknown) =>
    () =>
      safetensorsTensors('m.safetensors', { __metadata__: { format: 'pt' }, w: entry }, dataBytes);

  it('refuses what is not a header', () => {
    expect(() => safetensorsTensors('m.safetensors', [1, 2], 0)).toThrow(
      'm.safetensors: its safetensors header is not a JSON object',
    );
    expect(one({ dtype: 'F16', shape: [2] })).toThrow(
      'm.safetensors: tensor "w" lacks dtype, shape or data_offsets; not a safetensors header',
    );
    expect(one({ dtype: 'F17', shape: [2], data_offsets: [0, 4] })).toThrow(
      /^m\.safetensors: tensor "w" has dtype "F17"; safetensors has BOOL, U8, .*BF16/,
    );
  });

  it('refuses shapes that are not whole numbers or absurd, before looping over them', () => {
    expect(one({ dtype: 'F16', shape: [2.5], data_offsets: [0, 5] })).toThrow(
      'm.safetensors: tensor "w" has shape [2.5], not a list of whole numbers',
    );
    expect(one({ dtype: 'F16', shape: '2', data_offsets: [0, 4] })).toThrow(
      'm.safetensors: tensor "w" has shape "2", not a list of whole numbers but the string "2"',
    );
    expect(one({ dtype: 'F16', shape: [2, '2'], data_offsets: [0, 8] })).toThrow(
      'm.safetensors: tensor "w" has shape [2,"2"], not a list of whole numbers: it holds the string "2"',
    );
    expect(one({ dtype: 'F16', shape: new Array(1e6).fill(1), data_offsets: [0, 2] })).toThrow(
      /has shape \[1,1,.*more than 8 dimensions$/,
    );
    expect(one({ dtype: 'F16', shape: [2 ** 30, 2 ** 30], data_offsets: [0, 2] })).toThrow(
      'm.safetensors: tensor "w" has shape [1073741824,1073741824], over 281474976710656 elements',
    );
  });

  it('refuses data_offsets that lie: outside the data area, or not shape x dtype, or overlapping', () => {
    expect(one({ dtype: 'F16', shape: [4], data_offsets: [0, 8] }, 4)).toThrow(
      'm.safetensors: tensor "w" data_offsets [0,8] fall outside the data area (0..4 bytes): the header lies',
    );
    expect(one({ dtype: 'F16', shape: [4], data_offsets: [0, 6] })).toThrow(
      'm.safetensors: tensor "w" data_offsets [0,6] hold 6 bytes, its shape and dtype take 8: the header lies',
    );
    expect(() =>
      safetensorsTensors(
        'm.safetensors',
        {
          a: { dtype: 'F16', shape: [4], data_offsets: [0, 8] },
          b: { dtype: 'F16', shape: [4], data_offsets: [4, 12] },
        },
        12,
      ),
    ).toThrow('m.safetensors: tensors "a" and "b" overlap in the data area: the header lies');
  });
});

describe('tensor caps, counted on the bytes before a header is parsed', () => {
  const bytes = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
  const header = (n: number): Uint8Array =>
    bytes({
      __metadata__: { format: 'pt' },
      ...Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`t${i}`, { dtype: 'F32', shape: [1], data_offsets: [4 * i, 4 * i + 4] }]),
      ),
    });
  const limits = { ...SAFETENSORS_LIMITS, tensorsPerFile: 4, tensorsPerModel: 6 };

  it('caps the tensors of one file (the metadata is not a tensor) and of the model so far', () => {
    expect(checkHeaderTensorCount('a.safetensors', header(4), 0, limits)).toBe(5);
    expect(() => checkHeaderTensorCount('a.safetensors', header(5), 0, limits)).toThrow(
      'a.safetensors: its safetensors header holds more than 4 tensors, the most one file may hold (real shards hold a few thousand)',
    );
    expect(() => checkHeaderTensorCount('b.safetensors', header(3), 4, limits)).toThrow(
      "b.safetensors: the folder's safetensors hold more than 6 tensors, the most one model may hold",
    );
    expect(checkHeaderTensorCount('b.safetensors', header(2), 4, limits)).toBe(3);
  });

  it("caps an index's weight_map: on its bytes, then exactly", () => {
    const index = (n: number): Uint8Array =>
      bytes({
        metadata: { total_size: 1 },
        weight_map: Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, 'a'])),
      });
    expect(() => checkIndexTensorCount('i.json', index(6 + 63), limits)).not.toThrow();
    expect(() => checkIndexTensorCount('i.json', index(6 + 64), limits)).toThrow(
      'i.json names more than 6 tensors, the most one model may hold',
    );
    expect(() => checkIndexTensorCount('i.json', 7, limits)).toThrow('i.json names more than 6 tensors');
    expect(SAFETENSORS_LIMITS).toMatchObject({ tensorsPerFile: 100_000, tensorsPerModel: 400_000 });
  });
});
