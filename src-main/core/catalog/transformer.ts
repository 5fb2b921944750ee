/**
 * Transformer workloads (GPT-2, Llama, BERT, ViT) from their hyper-parameters: one layer for the
 * embeddings, one per block, one for the head; each block decomposed into the kernels a runtime
 * executes. Pure.
 *
 * Block, pre-norm (GPT-2, Llama, ViT):  x -> norm1 -> qkv -> [rope] -> attention -> out -> +x
 *                                         -> norm2 -> MLP -> +   (post-norm, BERT: norm after each +)
 * MLP: fc -> GELU -> proj, or SwiGLU: gate, up -> Sigmoid, Mul (SiLU) -> Mul (gate * up) -> down.
 * Grouped-query attention (kvHeads < heads): the QKV GEMM's output is (heads + 2 x kvHeads) x headDim,
 * headDim being hidden / heads unless the entry gives it (Qwen3, Gemma); per-head Q/K RMSNorms
 * (qkNorm) follow it. Multi-head latent attention (mla, DeepSeek): q_a -> norm -> q_b (or one q),
 * kv_a -> norm -> kv_b, the attention kernel at the mean of the query/key and value head widths
 * (its FLOPs are 2 x seq^2 x (qk + v) per head), then out. Gemma's sandwich norms add a norm
 * after attention and after the MLP. Dense blocks of a MoE model (isMoeBlock) use denseFfn;
 * shared experts (sharedFfn, with a sigmoid gate under sharedGate) add their SwiGLU to the
 * routed experts' output.
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
import type { TensorShape } from '../workload/types.js';
import { activationElementBytes, transformerLayerActivationBytes } from './activation-memory.js';
import { headDimOf, isMoeBlock, queryWidth } from './block-layout.js';
import { elements, type WorkloadBuilder } from './builder.js';
import type { TransformerEntry } from './schema.js';
import { attentionCoreName, blockName, expertsName } from './block-names.js';

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
  for (let i = 0; i < e.layers; i++) x = t.block(i, x);
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

  norm(name: string, x: TensorShape, m: number, h = this.h): TensorShape {
    const { e } = this;
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

  /** Training activation bytes of a block whose MLP is `ffn` wide per token. */
  trainingActivationBytes(ffn: number): number {
    const { e, b, s, h } = this;
    return transformerLayerActivationBytes({
      seq: s,
      batch: b,
      hidden: h,
      heads: e.heads,
      ffn,
      elementBytes: activationElementBytes(this.p.dtype),
      mlp: e.mlp,
      dropout: e.dropout,
    });
  }

  /** The MLP width a token goes through in block i: topK experts (+ shared), or the dense width. */
  blockFfn(i: number): number {
    const e = this.e;
    // Each token keeps the activations of the topK experts it went through.
    if (isMoeBlock(e, i)) return e.ffn * (e.topK ?? 1) + (e.sharedFfn ?? 0);
    return e.experts !== undefined ? (e.denseFfn ?? e.ffn) : e.ffn;
  }

  block(i: number, x: TensorShape): TensorShape {
    const { rows } = this;
    const pre = blockName(i);
    const sandwich = this.e.sandwichNorm === true;
    this.g.beginLayer(pre);
    if (this.e.normPlacement === 'pre') {
      let a = this.attention(pre, this.norm(`${pre}.norm1`, x, rows));
      if (sandwich) a = this.norm(`${pre}.norm1_post`, a, rows);
      const r1 = this.add(`${pre}.attn.residual`, x, a);
      let m = this.mlp(pre, i, this.norm(`${pre}.norm2`, r1, rows));
      if (sandwich) m = this.norm(`${pre}.norm2_post`, m, rows);
      x = this.add(`${pre}.mlp.residual`, r1, m);
    } else {
      const n1 = this.norm(`${pre}.norm1`, this.add(`${pre}.attn.residual`, x, this.attention(pre, x)), rows);
      x = this.norm(`${pre}.norm2`, this.add(`${pre}.mlp.residual`, n1, this.mlp(pre, i, n1)), rows);
    }
    this.g.endLayer([x], this.trainingActivationBytes(this.blockFfn(i)));
    return x;
  }

  attention(pre: string, input: TensorShape): TensorShape {
    const { g, e, b, s, h, rows } = this;
    if (e.mla) return this.latentAttention(pre, input, e.mla);
    const kv = kvWidth(e);
    const q = queryWidth(e);
    const hd = headDimOf(e);
    let qkv = this.linear(
      `${pre}.attn.qkv`,
      input,
      h,
      q + 2 * kv,
      rows,
      [b, s, q + 2 * kv],
      e.bias || e.qkvBias === true,
    );
    if (e.qkNorm) {
      const kvHeads = e.kvHeads ?? e.heads;
      qkv = g.node({
        name: `${pre}.attn.qk_norm`,
        opType: 'RMSNormalization',
        op: 'LayerNormalization',
        shape: { rows: rows * (e.heads + kvHeads), cols: hd },
        inputs: [qkv],
        out: qkv.dims,
        weights: [
          ['q_scale', [hd]],
          ['k_scale', [hd]],
        ],
      });
    }
    const inputs = [qkv];
    if (e.position === 'rope') {
      inputs.unshift(
        g.node({
          name: `${pre}.attn.rope`,
          opType: 'RotaryEmbedding',
          op: 'Mul',
          shape: { n: rows * (q + kv) },
          inputs: [qkv],
          out: [b, s, q + kv],
        }),
      );
    }
    const core = g.node({
      name: attentionCoreName(pre),
      opType: 'Attention',
      op: 'Attention',
      shape: { batch: b, heads: e.heads, seq: s, headDim: hd },
      inputs,
      out: [b, s, q],
    });
    return this.linear(`${pre}.attn.out`, core, q, h, rows, [b, s, h]);
  }

  /** Multi-head latent attention (DeepSeek-V2/V3), see the file comment. */
  latentAttention(pre: string, input: TensorShape, m: NonNullable<TransformerEntry['mla']>): TensorShape {
    const { g, e, b, s, h, rows } = this;
    const heads = e.heads;
    const qk = m.qkNopeHeadDim + m.qkRopeHeadDim;
    const lin = (name: string, x: TensorShape, inF: number, outF: number): TensorShape =>
      this.linear(`${pre}.attn.${name}`, x, inF, outF, rows, [b, s, outF]);
    let q: TensorShape;
    if (m.qLoraRank !== undefined) {
      const qa = lin('q_a', input, h, m.qLoraRank);
      q = lin('q_b', this.norm(`${pre}.attn.q_a.norm`, qa, rows, m.qLoraRank), m.qLoraRank, heads * qk);
    } else {
      q = lin('q', input, h, heads * qk);
    }
    const kva = lin('kv_a', input, h, m.kvLoraRank + m.qkRopeHeadDim);
    const kv = lin(
      'kv_b',
      this.norm(`${pre}.attn.kv_a.norm`, kva, rows, m.kvLoraRank),
      m.kvLoraRank,
      heads * (m.qkNopeHeadDim + m.vHeadDim),
    );
    const rope = g.node({
      name: `${pre}.attn.rope`,
      opType: 'RotaryEmbedding',
      op: 'Mul',
      shape: { n: rows * (heads + 1) * m.qkRopeHeadDim },
      inputs: [q, kva],
      out: [b, s, (heads + 1) * m.qkRopeHeadDim],
    });
    const v = heads * m.vHeadDim;
    const core = g.node({
      name: attentionCoreName(pre),
      opType: 'Attention',
      op: 'Attention',
      shape: { batch: b, heads, seq: s, headDim: Math.round((qk + m.vHeadDim) / 2) },
      inputs: [rope, q, kv],
      out: [b, s, v],
    });
    return this.linear(`${pre}.attn.out`, core, v, h, rows, [b, s, h]);
  }

  mlp(pre: string, i: number, input: TensorShape): TensorShape {
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
    if (isMoeBlock(e, i)) return this.moe(pre, input, e.experts ?? 1, e.topK ?? 1);
    return this.gated(`${pre}.mlp`, input, e.experts !== undefined ? (e.denseFfn ?? f) : f);
  }

  /** A gated MLP of width f on every row: down(act(gate(x)) * up(x)), its nodes named `${prefix}.gate|up|down`. */
  gated(prefix: string, input: TensorShape, f: number): TensorShape {
    const { b, s, h, rows } = this;
    const gate = this.linear(`${prefix}.gate`, input, h, f, rows, [b, s, f]);
    const up = this.linear(`${prefix}.up`, input, h, f, rows, [b, s, f]);
    const prod = this.swiglu(prefix, gate, up, rows, [b, s, f], f);
    return this.linear(`${prefix}.down`, prod, f, h, rows, [b, s, h]);
  }

  /** act(gate) * up over `n` rows of the MLP width f: SiLU (Sigmoid, Mul), or GELU under gatedAct 'gelu'. */
  swiglu(prefix: string, gate: TensorShape, up: TensorShape, n: number, out: number[], f = this.e.ffn): TensorShape {
    const elementwise = (name: string, opType: 'Sigmoid' | 'Mul' | 'Gelu', ins: TensorShape[]): TensorShape =>
      this.g.node({ name, opType, op: opType, shape: { n: n * f }, inputs: ins, out });
    const act =
      this.e.gatedAct === 'gelu'
        ? elementwise(`${prefix}.gelu`, 'Gelu', [gate])
        : elementwise(`${prefix}.silu.mul`, 'Mul', [gate, elementwise(`${prefix}.silu.sigmoid`, 'Sigmoid', [gate])]);
    return elementwise(`${prefix}.gate_mul`, 'Mul', [act, up]);
  }

  /** Mixture of experts: router, then the experts as grouped GEMMs over topK x tokens rows (see the file comment). */
  moe(pre: string, input: TensorShape, experts: number, topK: number): TensorShape {
    const { g, e, b, s, h, rows } = this;
    const f = e.ffn;
    const routed = rows * topK;
    const logits = this.linear(`${pre}.mlp.router`, input, h, experts, rows, [b, s, experts], e.routerBias === true);
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
    const ex = expertsName(pre);
    const gate = grouped(`${ex}.gate`, input, h, f);
    const up = grouped(`${ex}.up`, input, h, f);
    const down = grouped(`${ex}.down`, this.swiglu(ex, gate, up, routed, [routed, f]), f, h);
    const combined = g.node({
      name: `${ex}.combine`,
      opType: 'Mul',
      op: 'Mul',
      shape: { n: routed * h },
      inputs: [down, weights],
      out: [b, s, h],
    });
    return e.sharedFfn !== undefined ? this.sharedExpert(pre, input, combined, e.sharedFfn) : combined;
  }

  /** The shared expert every token goes through, (sigmoid-gated under sharedGate), added to the routed output. */
  sharedExpert(pre: string, input: TensorShape, routed: TensorShape, f: number): TensorShape {
    const { g, e, b, s, h, rows } = this;
    let shared = this.gated(`${pre}.mlp.shared`, input, f);
    if (e.sharedGate) {
      const logit = this.linear(`${pre}.mlp.shared.router`, input, h, 1, rows, [b, s, 1], false);
      const gate = g.node({
        name: `${pre}.mlp.shared.sigmoid`,
        opType: 'Sigmoid',
        op: 'Sigmoid',
        shape: { n: rows },
        inputs: [logit],
        out: [b, s, 1],
      });
      shared = g.node({
        name: `${pre}.mlp.shared.scale`,
        opType: 'Mul',
        op: 'Mul',
        shape: { n: rows * h },
        inputs: [shared, gate],
        out: [b, s, h],
      });
    }
    return this.add(`${pre}.mlp.shared.add`, routed, shared);
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

/** Width of the key (or value) projection: kvHeads x headDim; heads x headDim without grouped-query attention. */
export function kvWidth(e: TransformerEntry): number {
  return (e.kvHeads ?? e.heads) * headDimOf(e);
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
