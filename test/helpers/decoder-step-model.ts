/**
 * One decode step of a small Llama-style decoder as an ONNX model, for checking the decode model
 * (core/workload/generation.ts) against a real run: a token id in, its logits out, through L
 * pre-norm blocks with grouped-query attention over a KV cache of `context` tokens and a SwiGLU
 * MLP, then the LM head. The cache is held in the model (initializers) the way a server keeps it
 * resident, so a run reads it instead of copying it in through the Node binding (slow: see
 * ../shared/notes). `dataflow` says how a block attends (core/workload/decode-attention.ts, whose
 * graphs the decode model prices: 'read-once' as fused decode kernels, 'concat' as exported decoders).
 * fp32, batch 1, one matmul per key/value group.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { KernelRunner } from '../../src-main/adapters/ort/kernel-runner.js';
import type { ModelOutcome } from '../../src-main/adapters/ort/protocol.js';
import { GraphBuilder } from '../../src-main/core/profiler/calibration-models.js';
import { attr, encodeModel, OnnxDataType } from '../../src-main/core/onnx/model-builder.js';
import type { DecoderShape } from '../../src-main/core/workload/generation.js';
import { ATTEND, type KvDataflow } from '../../src-main/core/workload/decode-attention.js';

export interface DecoderStepConfig {
  layers: number;
  hidden: number;
  heads: number;
  kvHeads: number;
  ffn: number;
  vocab: number;
  /** Cached tokens before this step. */
  context: number;
  /** How attention reads the cache (see the file comment); default 'read-once'. */
  dataflow?: KvDataflow;
}

export interface DecoderStep {
  model: Uint8Array;
  inputs: { name: string; dims: number[]; dtype: 'int64' }[];
  /** The same decoder as the decode model sees it (nodesPerStep: the file's node count). */
  shape: DecoderShape;
}

/** The pieces every test decoder is made of, on one graph: LayerNorm (weight and bias) and a bias-free linear layer. */
export function decoderOps(g: GraphBuilder, c: Pick<DecoderStepConfig, 'hidden'>) {
  const norm = (p: string, x: string): string =>
    g.op(
      'LayerNormalization',
      [x, g.random(`${p}.weight`, [c.hidden], 0.1, 1), g.random(`${p}.bias`, [c.hidden], 0.02)],
      `${p}.out`,
      [attr.int('axis', -1), attr.float('epsilon', 1e-5)],
    );
  const linear = (p: string, x: string, nIn: number, nOut: number): string =>
    g.op('MatMul', [x, g.weight(`${p}.weight`, [nIn, nOut], nIn)], `${p}.out`);
  return { norm, linear };
}

/**
 * The token embedding, then L pre-norm blocks: attention as `attend` builds it (block prefix and
 * normed input in, heads merged back to the input's shape out), the output projection, and the
 * SwiGLU MLP. Returns the last block's output.
 */
export function decoderBlocks(
  g: GraphBuilder,
  c: Omit<DecoderStepConfig, 'context' | 'dataflow'>,
  attend: (p: string, normed: string) => string,
): string {
  const { norm, linear } = decoderOps(g, c);
  let x = g.op('Gather', [g.random('embed.weight', [c.vocab, c.hidden], 0.5), 'input_ids'], 'embed.out');
  for (let i = 0; i < c.layers; i++) {
    const p = `block.${i}`;
    x = g.op('Add', [x, linear(`${p}.o`, attend(p, norm(`${p}.norm1`, x)), c.hidden, c.hidden)], `${p}.attn.residual`);
    const n2 = norm(`${p}.norm2`, x);
    const gate = linear(`${p}.gate`, n2, c.hidden, c.ffn);
    const silu = g.op('Mul', [gate, g.op('Sigmoid', [gate], `${p}.gate.sigmoid`)], `${p}.silu`);
    const prod = g.op('Mul', [silu, linear(`${p}.up`, n2, c.hidden, c.ffn)], `${p}.gate_mul`);
    x = g.op('Add', [x, linear(`${p}.down`, prod, c.ffn, c.hidden)], `${p}.mlp.residual`);
  }
  return x;
}

/** Parameters of a test decoder: embedding, blocks (two LayerNorms, attention, SwiGLU), final norm, LM head. */
export function decoderParams(c: Omit<DecoderStepConfig, 'context' | 'dataflow'>): { params: number; block: number } {
  const kvw = c.kvHeads * (c.hidden / c.heads);
  const block = 4 * c.hidden + 2 * c.hidden * c.hidden + 2 * c.hidden * kvw + 3 * c.hidden * c.ffn;
  return { params: c.vocab * c.hidden + c.layers * block + 2 * c.hidden + c.hidden * c.vocab, block };
}

/** A test decoder written into `dir` as `name` and run a few times at one thread: whether it runs, not how fast. */
export function runDecoderOnce(
  runner: KernelRunner,
  m: Pick<DecoderStep, 'model' | 'inputs'>,
  dir: string,
  name: string,
): Promise<ModelOutcome> {
  const file = path.join(dir, name);
  writeFileSync(file, m.model);
  return runner.runModel({
    modelPath: file,
    inputs: m.inputs,
    ep: { name: 'cpu', threads: 1 },
    rule: { warmupRuns: 1, minRepetitions: 3, maxRepetitions: 3, targetCi: 1, budgetMs: 100 },
    attributionRuns: 1,
  });
}

export function decoderStepModel(c: DecoderStepConfig): DecoderStep {
  const g = new GraphBuilder();
  const { norm, linear } = decoderOps(g, c);
  const hd = c.hidden / c.heads;
  const group = c.heads / c.kvHeads;
  const kvw = c.kvHeads * hd;
  const perGroup = g.ints('shape.per_group', [1, c.kvHeads, group, hd]);
  const kvHeads = g.ints('shape.kv_heads', [1, c.kvHeads, 1, hd]);
  const merged = g.ints('shape.merged', [1, 1, c.hidden]);
  const scale = g.floats('attn.scale', [1 / Math.sqrt(hd)], []);
  const x = decoderBlocks(g, c, (p, n1) => {
    const q = g.op('Reshape', [linear(`${p}.q`, n1, c.hidden, c.hidden), perGroup], `${p}.q.heads`);
    const newK = g.op('Reshape', [linear(`${p}.k`, n1, c.hidden, kvw), kvHeads], `${p}.k.heads`);
    const newV = g.op('Reshape', [linear(`${p}.v`, n1, c.hidden, kvw), kvHeads], `${p}.v.heads`);
    const dims = { batch: 1, heads: c.heads, kvHeads: c.kvHeads, headDim: hd, context: c.context };
    const cache = (name: string, at: number[]): string => g.random(`${p}.${name}`, at, 1);
    const ctx = ATTEND[c.dataflow ?? 'read-once'](g, p, dims, { q, newK, newV, scale }, cache);
    return g.op('Reshape', [ctx, merged], `${p}.ctx.merged`);
  });
  g.op('Identity', [linear('lm_head', norm('final_norm', x), c.hidden, c.vocab)], 'logits');

  const model = encodeModel({
    graph: {
      name: 'decoder-step',
      nodes: g.nodes,
      inputs: [{ name: 'input_ids', elemType: OnnxDataType.INT64, dims: [1, 1] }],
      outputs: [{ name: 'logits', elemType: OnnxDataType.FLOAT, dims: [1, 1, c.vocab] }],
      initializers: g.inits,
    },
    docString: 'pipeDejavu decode-step check model',
  });
  return {
    model,
    inputs: [{ name: 'input_ids', dims: [1, 1], dtype: 'int64' }],
    shape: decoderStepShape(c, decoderParams(c).params, g.nodes.length),
  };
}

/** A test decoder's step as the decode model sees it: `params` weights, `nodesPerStep` ops run per step. */
export function decoderStepShape(
  c: Omit<DecoderStepConfig, 'context' | 'dataflow'>,
  params: number,
  nodesPerStep: number,
): DecoderShape {
  const matrices = c.layers * (decoderParams(c).block - 4 * c.hidden) + c.hidden * c.vocab;
  return {
    layers: c.layers,
    hidden: c.hidden,
    heads: c.heads,
    kvHeads: c.kvHeads,
    params,
    expertParams: 0,
    gatheredParams: c.vocab * c.hidden,
    experts: 0,
    topK: 0,
    nodesPerStep,
    meanMatrixParams: matrices / (7 * c.layers + 1),
  };
}
