/**
 * Transformer workloads (GPT-2, Llama, BERT, ViT) from their hyper-parameters: one layer for the
 * embeddings, one per block, one for the head; each block decomposed into the kernels a runtime
 * executes. Pure.
 *
 * Block, pre-norm (GPT-2, Llama, ViT):  x -> norm1 -> qkv -> [rope] -> attention -> out -> +x
 *                                         -> norm2 -> MLP -> +   (post-norm, BERT: norm after each +)
 * MLP: fc -> GELU -> proj, or SwiGLU: gate, up -> Sigmoid, Mul (SiLU) -> Mul (gate * up) -> down.
 * Grouped-query attention (kvHeads < heads): the QKV GEMM's output is h + 2 x kvHeads x headDim.
 * Mixture of experts (experts, topK): a router GEMM and its softmax, then every expert's SwiGLU
 * weights (all of them held) run on topK x tokens rows as one grouped GEMM each (balanced
 * routing), and the topK outputs are weighted and summed (Mul over topK x tokens x h).
 *
 * Kernel choices (the node's FLOPs and bytes are its kernel's, see kernels/cost.ts):
 * - Linear layers: Gemm {M,N,K} with a bias, MatMul {B:1,M,N,K} without. QKV is one fused GEMM.
 * - Attention: the fused 'Attention' kernel {batch, heads, seq, headDim}, counted over the full
 *   seq x seq score matrix also for causal models (as the kernel computes it).
 * - Embedding lookups (Gather), class-token concat and the CLS slice move data without
 *   arithmetic: the datamove kernel Transpose {rows, cols} with the moved element count.
 * - RMSNorm: the LayerNormalization kernel (same element count; a little less arithmetic).
 * - RoPE: Mul {n} over Q and K (memory-bound; its few extra FLOPs per element are not counted).
 * - BERT pooler tanh: the Sigmoid kernel (b x h elements).
 * - ViT patch embedding: a Conv with kernel = stride = 16 and no padding is a GEMM over patches,
 *   Gemm {M: b*patches, N: hidden, K: channels*16*16}; the Conv kernel's "same" padding
 *   convention (cost.ts) would count a 15x15 instead of a 14x14 output grid.
 */
import { UserError } from '../errors.js';
import type { Dtype } from '../domain/measurement.js';
import { DTYPE_BYTES } from '../kernels/cost.js';
import type { TensorShape } from '../workload/types.js';
import { transformerLayerActivationBytes } from './activation-memory.js';
import { elements, type WorkloadBuilder } from './builder.js';
import type { TransformerEntry } from './schema.js';

export interface TransformerBuild {
  batch: number;
  /** Tokens (token inputs). */
  seq?: number;
  /** Image side (patch inputs). */
  image?: number;
  dtype: Dtype;
  mode: 'inference' | 'training';
}

/** Tokens a transformer processes: seq, or patches (+ class token) for an image. */
export function transformerTokens(e: TransformerEntry, p: { seq?: number; image?: number }): number {
  if (e.input === 'tokens') return p.seq ?? (e.defaults.seq as number);
  const grid = (p.image ?? (e.image as number)) / (e.patch as number);
  return grid * grid + (e.classToken ? 1 : 0);
}

export function buildTransformer(
  g: WorkloadBuilder,
  e: TransformerEntry,
  p: TransformerBuild,
  warnings: string[],
): void {
  const t = new TransformerGraph(g, e, p, warnings);
  const { x: embedded, tokenTable } = t.embeddings();
  let x = embedded;
  const trainingBytes = t.trainingActivationBytes();
  for (let i = 0; i < e.layers; i++) x = t.block(i, x, trainingBytes);
  t.head(x, tokenTable);
}

/** A transformer's layers on a builder: embeddings, blocks, head. Node order is the graph's. */
class TransformerGraph {
  readonly b: number;
  readonly h: number;
  readonly s: number;
  readonly rows: number;

  constructor(
    private readonly g: WorkloadBuilder,
    private readonly e: TransformerEntry,
    private readonly p: TransformerBuild,
    private readonly warnings: string[],
  ) {
    this.b = p.batch;
    this.h = e.hidden;
    this.s = transformerTokens(e, p);
    this.rows = this.b * this.s;
  }

  linear(
    name: string,
    x: TensorShape,
    inF: number,
    outF: number,
    m: number,
    out: number[],
    bias = this.e.bias,
  ): TensorShape {
    return bias
      ? this.g.node({
          name,
          opType: 'Gemm',
          op: 'Gemm',
          shape: { M: m, N: outF, K: inF },
          inputs: [x],
          out,
          weights: [
            ['weight', [inF, outF]],
            ['bias', [outF]],
          ],
        })
      : this.g.node({
          name,
          opType: 'MatMul',
          op: 'MatMul',
          shape: { B: 1, M: m, N: outF, K: inF },
          inputs: [x],
          out,
          weights: [['weight', [inF, outF]]],
        });
  }

  norm(name: string, x: TensorShape, m: number): TensorShape {
    const { e, h } = this;
    return this.g.node({
      name,
      opType: e.norm === 'rmsnorm' ? 'RMSNormalization' : 'LayerNormalization',
      op: 'LayerNormalization',
      shape: { rows: m, cols: h },
      inputs: [x],
      out: x.dims,
      weights:
        e.norm === 'rmsnorm'
          ? [['scale', [h]]]
          : [
              ['scale', [h]],
              ['bias', [h]],
            ],
    });
  }

  add(name: string, x: TensorShape, y: TensorShape): TensorShape {
    return this.g.node({ name, opType: 'Add', op: 'Add', shape: { n: elements(x.dims) }, inputs: [x, y], out: x.dims });
  }

  gather(name: string, x: TensorShape, m: number, out: number[], weight?: number[]): TensorShape {
    return this.g.node({
      name,
      opType: 'Gather',
      op: 'Transpose',
      shape: { rows: m, cols: this.h },
      inputs: [x],
      out,
      ...(weight ? { weights: [['weight', weight] as [string, number[]]] } : {}),
    });
  }

  embeddings(): { x: TensorShape; tokenTable: TensorShape | undefined } {
    this.g.beginLayer('embeddings');
    const r = this.e.input === 'tokens' ? this.tokenEmbeddings() : { x: this.imageEmbeddings(), tokenTable: undefined };
    if (this.e.embeddingNorm) r.x = this.norm('embeddings.norm', r.x, this.rows);
    this.g.endLayer([r.x]);
    return r;
  }

  tokenEmbeddings(): { x: TensorShape; tokenTable: TensorShape } {
    const { e, b, s, h, rows } = this;
    const vocab = e.vocab as number;
    const ids: TensorShape = { name: 'input_ids', dims: [b, s], dtype: 'int64' };
    let x = this.gather('embeddings.token', ids, rows, [b, s, h], [vocab, h]);
    const tokenTable = this.g.tensor('embeddings.token.weight', [vocab, h]);
    if (e.position === 'learned') {
      const pos: TensorShape = { name: 'position_ids', dims: [1, s], dtype: 'int64' };
      const pe = this.gather('embeddings.position', pos, s, [1, s, h], [e.context as number, h]);
      x = this.add('embeddings.add_position', x, pe);
    }
    if ((e.typeVocab ?? 0) > 0) {
      const types: TensorShape = { name: 'token_type_ids', dims: [b, s], dtype: 'int64' };
      const te = this.gather('embeddings.token_type', types, rows, [b, s, h], [e.typeVocab as number, h]);
      x = this.add('embeddings.add_token_type', x, te);
    }
    return { x, tokenTable };
  }

  imageEmbeddings(): TensorShape {
    const { g, e, b, s, h, rows } = this;
    const c = e.channels as number;
    const patch = e.patch as number;
    const image = this.p.image ?? (e.image as number);
    const grid = image / patch;
    const pixels = g.tensor('pixel_values', [b, c, image, image]);
    let x = g.node({
      name: 'embeddings.patch',
      opType: 'Conv',
      op: 'Gemm',
      shape: { M: b * grid * grid, N: h, K: c * patch * patch },
      inputs: [pixels],
      out: [b, grid * grid, h],
      weights: [
        ['weight', [h, c, patch, patch]],
        ['bias', [h]],
      ],
    });
    if (e.classToken) {
      x = g.node({
        name: 'embeddings.class_token',
        opType: 'Concat',
        op: 'Transpose',
        shape: { rows, cols: h },
        inputs: [x],
        out: [b, s, h],
        weights: [['weight', [1, 1, h]]],
      });
    }
    // The position table is sized for the native image; other sizes interpolate it.
    const native = transformerTokens(e, {});
    x = g.node({
      name: 'embeddings.position',
      opType: 'Add',
      op: 'Add',
      shape: { n: rows * h },
      inputs: [x],
      out: [b, s, h],
      weights: [['weight', [1, native, h]]],
    });
    if (image !== e.image) {
      this.warnings.push(
        `${e.name}: image ${image} differs from the native ${e.image as number}; ` +
          `its ${native}-entry position table is interpolated to ${s} tokens`,
      );
    }
    return x;
  }

  trainingActivationBytes(): number {
    const { e, b, s, h } = this;
    return transformerLayerActivationBytes({
      seq: s,
      batch: b,
      hidden: h,
      heads: e.heads,
      // Each token keeps the activations of the topK experts it went through.
      ffn: e.ffn * (e.topK ?? 1),
      elementBytes: DTYPE_BYTES[this.p.dtype],
      mlp: e.mlp,
      dropout: e.dropout,
    });
  }

  block(i: number, x: TensorShape, trainingBytes: number): TensorShape {
    const { rows } = this;
    const pre = `block.${i}`;
    this.g.beginLayer(pre);
    if (this.e.normPlacement === 'pre') {
      const r1 = this.add(`${pre}.attn.residual`, x, this.attention(pre, this.norm(`${pre}.norm1`, x, rows)));
      x = this.add(`${pre}.mlp.residual`, r1, this.mlp(pre, this.norm(`${pre}.norm2`, r1, rows)));
    } else {
      const n1 = this.norm(`${pre}.norm1`, this.add(`${pre}.attn.residual`, x, this.attention(pre, x)), rows);
      x = this.norm(`${pre}.norm2`, this.add(`${pre}.mlp.residual`, n1, this.mlp(pre, n1)), rows);
    }
    this.g.endLayer([x], trainingBytes);
    return x;
  }

  attention(pre: string, input: TensorShape): TensorShape {
    const { g, e, b, s, h, rows } = this;
    const kv = kvWidth(e);
    const qkv = this.linear(
      `${pre}.attn.qkv`,
      input,
      h,
      h + 2 * kv,
      rows,
      [b, s, h + 2 * kv],
      e.bias || e.qkvBias === true,
    );
    const inputs = [qkv];
    if (e.position === 'rope') {
      inputs.unshift(
        g.node({
          name: `${pre}.attn.rope`,
          opType: 'RotaryEmbedding',
          op: 'Mul',
          shape: { n: rows * (h + kv) },
          inputs: [qkv],
          out: [b, s, h + kv],
        }),
      );
    }
    const core = g.node({
      name: `${pre}.attn.core`,
      opType: 'Attention',
      op: 'Attention',
      shape: { batch: b, heads: e.heads, seq: s, headDim: h / e.heads },
      inputs,
      out: [b, s, h],
    });
    return this.linear(`${pre}.attn.out`, core, h, h, rows, [b, s, h]);
  }

  mlp(pre: string, input: TensorShape): TensorShape {
    const { g, e, b, s, h, rows } = this;
    const f = e.ffn;
    if (e.mlp === 'gelu') {
      const fc = this.linear(`${pre}.mlp.fc`, input, h, f, rows, [b, s, f]);
      const act = g.node({
        name: `${pre}.mlp.gelu`,
        opType: 'Gelu',
        op: 'Gelu',
        shape: { n: rows * f },
        inputs: [fc],
        out: [b, s, f],
      });
      return this.linear(`${pre}.mlp.proj`, act, f, h, rows, [b, s, h]);
    }
    if (e.experts !== undefined) return this.moe(pre, input, e.experts, e.topK ?? 1);
    const gate = this.linear(`${pre}.mlp.gate`, input, h, f, rows, [b, s, f]);
    const up = this.linear(`${pre}.mlp.up`, input, h, f, rows, [b, s, f]);
    const prod = this.swiglu(`${pre}.mlp`, gate, up, rows, [b, s, f]);
    return this.linear(`${pre}.mlp.down`, prod, f, h, rows, [b, s, h]);
  }

  /** silu(gate) * up over `n` rows of the MLP width. */
  swiglu(prefix: string, gate: TensorShape, up: TensorShape, n: number, out: number[]): TensorShape {
    const f = this.e.ffn;
    const elementwise = (name: string, opType: 'Sigmoid' | 'Mul', ins: TensorShape[]): TensorShape =>
      this.g.node({ name, opType, op: opType, shape: { n: n * f }, inputs: ins, out });
    const sig = elementwise(`${prefix}.silu.sigmoid`, 'Sigmoid', [gate]);
    const silu = elementwise(`${prefix}.silu.mul`, 'Mul', [gate, sig]);
    return elementwise(`${prefix}.gate_mul`, 'Mul', [silu, up]);
  }

  /** Mixture of experts: router, then the experts as grouped GEMMs over topK x tokens rows (see the file comment). */
  moe(pre: string, input: TensorShape, experts: number, topK: number): TensorShape {
    const { g, e, b, s, h, rows } = this;
    const f = e.ffn;
    const routed = rows * topK;
    const logits = this.linear(`${pre}.mlp.router`, input, h, experts, rows, [b, s, experts], false);
    const weights = g.node({
      name: `${pre}.mlp.router.softmax`,
      opType: 'Softmax',
      op: 'Softmax',
      shape: { rows, cols: experts },
      inputs: [logits],
      out: [b, s, experts],
    });
    const grouped = (name: string, x: TensorShape, inF: number, outF: number): TensorShape =>
      g.node({
        name,
        opType: 'MatMul',
        op: 'MatMul',
        shape: { B: 1, M: routed, N: outF, K: inF },
        inputs: [x],
        out: [routed, outF],
        weights: [['weight', [experts, inF, outF]]],
      });
    const gate = grouped(`${pre}.mlp.experts.gate`, input, h, f);
    const up = grouped(`${pre}.mlp.experts.up`, input, h, f);
    const down = grouped(
      `${pre}.mlp.experts.down`,
      this.swiglu(`${pre}.mlp.experts`, gate, up, routed, [routed, f]),
      f,
      h,
    );
    return g.node({
      name: `${pre}.mlp.experts.combine`,
      opType: 'Mul',
      op: 'Mul',
      shape: { n: routed * h },
      inputs: [down, weights],
      out: [b, s, h],
    });
  }

  head(x: TensorShape, tokenTable: TensorShape | undefined): void {
    this.g.beginLayer('head');
    if (this.e.finalNorm) x = this.norm('head.norm', x, this.rows);
    x = this.e.head === 'lm' ? this.lmHead(x, tokenTable) : this.classifierHead(x);
    this.g.endLayer([x]);
  }

  lmHead(x: TensorShape, tokenTable: TensorShape | undefined): TensorShape {
    const { e, b, s, h, rows } = this;
    const vocab = e.vocab as number;
    x = this.g.node({
      name: 'head.lm',
      opType: 'MatMul',
      op: 'MatMul',
      shape: { B: 1, M: rows, N: vocab, K: h },
      inputs: [x],
      out: [b, s, vocab],
      ...(e.tiedEmbeddings && tokenTable ? { shared: [tokenTable] } : { weights: [['weight', [h, vocab]]] }),
    });
    if (e.tiedEmbeddings) {
      this.warnings.push(
        `${e.name}: the LM head reuses the token embedding matrix (tied); its parameters are counted once, ` +
          'on the embeddings layer, and a stage holding the head without the embeddings needs its own copy',
      );
    }
    return this.p.mode === 'training' ? loss(this.g, x, rows, vocab) : x;
  }

  classifierHead(x: TensorShape): TensorShape {
    const { e, b, h } = this;
    const cls = this.gather('head.cls', x, b, [b, h]);
    if (e.head === 'pooler') {
      const dense = this.linear('head.pooler', cls, h, h, b, [b, h]);
      return this.g.node({
        name: 'head.tanh',
        opType: 'Tanh',
        op: 'Sigmoid',
        shape: { n: b * h },
        inputs: [dense],
        out: [b, h],
      });
    }
    const classes = e.classes as number;
    const fc = this.linear('head.fc', cls, h, classes, b, [b, classes]);
    return this.p.mode === 'training' ? loss(this.g, fc, b, classes) : fc;
  }
}

/** Width of the key (or value) projection: kvHeads x headDim; the hidden size without grouped-query attention. */
export function kvWidth(e: TransformerEntry): number {
  return (e.kvHeads ?? e.heads) * (e.hidden / e.heads);
}

/** Softmax cross-entropy over the logits (training): the Softmax kernel over rows x classes. */
export function loss(g: WorkloadBuilder, logits: TensorShape, rows: number, classes: number): TensorShape {
  return g.node({
    name: 'head.loss',
    opType: 'SoftmaxCrossEntropyLoss',
    op: 'Softmax',
    shape: { rows, cols: classes },
    inputs: [logits],
    out: logits.dims,
  });
}

/** Rejects token counts the model cannot take; warns beyond a rotary model's trained context. */
export function checkTransformerInput(
  e: TransformerEntry,
  p: { seq?: number; image?: number },
  warnings: string[],
): void {
  if (e.input === 'tokens') {
    if (p.image !== undefined) throw new UserError(`${e.name} takes text: give seq (tokens), not image`);
    const seq = p.seq ?? (e.defaults.seq as number);
    const context = e.context as number;
    if (seq > context) {
      if (e.contextPolicy === 'warn') {
        warnings.push(
          `${e.name}: seq ${seq} is beyond the ${context}-token context it was trained with; ` +
            'the costs are computed, the model quality there is not assured',
        );
      } else {
        throw new UserError(
          `${e.name} has learned position embeddings for ${context} tokens: seq must be at most ${context}, got ${seq}`,
        );
      }
    }
  } else {
    if (p.seq !== undefined) throw new UserError(`${e.name} takes an image: give image (side in pixels), not seq`);
    const image = p.image ?? (e.image as number);
    const patch = e.patch as number;
    if (image % patch !== 0) {
      throw new UserError(`${e.name}: image must be a multiple of the ${patch}-pixel patch, got ${image}`);
    }
  }
}
