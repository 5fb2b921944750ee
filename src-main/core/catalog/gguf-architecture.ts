/**
 * A decoder's architecture from the metadata of a GGUF file (llama.cpp's format), as a catalog
 * entry: the planner and the generation model then treat `model.gguf` like a catalog decoder.
 * Only the header is used: hyper-parameters from the `{arch}.*` keys, the vocabulary from the
 * tokenizer, tied embeddings from the absence of an `output.weight` tensor, the weight format
 * from `general.file_type`. Pure.
 *
 * Architectures: llama (Llama 1-3, Mistral and Mixtral, which llama.cpp writes as llama with
 * expert counts) and qwen2 (Q/K/V biases). Keys after llama.cpp's gguf-py constants.
 */
import { quoted } from '../text/shown.js';
import { UserError } from '../errors.js';
import type { WeightFormat } from '../workload/generation.js';
import { HYPERPARAMETER_RANGES, outOfRange, type Range } from '../workload/limits.js';
import type { CatalogEntry, TransformerEntry } from './schema.js';
import { LLAMA_STYLE } from './decoder-style.js';
import { defaultSequence } from './default-sequence.js';

export type GgufMetadata = Readonly<Record<string, unknown>>;

export interface GgufDecoder {
  entry: CatalogEntry;
  /** The format most weights are stored in, when general.file_type names one generation models. */
  weights: WeightFormat | null;
  /** The file's own parameter count (from its tensor shapes), when the header lists tensors. */
  fileParams: number | null;
}

const ARCHITECTURES: Readonly<Record<string, Partial<TransformerEntry>>> = {
  llama: { qkvBias: false },
  qwen2: { qkvBias: true },
};

/** llama.cpp's LLAMA_FTYPE values (llama.h) that map onto a weight format of the generation model. */
const FILE_TYPES: Readonly<Record<number, WeightFormat>> = {
  0: 'fp32',
  1: 'fp16',
  2: 'q4_0',
  7: 'q8_0',
  14: 'q4_k', // Q4_K_S
  15: 'q4_k', // Q4_K_M
  32: 'bf16',
};

function count(md: GgufMetadata, key: string, file: string, range: Range, optional = false): number | undefined {
  const v = md[key];
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (optional && v === undefined) return undefined;
  // A string, a list or a flag where a count belongs: named by its type (outOfRange).
  if (v !== undefined && typeof n !== 'number')
    throw new UserError(`${file}: ${outOfRange(`GGUF metadata ${key}`, v, range)}`);
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) {
    throw new UserError(
      `${file}: GGUF metadata ${key} is ${v === undefined ? 'missing' : `not a positive count (${String(v)})`}`,
    );
  }
  const why = outOfRange(`GGUF metadata ${key}`, v, range);
  if (why !== null) throw new UserError(`${file}: ${why}`);
  return n;
}

/** The vocabulary size from the tokenizer's token list, checked like vocab_size. */
function checkedTokens(n: number, file: string): number {
  const why = outOfRange('GGUF tokenizer.ggml.tokens count', n, HYPERPARAMETER_RANGES.vocab);
  if (why !== null) throw new UserError(`${file}: ${why}`);
  return n;
}

/** The decoder a GGUF header describes; one line for an architecture or key it lacks. */
export function ggufDecoder(
  md: GgufMetadata,
  tensorNames: readonly string[] | null,
  file: string,
  name: string,
): GgufDecoder {
  const arch = md['general.architecture'];
  if (typeof arch !== 'string') throw new UserError(`${file}: no general.architecture in its GGUF metadata`);
  const family = ARCHITECTURES[arch];
  if (!family) {
    throw new UserError(
      `${file}: GGUF architecture ${quoted(arch)} is not supported (supported: ${Object.keys(ARCHITECTURES).join(', ')})`,
    );
  }
  const R = HYPERPARAMETER_RANGES;
  const k = (key: string, range: Range, optional = false): number | undefined =>
    count(md, `${arch}.${key}`, file, range, optional);
  // Every size is checked against its range here, before anything is built from it.
  const layers = k('block_count', R.layers) as number;
  const hidden = k('embedding_length', R.hidden) as number;
  const heads = k('attention.head_count', R.heads) as number;
  const kvHeads = k('attention.head_count_kv', { min: 1, max: heads }, true) ?? heads;
  const ffn = k('feed_forward_length', R.ffn) as number;
  const context = k('context_length', R.context) as number;
  const tokens = md['tokenizer.ggml.tokens'];
  const vocab =
    k('vocab_size', R.vocab, true) ??
    (Array.isArray(tokens) && tokens.length > 0 ? checkedTokens(tokens.length, file) : undefined);
  if (vocab === undefined) throw new UserError(`${file}: GGUF metadata gives no vocabulary size`);
  const experts = k('expert_count', R.experts, true);
  const moe =
    experts !== undefined && experts > 1 ? { experts, topK: k('expert_used_count', { min: 1, max: experts }) } : {};
  const entry: CatalogEntry = {
    name,
    title: typeof md['general.name'] === 'string' ? (md['general.name'] as string) : name,
    config: `${file} (GGUF header)`,
    reportedParams: 1,
    defaults: { batch: 1, seq: defaultSequence(context, true), dtype: 'bf16' },
    kind: 'transformer',
    input: 'tokens',
    layers,
    hidden,
    heads,
    kvHeads,
    ffn,
    ...moe,
    vocab,
    context,
    ...LLAMA_STYLE,
    tiedEmbeddings: tensorNames !== null && tensorNames.length > 0 && !tensorNames.includes('output.weight'),
    ...family,
    family: `GGUF ${arch}`,
    sources: [file],
  } as CatalogEntry;
  if (hidden % heads !== 0 || heads % kvHeads !== 0) {
    throw new UserError(
      `${file}: GGUF metadata has ${heads} heads that do not divide ${hidden} or its key/value heads`,
    );
  }
  const fileType = md['general.file_type'];
  return { entry, weights: typeof fileType === 'number' ? (FILE_TYPES[fileType] ?? null) : null, fileParams: null };
}
