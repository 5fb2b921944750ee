/**
 * The prompt's pass (prefill) of the decode check's small Llama-style decoders
 * (decoder-step-model.ts: same blocks, same parameters) as an ONNX model, for checking the
 * time to first token `predict-model --mode generate` prints against a real run: `prompt` token
 * ids in, the last position's logits out, as a server computes them.
 *
 * Each block runs the prompt's P rows through one fused QKV projection, a rotary stand-in (one Mul
 * of the query and key columns by a position table: the elementwise pass RoPE makes, as the
 * catalog counts it), then causal attention: per query head (grouped-query: a KV head broadcast
 * over its group) the P x P scores, scaled, masked by an additive causal mask, softmaxed, times
 * the values. The keys (transposed) and values it writes are the KV cache a server keeps; they
 * stay in ONNX Runtime's memory, not copied out through the Node binding. The final norm and the
 * LM head run on the last position only. fp32, batch 1.
 */
import { GraphBuilder } from '../../src-main/core/profiler/calibration-models.js';
import { attr, encodeModel, OnnxDataType } from '../../src-main/core/onnx/model-builder.js';
import type { CatalogEntry } from '../../src-main/core/catalog/index.js';
import { decoderBlocks, decoderOps, decoderParams, type DecoderStepConfig } from './decoder-step-model.js';

export type DecoderPrefillConfig = Omit<DecoderStepConfig, 'context' | 'dataflow'> & {
  /** Prompt tokens. */
  prompt: number;
};

export interface DecoderPrefill {
  model: Uint8Array;
  inputs: { name: string; dims: number[]; dtype: 'int64' }[];
  /** The same decoder as a catalog entry, what `predict-model --mode generate` is given. */
  entry: CatalogEntry;
}

/** Large negative in place of -inf: masked scores vanish in the softmax without NaN. */
const MASKED = -1e9;

export function decoderPrefillModel(c: DecoderPrefillConfig): DecoderPrefill {
  const g = new GraphBuilder();
  const { norm, linear } = decoderOps(g, c);
  const P = c.prompt;
  const hd = c.hidden / c.heads;
  const group = c.heads / c.kvHeads;
  const kvw = c.kvHeads * hd;
  const qkSplit = g.ints('split.qk_v', [c.hidden + kvw, kvw]);
  const qSplit = g.ints('split.q_k', [c.hidden, kvw]);
  const rope = g.random('rope.table', [P, c.hidden + kvw], 0.1, 1);
  const qShape = g.ints('shape.q', [1, P, c.kvHeads, group, hd]);
  const kvShape = g.ints('shape.kv', [1, P, c.kvHeads, 1, hd]);
  const merged = g.ints('shape.merged', [1, P, c.hidden]);
  const scale = g.floats('attn.scale', [1 / Math.sqrt(hd)], []);
  const mask = g.floats(
    'attn.causal_mask',
    Array.from({ length: P * P }, (_, i) => (i % P > Math.floor(i / P) ? MASKED : 0)),
    [P, P],
  );
  const split = (p: string, x: string, sizes: string, outs: [string, string]): [string, string] => {
    g.nodes.push({ opType: 'Split', inputs: [x, sizes], outputs: outs, name: p, attributes: [attr.int('axis', -1)] });
    return outs;
  };
  const heads = (p: string, x: string, shape: string, perm: number[]): string =>
    g.op('Transpose', [g.op('Reshape', [x, shape], `${p}.heads`)], `${p}.t`, [attr.ints('perm', perm)]);

  const x = decoderBlocks(g, c, (p, n1) => {
    const qkv = linear(`${p}.qkv`, n1, c.hidden, c.hidden + 2 * kvw);
    const [qk, v] = split(`${p}.qkv.split`, qkv, qkSplit, [`${p}.qk`, `${p}.v`]);
    const [q, k] = split(`${p}.qk.split`, g.op('Mul', [qk, rope], `${p}.rope`), qSplit, [`${p}.q`, `${p}.k`]);
    // [1, kvHeads, group, P, hd] x [1, kvHeads, 1, hd, P]: each query head against its KV head.
    const scores = g.op(
      'MatMul',
      [heads(`${p}.q`, q, qShape, [0, 2, 3, 1, 4]), heads(`${p}.k`, k, kvShape, [0, 2, 3, 4, 1])],
      `${p}.scores`,
    );
    const masked = g.op('Add', [g.op('Mul', [scores, scale], `${p}.scaled`), mask], `${p}.masked`);
    const probs = g.op('Softmax', [masked], `${p}.probs`, [attr.int('axis', -1)]);
    const ctx = g.op('MatMul', [probs, heads(`${p}.v`, v, kvShape, [0, 2, 3, 1, 4])], `${p}.ctx`);
    const back = g.op('Transpose', [ctx], `${p}.ctx.t`, [attr.ints('perm', [0, 3, 1, 2, 4])]);
    return g.op('Reshape', [back, merged], `${p}.ctx.merged`);
  });
  const last = g.op('Gather', [x, g.ints('last_position', [P - 1])], 'last.out', [attr.int('axis', 1)]);
  g.op('Identity', [linear('lm_head', norm('final_norm', last), c.hidden, c.vocab)], 'logits');

  const model = encodeModel({
    graph: {
      name: 'decoder-prefill',
      nodes: g.nodes,
      inputs: [{ name: 'input_ids', elemType: OnnxDataType.INT64, dims: [1, P] }],
      outputs: [{ name: 'logits', elemType: OnnxDataType.FLOAT, dims: [1, 1, c.vocab] }],
      initializers: g.inits,
    },
    docString: 'pipeDejavu prefill check model',
  });
  return { model, inputs: [{ name: 'input_ids', dims: [1, P], dtype: 'int64' }], entry: prefillEntry(c) };
}

/**
 * The decoder as the catalog describes a Llama: pre-norm, SwiGLU, rotary positions, no biases, untied
 * head; LayerNorm as this ONNX model has it, or RMSNorm (bench:decode's torch decoder).
 */
export function prefillEntry(c: DecoderPrefillConfig, norm: 'layernorm' | 'rmsnorm' = 'layernorm'): CatalogEntry {
  return {
    name: 'prefill-check',
    title: 'the prefill check decoder',
    config: 'test/helpers/decoder-prefill-model.ts',
    reportedParams: decoderParams(c).params - (norm === 'rmsnorm' ? (2 * c.layers + 1) * c.hidden : 0),
    defaults: { batch: 1, seq: c.prompt, dtype: 'fp32' },
    kind: 'transformer',
    input: 'tokens',
    layers: c.layers,
    hidden: c.hidden,
    heads: c.heads,
    kvHeads: c.kvHeads,
    ffn: c.ffn,
    vocab: c.vocab,
    context: 2 * c.prompt,
    norm,
    normPlacement: 'pre',
    embeddingNorm: false,
    finalNorm: true,
    mlp: 'swiglu',
    bias: false,
    position: 'rope',
    tiedEmbeddings: false,
    head: 'lm',
    causal: true,
    dropout: false,
    family: 'test',
    sources: ['test/helpers/decoder-prefill-model.ts'],
  };
}
