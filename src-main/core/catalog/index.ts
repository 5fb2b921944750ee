/**
 * The built-in model catalog: parametric descriptions (hyper-parameters, not weights) of common
 * models, turned into Workloads for a batch size, sequence length or image size, and dtype. Pure.
 *
 * Conventions: FLOPs count 2 per multiply-add (kernels/cost.ts); node FLOPs and bytes are those
 * of the node's kernel; backward FLOPs are 2x forward (builder.ts); outBytes of a transformer
 * block is its output, batch x seq x hidden x dtype bytes; trainingActivationBytes follows
 * Korthikanti et al. 2022 (activation-memory.ts). Sources and derivations: models/README.md.
 */
import { quoted } from '../text/shown.js';
import { REQUEST_LIMITS } from '../workload/limits.js';
import type { Dtype } from '../domain/measurement.js';
import { DTYPE_BYTES, FLOAT_DTYPES } from '../domain/dtypes.js';
import { UserError } from '../errors.js';
import type { Workload } from '../workload/types.js';
import { WorkloadBuilder, type CatalogLayer } from './builder.js';
import { CATALOG } from './entries.js';
import { buildResNet } from './resnet.js';
import type { CatalogEntry } from './schema.js';
import { buildTransformer, checkTransformerInput, transformerTokens } from './transformer.js';
import { withAdapters } from './lora.js';
import type { FinetuneSpec } from '../workload/finetune.js';

export type { CatalogEntry, TransformerEntry } from './schema.js';
export type { CatalogLayer } from './builder.js';
export { kvBytesPerToken, kvCacheBytes } from './kv-cache.js';

export type CatalogMode = 'inference' | 'training';

export interface CatalogParams {
  /** Batch size (default: the entry's, 1). */
  batch?: number;
  /** Sequence length in tokens (text models; default: the entry's). */
  seq?: number;
  /** Image side in pixels (image models; default: the entry's, 224). */
  image?: number;
  /** fp32, fp16 or bf16 (default: the entry's). */
  dtype?: Dtype;
  /** 'inference' (default) or 'training': training adds the loss, and BatchNorm stays unfolded. */
  mode?: CatalogMode;
  /** Fine-tuning with LoRA/QLoRA adapters (training mode, transformers): see lora.ts. */
  finetune?: FinetuneSpec;
}

/** A catalog workload: a Workload whose layers also carry trainingActivationBytes. */
export interface CatalogWorkload extends Workload {
  source: 'catalog';
  layers: CatalogLayer[];
}

export interface CatalogSummary {
  name: string;
  title: string;
  family: string;
  kind: CatalogEntry['kind'];
  /** What the size parameter is: seq (tokens) or image (pixels). */
  input: 'tokens' | 'image';
  params: number;
  /** Transformer blocks, or bottleneck blocks for a ResNet. */
  blocks: number;
  /** Longest seq (token models). */
  context?: number;
  defaults: { batch: number; seq?: number; image?: number; dtype: Dtype };
  config: string;
  sources: string[];
}

/** The sizes a catalog model is built at: the bounds a request takes (REQUEST_LIMITS). */
const MAX_BATCH = REQUEST_LIMITS.batch.max;
const MAX_SEQ = REQUEST_LIMITS.seq.max;
const MAX_IMAGE = REQUEST_LIMITS.image.max;

export function catalogNames(): string[] {
  return CATALOG.map((e) => e.name);
}

/** The entry of that name; UserError naming the known ones otherwise. */
export function getCatalogEntry(name: string): CatalogEntry {
  const entry = CATALOG.find((e) => e.name === name);
  if (!entry) throw new UserError(`unknown model ${quoted(name)}; the catalog has: ${catalogNames().join(', ')}`);
  return entry;
}

function checkCount(what: string, value: number | undefined, max: number): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new UserError(`${what} must be a whole number from 1 to ${max}, got ${String(value)}`);
  }
}

/**
 * The workload of a catalog model. Throws UserError for an unknown name or parameters the model
 * cannot take (seq beyond a learned position table, seq for an image model, an image that does
 * not tile into patches, a non-float dtype); seq beyond a rotary model's context is a warning.
 */
export function catalogWorkload(name: string, params: CatalogParams = {}): CatalogWorkload {
  return entryWorkload(getCatalogEntry(name), params);
}

/** The workload of a model description: a catalog entry, or one read from a file (a GGUF header). */
export function entryWorkload(e: CatalogEntry, params: CatalogParams = {}): CatalogWorkload {
  checkCount('batch', params.batch, MAX_BATCH);
  checkCount('seq', params.seq, MAX_SEQ);
  checkCount('image', params.image, MAX_IMAGE);
  const dtype = params.dtype ?? e.defaults.dtype;
  if (!(FLOAT_DTYPES as readonly string[]).includes(dtype)) {
    throw new UserError(`dtype must be one of ${FLOAT_DTYPES.join(', ')}, got ${String(dtype)}`);
  }
  const mode = params.mode ?? 'inference';
  if (mode !== 'inference' && mode !== 'training') {
    throw new UserError(`mode must be inference or training, got ${String(mode)}`);
  }
  const batch = params.batch ?? e.defaults.batch;
  const warnings: string[] = [];
  const g = new WorkloadBuilder(dtype, e.name);
  let bindings: Record<string, number>;
  if (e.kind === 'transformer') {
    checkTransformerInput(e, params, warnings);
    if (e.input === 'tokens') {
      const seq = params.seq ?? (e.defaults.seq as number);
      bindings = { batch, seq };
      buildTransformer(g, e, { batch, seq, dtype, mode }, warnings);
    } else {
      const image = params.image ?? (e.defaults.image as number);
      bindings = { batch, image, seq: transformerTokens(e, { image }) };
      buildTransformer(g, e, { batch, image, dtype, mode }, warnings);
    }
  } else {
    if (params.seq !== undefined) throw new UserError(`${e.name} takes an image: give image (side in pixels), not seq`);
    const image = params.image ?? (e.defaults.image as number);
    if (image < 32) throw new UserError(`${e.name}: image must be at least 32 pixels, got ${image}`);
    if (dtype === 'bf16' || dtype === 'fp8') {
      throw new UserError(`${e.name}: Conv kernels are profiled in fp32 and fp16, not ${dtype}; use dtype fp16`);
    }
    bindings = { batch, image };
    buildResNet(g, e, { batch, image, dtype, mode }, warnings);
  }
  const tuned = finetuned(e, g, params.finetune, mode);
  const paramCount = tuned.nodes.reduce((s, n) => s + n.params, 0);
  return {
    name: e.name,
    source: 'catalog',
    bindings,
    inputs: [],
    nodes: tuned.nodes,
    layers: tuned.layers,
    paramBytes: paramCount * DTYPE_BYTES[dtype],
    warnings,
  };
}

/** The built graph, with adapters when fine-tuning (a transformer, in training mode). */
function finetuned(
  e: CatalogEntry,
  g: WorkloadBuilder,
  spec: FinetuneSpec | undefined,
  mode: CatalogMode,
): { nodes: Workload['nodes']; layers: CatalogLayer[] } {
  if (!spec) return g;
  if (e.kind !== 'transformer') throw new UserError(`${e.name}: LoRA and QLoRA adapters are planned for transformers`);
  if (mode !== 'training') throw new Error('fine-tuning builds in training mode');
  return withAdapters(e, g, spec);
}

const paramCounts = new Map<string, number>();

/**
 * Parameter count of a catalog model as defined (independent of batch, seq and dtype; BatchNorm
 * unfolded, so ResNet-50 gives torchvision's 25,557,032, while its inference workload, with
 * BatchNorm folded into conv biases, holds 26,560 fewer).
 */
export function catalogParams(name: string): number {
  const known = paramCounts.get(name);
  if (known !== undefined) return known;
  const e = getCatalogEntry(name);
  const seq = e.kind === 'transformer' && e.input === 'tokens' ? { seq: 1 } : {};
  const w = catalogWorkload(name, { ...seq, mode: 'training', dtype: 'fp32' });
  const count = w.layers.reduce((s, l) => s + l.params, 0);
  paramCounts.set(name, count);
  return count;
}

/** One line per model: what the catalog offers and its defaults. */
export function listCatalog(): CatalogSummary[] {
  return CATALOG.map((e) => ({
    name: e.name,
    title: e.title,
    family: e.family,
    kind: e.kind,
    input: e.kind === 'transformer' && e.input === 'tokens' ? 'tokens' : 'image',
    params: catalogParams(e.name),
    blocks: e.kind === 'transformer' ? e.layers : e.blocks.reduce((a, b) => a + b, 0),
    ...(e.kind === 'transformer' && e.context !== undefined ? { context: e.context } : {}),
    defaults: { ...e.defaults },
    config: e.config,
    sources: [...e.sources],
  }));
}
