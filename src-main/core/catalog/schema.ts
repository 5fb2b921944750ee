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
    /** Width of the MLP's inner layer (per branch for SwiGLU; per expert under mixture-of-experts). */
    ffn: ranged(R.ffn),
    /** Mixture-of-experts MLP (Mixtral): experts per layer, and how many each token is routed to. */
    experts: ranged(R.experts).optional(),
    topK: ranged(R.experts).optional(),
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
    need(e.hidden % e.heads === 0, 'hidden must divide by heads');
    need(e.kvHeads === undefined || e.heads % e.kvHeads === 0, 'heads must divide by kvHeads');
    need((e.experts === undefined) === (e.topK === undefined), 'experts and topK go together');
    need(e.topK === undefined || e.experts === undefined || e.topK <= e.experts, 'topK must be at most experts');
    need(e.experts === undefined || e.mlp === 'swiglu', 'experts are SwiGLU MLPs');
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
export const ResNetEntrySchema = z.strictObject({
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

export const CatalogEntrySchema = z.discriminatedUnion('kind', [TransformerEntrySchema, ResNetEntrySchema]);

/** One model of the catalog, with the family and citations of its file. */
export type CatalogEntry = (TransformerEntry | ResNetEntry) & { family: string; sources: string[] };

/** A models/*.json file. */
export const ModelFileSchema = z.object({
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
