/**
 * The shape of the built-in model descriptions in models/*.json: hyper-parameters only, no
 * weights. Each file holds a family: shared `common` fields, citations, and the models, whose own
 * fields override `common`. Pure.
 */
import { z } from 'zod';
import { HYPERPARAMETER_RANGES as R } from '../workload/limits.js';

const count = z.number().int().positive();
/** A hyper-parameter within its range (core/workload/limits.ts, shared with GGUF headers). */
const ranged = (range: { max: number }) => count.max(range.max);
const FloatDtypeSchema = z.enum(['fp32', 'fp16', 'bf16']);

const DefaultsSchema = z.strictObject({
  batch: count,
  seq: count.optional(),
  image: count.optional(),
  dtype: FloatDtypeSchema,
});

const EntryBase = {
  /** Catalog name, e.g. "gpt2-small". */
  name: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
  title: z.string().min(1),
  /** The official configuration file(s) the numbers are taken from. */
  config: z.string().min(1),
  /** The published parameter count (of the official implementation) the description reproduces. */
  reportedParams: count,
  defaults: DefaultsSchema,
};

/**
 * Transformers: GPT-2, Llama, BERT (tokens in) and ViT (image patches in), as one parameterised
 * block stack.
 */
export const TransformerEntrySchema = z
  .strictObject({
    ...EntryBase,
    kind: z.literal('transformer'),
    input: z.enum(['tokens', 'patches']),
    layers: ranged(R.layers),
    hidden: ranged(R.hidden),
    heads: ranged(R.heads),
    /** Key/value heads under grouped-query attention (Llama 3, Qwen2.5, Mistral); absent: one per head. */
    kvHeads: ranged(R.heads).optional(),
    /** Width of one attention head (Qwen3, Gemma: may differ from hidden / heads); absent: hidden / heads. */
    headDim: ranged(R.hidden).optional(),
    /** Per-head RMSNorms on the queries and keys (Qwen3, Gemma 3): 2 x headDim weights per layer. */
    qkNorm: z.boolean().optional(),
    /**
     * Multi-head latent attention (DeepSeek-V2/V3): queries through a rank-qLoraRank bottleneck
     * (absent: one plain projection), keys and values from one rank-kvLoraRank latent (what is
     * cached, with the shared rotary key of qkRopeHeadDim), per-head widths qkNope + qkRope for
     * queries and keys, vHeadDim for values.
     */
    mla: z
      .strictObject({
        qLoraRank: ranged(R.hidden).optional(),
        kvLoraRank: ranged(R.hidden),
        qkNopeHeadDim: ranged(R.hidden),
        qkRopeHeadDim: ranged(R.hidden),
        vHeadDim: ranged(R.hidden),
      })
      .optional(),
    /** Sliding-window attention: the window (tokens) of the local layers. */
    window: ranged(R.context).optional(),
    /** Local/global pattern with a window: layer i is global when (i + 1) % localPattern is 0, else local. */
    localPattern: ranged(R.layers).optional(),
    /** The pattern layer by layer (config.json layer_types), instead of localPattern. */
    layerTypes: z.array(z.enum(['local', 'global'])).optional(),
    /** Four norms per block (Gemma 2/3): before and after attention, before and after the MLP. */
    sandwichNorm: z.boolean().optional(),
    /** Width of the MLP's inner layer (per branch for SwiGLU; per expert under mixture-of-experts). */
    ffn: ranged(R.ffn),
    /** The gated MLP's activation: absent 'silu' (SwiGLU); 'gelu' (GeGLU, Gemma): same shapes. */
    gatedAct: z.enum(['silu', 'gelu']).optional(),
    /** Mixture-of-experts MLP (Mixtral): experts per layer, and how many each token is routed to. */
    experts: ranged(R.experts).optional(),
    topK: ranged(R.experts).optional(),
    /** MoE models with dense layers: the first denseLayers blocks are dense (DeepSeek first_k_dense_replace). */
    denseLayers: z.number().int().nonnegative().optional(),
    /** Then block i is MoE when (i + 1) % moeEvery is 0 (Qwen decoder_sparse_step), else dense. */
    moeEvery: ranged(R.layers).optional(),
    /** And these blocks are dense whatever the rule (Qwen mlp_only_layers). */
    denseLayerList: z.array(z.number().int().nonnegative()).optional(),
    /** Width of the dense blocks' SwiGLU in a MoE model (absent: ffn). */
    denseFfn: ranged(R.ffn).optional(),
    /** Shared experts beside the routed ones, as one SwiGLU of this width (Qwen2-MoE, DeepSeek). */
    sharedFfn: ranged(R.ffn).optional(),
    /** The shared expert's output scaled by a sigmoid gate, Linear(hidden, 1) (Qwen2-MoE). */
    sharedGate: z.boolean().optional(),
    /** The router carries one bias per expert (DeepSeek-V3 e_score_correction_bias). */
    routerBias: z.boolean().optional(),
    /** Token inputs: vocabulary, token types (BERT segments; 0 = none), context length. */
    vocab: ranged(R.vocab).optional(),
    typeVocab: z.number().int().nonnegative().optional(),
    context: ranged(R.context).optional(),
    /** Beyond the context: 'error' (learned position table ends there) or 'warn' (rotary positions). */
    contextPolicy: z.enum(['error', 'warn']).optional(),
    /** Patch inputs: native image side, patch side, image channels, class token. */
    image: count.optional(),
    patch: count.optional(),
    channels: count.optional(),
    classToken: z.boolean().optional(),
    norm: z.enum(['layernorm', 'rmsnorm']),
    /** 'pre': x + f(norm(x)) (GPT-2, Llama, ViT); 'post': norm(x + f(x)) (BERT). */
    normPlacement: z.enum(['pre', 'post']),
    embeddingNorm: z.boolean(),
    finalNorm: z.boolean(),
    /** 'gelu': fc -> GELU -> proj; 'swiglu': down(silu(gate(x)) * up(x)). */
    mlp: z.enum(['gelu', 'swiglu']),
    /** Linear layers carry biases. */
    bias: z.boolean(),
    /** Only the query, key and value projections carry biases (Qwen2). */
    qkvBias: z.boolean().optional(),
    position: z.enum(['learned', 'rope']),
    /** The LM head reuses the token embedding matrix. */
    tiedEmbeddings: z.boolean(),
    head: z.enum(['lm', 'pooler', 'classifier']),
    classes: count.optional(),
    causal: z.boolean(),
    /** Trained with dropout (adds its masks to the training activation memory). */
    dropout: z.boolean(),
  })
  .superRefine((e, ctx) => {
    const need = (ok: boolean, message: string): void => {
      if (!ok) ctx.addIssue({ code: 'custom', message: `${e.name}: ${message}` });
    };
    need(e.headDim !== undefined || e.mla !== undefined || e.hidden % e.heads === 0, 'hidden must divide by heads');
    need(e.kvHeads === undefined || e.heads % e.kvHeads === 0, 'heads must divide by kvHeads');
    need((e.experts === undefined) === (e.topK === undefined), 'experts and topK go together');
    need(e.topK === undefined || e.experts === undefined || e.topK <= e.experts, 'topK must be at most experts');
    need(e.experts === undefined || e.mlp === 'swiglu', 'experts are SwiGLU MLPs');
    need(e.gatedAct === undefined || e.mlp === 'swiglu', 'gatedAct is for gated (swiglu) MLPs');
    const moeOnly = [e.denseLayers, e.moeEvery, e.denseLayerList, e.denseFfn, e.sharedFfn, e.sharedGate, e.routerBias];
    need(
      e.experts !== undefined || moeOnly.every((v) => v === undefined),
      'dense layers, shared experts and router bias need experts',
    );
    need(e.sharedGate === undefined || e.sharedFfn !== undefined, 'sharedGate needs sharedFfn');
    need(e.denseLayers === undefined || e.denseLayers <= e.layers, 'denseLayers must be at most layers');
    need(
      (e.denseLayerList ?? []).every((i) => i < e.layers),
      'denseLayerList holds block indices below layers',
    );
    need(
      e.mla === undefined || e.kvHeads === undefined,
      'mla has no kvHeads (its keys and values come from the latent)',
    );
    need(e.mla === undefined || (e.headDim === undefined && e.qkNorm === undefined), 'mla sets its own head widths');
    need(e.localPattern === undefined || e.layerTypes === undefined, 'localPattern or layerTypes, not both');
    need(e.layerTypes === undefined || e.layerTypes.length === e.layers, 'layerTypes needs one entry per layer');
    need(
      e.window !== undefined || (e.localPattern === undefined && e.layerTypes === undefined),
      'a local/global pattern needs window',
    );
    if (e.input === 'tokens') {
      need(e.vocab !== undefined && e.context !== undefined, 'token inputs need vocab and context');
      need(e.defaults.seq !== undefined, 'token inputs need defaults.seq');
    } else {
      need(
        e.image !== undefined && e.patch !== undefined && e.channels !== undefined && e.classToken !== undefined,
        'patch inputs need image, patch, channels and classToken',
      );
      need(e.image !== undefined && e.patch !== undefined && e.image % e.patch === 0, 'image must divide by patch');
      need(e.defaults.image !== undefined, 'patch inputs need defaults.image');
    }
    need(e.head !== 'classifier' || e.classes !== undefined, 'a classifier head needs classes');
    need(e.head !== 'lm' || e.input === 'tokens', 'an LM head needs token inputs');
    need(!e.tiedEmbeddings || e.head === 'lm', 'tied embeddings need an LM head');
  });
export type TransformerEntry = z.infer<typeof TransformerEntrySchema>;

/** ResNets with bottleneck blocks (ResNet-50/101/152). */
const ResNetEntrySchema = z.strictObject({
  ...EntryBase,
  kind: z.literal('resnet'),
  /** Bottleneck blocks per stage. */
  blocks: z.array(count).min(1),
  /** Bottleneck width (channels of the 1x1 and 3x3 convolutions) per stage. */
  widths: z.array(count).min(1),
  expansion: count,
  channels: count,
  stemChannels: count,
  stemKernel: count,
  stemStride: count,
  poolKernel: count,
  poolStride: count,
  /** Where a downsampling block strides: '1x1' (original paper, v1) or '3x3' (torchvision, v1.5). */
  strideOn: z.enum(['1x1', '3x3']),
  classes: count,
});
export type ResNetEntry = z.infer<typeof ResNetEntrySchema>;

const CatalogEntrySchema = z.discriminatedUnion('kind', [TransformerEntrySchema, ResNetEntrySchema]);

/** One model of the catalog, with the family and citations of its file. */
export type CatalogEntry = (TransformerEntry | ResNetEntry) & { family: string; sources: string[] };

/** A models/*.json file. */
const ModelFileSchema = z.object({
  $comment: z.string().optional(),
  family: z.string().min(1),
  sources: z.array(z.string().min(1)).min(1),
  common: z.record(z.string(), z.unknown()),
  models: z.array(z.record(z.string(), z.unknown())).min(1),
});

/** Validates a models/*.json file and returns its entries (each model merged over `common`). */
export function parseModelFile(file: unknown, where: string): CatalogEntry[] {
  const parsed = ModelFileSchema.safeParse(file);
  if (!parsed.success) throw new Error(`${where}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const { family, sources, common, models } = parsed.data;
  return models.map((model, i) => {
    const entry = CatalogEntrySchema.safeParse({ ...common, ...model });
    if (!entry.success) {
      const issue = entry.error.issues[0];
      const path = issue?.path.map(String).join('.') ?? '';
      throw new Error(`${where} models[${i}]${path ? `.${path}` : ''}: ${issue?.message ?? 'invalid'}`);
    }
    if (entry.data.kind === 'resnet' && entry.data.blocks.length !== entry.data.widths.length) {
      throw new Error(`${where} models[${i}]: blocks and widths need one value per stage`);
    }
    return { ...entry.data, family, sources };
  });
}
