/**
 * The attention of one decode step, as plain ONNX ops, in the two ways a decoder reads its KV
 * cache. Pure.
 *
 * A decode step's attention is a few small kernels per layer (the scores, their softmax, the
 * weighted values) over the whole cache. Priced as bytes over the streaming rate, it misses what
 * those kernels cost at their shapes: a grouped-query score product has `group` rows, a
 * concatenating decoder copies its cache before reading it. So the step's attention is built
 * here as the graph a decoder runs and priced node by node from the profile, each node that
 * reads the cache at no less than its cache bytes at the streaming rate (a cache larger than the
 * caches is read from memory once per step; the profile's kernels run with theirs hot).
 *
 * - 'read-once': the cache (K kept transposed) is read in place by one matmul for the scores
 *   and one for the values, the new token's key and value by two small ones, and only the
 *   score rows are concatenated: fused decode kernels (ONNX Runtime's GroupQueryAttention,
 *   paged attention) read the cache once like this.
 * - 'concat': the new key and value are concatenated to the cache and K is transposed, as
 *   decoders exported with plain ops (past_key_values in, present out) do: the cache is copied
 *   twice per step before it is read.
 */
import { GraphBuilder } from '../profiler/calibration-models.js';
import { attr, encodeModel, OnnxDataType, type ValueInfoDef } from '../onnx/model-builder.js';
import type { Dtype } from '../domain/measurement.js';

export const KV_DATAFLOWS = {
  'read-once': 'the cache read in place once per step (fused decode attention)',
  concat: 'the cache concatenated with the new token and K transposed each step (plain exported decoders)',
} as const;
export type KvDataflow = keyof typeof KV_DATAFLOWS;

/** Graph inputs that hold the KV cache: the nodes reading them read it from memory. */
export const CACHE_INPUT = /(^|\.)past_(key|value)(_t)?$/;

/** What one layer's attention reads: batch, heads, key/value heads, head width, cached tokens. */
export interface AttentionDims {
  batch: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  context: number;
}

/** Makes a cache tensor of `dims` named `${prefix}.${name}` (an initializer in a model, an input in a priced graph). */
export type CacheTensor = (name: string, dims: number[]) => string;

/** One layer's attention: q [B, kvH, group, hd], the new key and value [B, kvH, 1, hd] in; [B, kvH, group, hd] out. */
export type Attend = (
  g: GraphBuilder,
  p: string,
  d: AttentionDims,
  t: { q: string; newK: string; newV: string; scale: string },
  cache: CacheTensor,
) => string;

/** Cache and new token concatenated, K transposed: the cache is copied twice per step. */
const concatAttention: Attend = (g, p, d, t, cache) => {
  const all = (name: string, fresh: string): string =>
    g.op('Concat', [cache(name, [d.batch, d.kvHeads, d.context, d.headDim]), fresh], `${p}.${name}.all`, [
      attr.int('axis', 2),
    ]);
  const kt = g.op('Transpose', [all('past_key', t.newK)], `${p}.k.t`, [attr.ints('perm', [0, 1, 3, 2])]);
  const scores = g.op('Mul', [g.op('MatMul', [t.q, kt], `${p}.scores`), t.scale], `${p}.scaled`);
  const probs = g.op('Softmax', [scores], `${p}.probs`, [attr.int('axis', -1)]);
  return g.op('MatMul', [probs, all('past_value', t.newV)], `${p}.ctx`);
};

/** The cache read in place (K stored transposed); only the score rows are concatenated. */
const readOnceAttention: Attend = (g, p, d, t, cache) => {
  const pastKt = cache('past_key_t', [d.batch, d.kvHeads, d.headDim, d.context]);
  const pastV = cache('past_value', [d.batch, d.kvHeads, d.context, d.headDim]);
  const newKt = g.op('Transpose', [t.newK], `${p}.k.t`, [attr.ints('perm', [0, 1, 3, 2])]);
  const scores = g.op(
    'Concat',
    [g.op('MatMul', [t.q, pastKt], `${p}.scores.past`), g.op('MatMul', [t.q, newKt], `${p}.scores.new`)],
    `${p}.scores`,
    [attr.int('axis', -1)],
  );
  const probs = g.op('Softmax', [g.op('Mul', [scores, t.scale], `${p}.scaled`)], `${p}.probs`, [attr.int('axis', -1)]);
  const split = g.ints(`${p}.split`, [d.context, 1]);
  g.nodes.push({
    opType: 'Split',
    inputs: [probs, split],
    outputs: [`${p}.probs.past`, `${p}.probs.new`],
    name: `${p}.probs.split`,
    attributes: [attr.int('axis', -1)],
  });
  const past = g.op('MatMul', [`${p}.probs.past`, pastV], `${p}.ctx.past`);
  const fresh = g.op('MatMul', [`${p}.probs.new`, t.newV], `${p}.ctx.new`);
  return g.op('Add', [past, fresh], `${p}.ctx`);
};

export const ATTEND: Record<KvDataflow, Attend> = { 'read-once': readOnceAttention, concat: concatAttention };

/** The ONNX element type attention runs in at a model's dtype (8-bit models attend in 16 bits). */
const ELEM_TYPE = { fp32: OnnxDataType.FLOAT, fp16: OnnxDataType.FLOAT16, bf16: OnnxDataType.BFLOAT16 } as const;

/**
 * One layer's decode attention in `dataflow` as an ONNX model whose inputs are the query, the new
 * key and value, the scale and the cache (so it holds no cache bytes): the graph a step runs per
 * layer, for pricing node by node.
 */
export function decodeAttentionModel(d: AttentionDims, dataflow: KvDataflow, dtype: Dtype = 'fp32'): Uint8Array {
  const g = new GraphBuilder();
  const group = d.heads / d.kvHeads;
  const elemType = ELEM_TYPE[dtype as keyof typeof ELEM_TYPE] ?? OnnxDataType.FLOAT16;
  const inputs: ValueInfoDef[] = [];
  const input = (name: string, dims: number[]): string => {
    inputs.push({ name, elemType, dims });
    return name;
  };
  const t = {
    q: input('q', [d.batch, d.kvHeads, group, d.headDim]),
    newK: input('new_key', [d.batch, d.kvHeads, 1, d.headDim]),
    newV: input('new_value', [d.batch, d.kvHeads, 1, d.headDim]),
    scale: input('scale', []),
  };
  const out = ATTEND[dataflow](g, 'attn', d, t, (name, dims) => input(`attn.${name}`, dims));
  return encodeModel({
    graph: {
      name: 'decode-attention',
      nodes: g.nodes,
      inputs,
      outputs: [{ name: out, elemType, dims: [d.batch, d.kvHeads, group, d.headDim] }],
      initializers: g.inits,
    },
    docString: 'pipeDejavu: one layer of a decode step, its attention',
  });
}
