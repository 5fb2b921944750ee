/**
 * A decoder as an engine runs it: the weight GEMMs of each kind of block (column- or
 * row-parallel under tensor parallelism, routed to experts or dense), the attention widths, the
 * KV cache per token, and the LM head. Derived from a catalog entry (models/*.json, a config.json
 * or a GGUF header). Pure.
 */
import { cachedValuesPerToken, headDimOf, isLocalBlock, isMoeBlock, queryWidth } from '../catalog/block-layout.js';
import type { TransformerEntry } from '../catalog/schema.js';

/** One weight GEMM of a block: out x in (N x K); `split` says which side tensor parallelism cuts. */
export interface EngineGemm {
  name: string;
  n: number;
  k: number;
  split: 'column' | 'row' | 'none';
  /** Routed experts: each token goes through topK of `count` copies of this GEMM. */
  experts?: { count: number; topK: number };
}

/** Blocks alike: how many, their GEMMs, and whether their attention is over a sliding window. */
export interface EngineBlockKind {
  count: number;
  gemms: EngineGemm[];
  /** Sliding-window attention: tokens each query attends to at most; absent: the whole context. */
  window?: number;
}

export interface EngineDecoder {
  name: string;
  layers: number;
  hidden: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  blocks: EngineBlockKind[];
  vocab: number;
  /** Values cached per token per layer (keys and values, or MLA's latent). */
  kvValuesPerLayer: number;
  /** Weights in total (every block, embeddings and head). */
  params: number;
  /** Weights one token reads through (its experts only). */
  activeParams: number;
  context: number;
  /** Gated MLP (SwiGLU/GeGLU): one more element-wise kernel per block. */
  gated: boolean;
}

function mlpGemms(e: TransformerEntry, ffn: number, experts?: { count: number; topK: number }): EngineGemm[] {
  const gated = e.mlp === 'swiglu';
  const x = experts ? { experts } : {};
  return [
    { name: gated ? 'gate_up' : 'fc1', n: (gated ? 2 : 1) * ffn, k: e.hidden, split: 'column', ...x },
    { name: gated ? 'down' : 'fc2', n: e.hidden, k: ffn, split: 'row', ...x },
  ];
}

function attentionGemms(e: TransformerEntry): EngineGemm[] {
  const kv = (e.kvHeads ?? e.heads) * headDimOf(e);
  return [
    { name: 'qkv', n: queryWidth(e) + 2 * kv, k: e.hidden, split: 'column' },
    { name: 'o', n: e.hidden, k: queryWidth(e), split: 'row' },
  ];
}

function blockGemms(e: TransformerEntry, moe: boolean): EngineGemm[] {
  if (!moe || e.experts === undefined || e.topK === undefined) {
    return [...attentionGemms(e), ...mlpGemms(e, e.experts !== undefined ? (e.denseFfn ?? e.ffn) : e.ffn)];
  }
  const shared = e.sharedFfn !== undefined ? mlpGemms(e, e.sharedFfn) : [];
  return [
    ...attentionGemms(e),
    { name: 'router', n: e.experts, k: e.hidden, split: 'none' },
    ...mlpGemms(e, e.ffn, { count: e.experts, topK: e.topK }),
    ...shared,
  ];
}

const gemmParams = (g: EngineGemm, active: boolean): number =>
  g.n * g.k * (g.experts ? (active ? g.experts.topK : g.experts.count) : 1);

/** The engine's view of a causal transformer with an LM head. */
export function engineDecoder(e: TransformerEntry): EngineDecoder {
  const kinds = new Map<string, EngineBlockKind>();
  for (let i = 0; i < e.layers; i++) {
    const moe = isMoeBlock(e, i);
    const local = isLocalBlock(e, i);
    const key = `${moe}/${local}`;
    const kind = kinds.get(key);
    if (kind) kind.count++;
    else
      kinds.set(key, {
        count: 1,
        gemms: blockGemms(e, moe),
        ...(local && e.window !== undefined ? { window: e.window } : {}),
      });
  }
  const blocks = [...kinds.values()];
  const vocab = e.vocab ?? 32000;
  const embeddings = vocab * e.hidden * (e.tiedEmbeddings ? 1 : 2);
  const sum = (active: boolean): number =>
    blocks.reduce((a, b) => a + b.count * b.gemms.reduce((s, g) => s + gemmParams(g, active), 0), 0) + embeddings;
  return {
    name: e.name,
    layers: e.layers,
    hidden: e.hidden,
    heads: e.heads,
    kvHeads: e.kvHeads ?? e.heads,
    headDim: headDimOf(e),
    blocks,
    vocab,
    kvValuesPerLayer: cachedValuesPerToken(e),
    params: sum(false),
    activeParams: sum(true),
    context: e.context ?? 4096,
    gated: e.mlp === 'swiglu',
  };
}
