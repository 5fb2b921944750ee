/**
 * Safetensors files the tests write: a real header (8-byte length, JSON) and a sparse data area
 * (truncated to the size the offsets need), so no test writes gigabytes of weights.
 */
import { closeSync, openSync, truncateSync, writeSync } from 'node:fs';
import { SAFETENSORS_DTYPE_BITS, type SafetensorsDtype } from '../../src-main/core/catalog/safetensors.js';

export interface TensorSpec {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
}

/** The header object of `tensors`, laid out one after another. */
export function safetensorsHeader(tensors: readonly TensorSpec[]): {
  header: Record<string, unknown>;
  dataBytes: number;
} {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const t of tensors) {
    const bytes = (t.shape.reduce((p, d) => p * d, 1) * SAFETENSORS_DTYPE_BITS[t.dtype]) / 8;
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  return { header, dataBytes: offset };
}

/** Writes a header (object or raw text) and a sparse data area of `dataBytes`; `fill` bytes of garbage at its start. */
export function writeSafetensorsFile(
  file: string,
  header: Record<string, unknown> | string,
  dataBytes: number,
  opts: { length?: bigint; fill?: number } = {},
): number {
  const json = Buffer.from(typeof header === 'string' ? header : JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(opts.length ?? BigInt(json.length));
  const fd = openSync(file, 'w');
  writeSync(fd, len);
  writeSync(fd, json);
  if (opts.fill) writeSync(fd, Buffer.alloc(opts.fill, 0xee));
  closeSync(fd);
  truncateSync(file, 8 + json.length + dataBytes);
  return 8 + json.length;
}

export function writeTensors(file: string, tensors: readonly TensorSpec[]): number {
  const { header, dataBytes } = safetensorsHeader(tensors);
  return writeSafetensorsFile(file, header, dataBytes);
}

export interface LlamaShape {
  hidden_size: number;
  intermediate_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  num_key_value_heads: number;
  vocab_size: number;
  head_dim: number;
  tie_word_embeddings: boolean;
}

/** A Llama checkpoint's tensors (transformers' names), every linear `linear(name, out, in)`. */
export function llamaTensors(
  c: LlamaShape,
  dtype: SafetensorsDtype = 'BF16',
  linear: (name: string, out: number, inp: number) => TensorSpec[] = (name, out, inp) => [
    { name: `${name}.weight`, dtype, shape: [out, inp] },
  ],
): TensorSpec[] {
  const h = c.hidden_size;
  const q = c.num_attention_heads * c.head_dim;
  const kv = c.num_key_value_heads * c.head_dim;
  const t: TensorSpec[] = [{ name: 'model.embed_tokens.weight', dtype, shape: [c.vocab_size, h] }];
  for (let i = 0; i < c.num_hidden_layers; i++) {
    const p = `model.layers.${i}`;
    t.push({ name: `${p}.input_layernorm.weight`, dtype, shape: [h] });
    t.push({ name: `${p}.post_attention_layernorm.weight`, dtype, shape: [h] });
    t.push(...linear(`${p}.self_attn.q_proj`, q, h), ...linear(`${p}.self_attn.k_proj`, kv, h));
    t.push(...linear(`${p}.self_attn.v_proj`, kv, h), ...linear(`${p}.self_attn.o_proj`, h, q));
    t.push(
      ...linear(`${p}.mlp.gate_proj`, c.intermediate_size, h),
      ...linear(`${p}.mlp.up_proj`, c.intermediate_size, h),
    );
    t.push(...linear(`${p}.mlp.down_proj`, h, c.intermediate_size));
  }
  t.push({ name: 'model.norm.weight', dtype, shape: [h] });
  if (!c.tie_word_embeddings) t.push({ name: 'lm_head.weight', dtype, shape: [c.vocab_size, h] });
  return t;
}

/** GPTQ's tensors for one linear layer (4-bit, group 128): int32 qweight packing 8 values along the input. */
export const gptqLinear =
  (bits = 4, group = 128) =>
  (name: string, out: number, inp: number): TensorSpec[] => [
    { name: `${name}.qweight`, dtype: 'I32', shape: [(inp * bits) / 32, out] },
    { name: `${name}.qzeros`, dtype: 'I32', shape: [inp / group, (out * bits) / 32] },
    { name: `${name}.scales`, dtype: 'F16', shape: [inp / group, out] },
    { name: `${name}.g_idx`, dtype: 'I32', shape: [inp] },
  ];

/** bitsandbytes 4-bit: the weight packed two to a byte, and its constants. */
export const bnb4Linear =
  (type: 'nf4' | 'fp4' = 'nf4') =>
  (name: string, out: number, inp: number): TensorSpec[] => [
    { name: `${name}.weight`, dtype: 'U8', shape: [(out * inp) / 2, 1] },
    { name: `${name}.weight.absmax`, dtype: 'F32', shape: [(out * inp) / 64] },
    { name: `${name}.weight.quant_map`, dtype: 'F32', shape: [16] },
    { name: `${name}.weight.quant_state.bitsandbytes__${type}`, dtype: 'U8', shape: [70] },
  ];

/** An fp8 checkpoint's linear layer: e4m3 weight, a block scale (DeepSeek-V3's weight_scale_inv). */
export const fp8Linear = (name: string, out: number, inp: number): TensorSpec[] => [
  { name: `${name}.weight`, dtype: 'F8_E4M3', shape: [out, inp] },
  { name: `${name}.weight_scale_inv`, dtype: 'F32', shape: [Math.ceil(out / 128), Math.ceil(inp / 128)] },
];
