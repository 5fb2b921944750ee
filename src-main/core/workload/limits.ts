/**
 * The sizes a model may have here, in one table per kind: the hyper-parameters of a decoder (a
 * GGUF header, a catalog entry) and the size of an ONNX graph. Each is checked before any loop or
 * allocation depends on it, and a value outside is refused with one line naming it and its range.
 * The caps are generous: several times the largest real models. Pure.
 */
import { MAX_LORA_RANK } from './finetune.js';
import { quoted } from '../text/shown.js';

export interface Range {
  min: number;
  max: number;
}

/**
 * Decoder hyper-parameters (TransformerEntry fields). Largest real values, for scale: layers 126
 * (Llama 3.1 405B), hidden 16384 and ffn 53248 (405B), heads 128 (405B, DeepSeek-V3), experts
 * 384 (Kimi K2) with 8 routed, vocab 262144 (Gemma 3), context 10M (Llama 4 Scout).
 */
export const HYPERPARAMETER_RANGES = {
  // The planner's search grows with the square of the layers: 256 (twice the largest real decoder)
  // keeps a plan on 16 mixed GPUs under 20 s.
  layers: { min: 1, max: 256 },
  hidden: { min: 1, max: 131_072 },
  heads: { min: 1, max: 4096 },
  ffn: { min: 1, max: 1_048_576 },
  experts: { min: 1, max: 4096 },
  vocab: { min: 1, max: 4_194_304 },
  context: { min: 1, max: 16_777_216 },
} as const satisfies Record<string, Range>;

/**
 * The numbers a request may ask for, one range per option: the CLI's option parsing
 * (`positiveInt` in src-main/cli/workload-options.ts) and the API contract's schemas
 * (src-main/api/contract.ts) both read this table, so `plan --batch N` and `plan:create` with
 * `batch: N` are refused at the same bound, each message naming it. Where the two once differed,
 * the narrower bound was kept.
 */
export const REQUEST_LIMITS = {
  /** Samples (training) or sequences (serving) per step: --batch, `batch`. */
  batch: { min: 1, max: 65_536 },
  /** A catalog transformer's sequence length: --seq, `seq`. 1M tokens covers every catalog context (Llama 3.1: 128k). */
  seq: { min: 1, max: 1 << 20 },
  /** Tokens per sequence `fit` sizes the KV cache for: --context, `context`. */
  context: { min: 1, max: 1 << 20 },
  /** Serving a decoder: prompt tokens (--prompt, `prompt`) and output tokens (--tokens, `tokens`). */
  prompt: { min: 1, max: 1 << 20 },
  tokens: { min: 1, max: 1 << 20 },
  /** A catalog CNN's or ViT's image size in pixels: --image, `image`. */
  image: { min: 1, max: 16_384 },
  /** A symbolic dimension (--dim NAME=N, `dims`) or one dimension of an input's shape (--input, `inputs`). */
  dim: { min: 1, max: 1 << 20 },
  /** Plans `plan` lists: --top, `topN`. */
  top: { min: 1, max: 50 },
  /** CPU threads: --threads, `threads`. */
  threads: { min: 1, max: 1024 },
  /** A simulated serving load: users (--concurrency), requests (--requests) and requests/s (--rate; above 0). */
  users: { min: 1, max: 100_000 },
  requests: { min: 1, max: 100_000 },
  rate: { min: 0, max: 100_000 },
  /** LoRA rank: --rank, `rank`. */
  rank: { min: 1, max: MAX_LORA_RANK },
  /** LoRA alpha (--alpha, `alpha`; above 0). */
  alpha: { min: 0, max: 1_000_000 },
  /** Folds of the grouped k-fold evaluation: --folds, `k`. */
  folds: { min: 2, max: 20 },
} as const satisfies Record<string, Range>;

/**
 * The texts a request may give, in characters, the same from the CLI (checked as its options are
 * read) and the API (the contract's schemas): a layout, a network, a datasheet GPU's name.
 */
export const TEXT_LIMITS = {
  /** --layout, `layout`: "tp=8,pp=16,dp=4,zero=1,recompute=selective,mb=64,schedule=1f1b" is 63. */
  layout: 200,
  /** --network, `network`: "23.5GB/s@12us" is 13. */
  network: 50,
  /** One --virtual or --gpus entry, `virtual` and `gpus` items: "8x NVIDIA GeForce RTX 4080 SUPER" is 32. */
  gpuName: 100,
} as const;

/**
 * A Hugging Face model folder: its config.json as read from a folder or uploaded (workload:add's
 * hfFolder, in characters), and the safetensors files an upload may name (Llama 3.1 405B has 191
 * shards, DeepSeek-V3 163).
 */
export const HF_FOLDER_LIMITS = {
  /** Real ones are a few KiB (DeepSeek-V3's is 1.7 KiB). */
  configBytes: 1 << 20,
  safetensorsFiles: 4096,
} as const;

/**
 * A value read from a file that should be a number, as a message says what it is instead: `the
 * string "512"`, `the boolean true`, `null`, `a list`, `an object`.
 */
export function describedValue(value: unknown): string {
  if (typeof value === 'string') return `the string ${quoted(value)}`;
  if (typeof value === 'boolean') return `the boolean ${value}`;
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return quoted(value);
}

/**
 * A value's place in its range as one line, or null when it is a whole number inside it. A value
 * of another type is named with its type (`hidden_size must be a number from 1 to 131072, got the
 * string "512"`), a fraction as not whole, a whole number outside as out of range.
 */
export function outOfRange(what: string, value: unknown, range: Range): string | null {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number')
    return `${what} must be a number from ${range.min} to ${range.max}, got ${describedValue(value)}`;
  if (!Number.isInteger(n)) return `${what} must be a whole number from ${range.min} to ${range.max}, got ${n}`;
  if (Number.isSafeInteger(n) && n >= range.min && n <= range.max) return null;
  return `${what} ${String(value)} is out of range (${range.min}..${range.max})`;
}

/**
 * The size of an ONNX graph. Real models stay far below: a 70B decoder exported to ONNX has some
 * 10k nodes and 1k weights; control flow nests a few levels. Nodes are counted, subgraphs
 * included, before any of them is built, so a refused file costs a scan of its tags.
 */
export const ONNX_LIMITS = {
  /** Nodes in the graph and all its subgraphs: a million-node file took 3.9 GB to import. */
  nodes: 200_000,
  /** Initializers (weights and constants) in the graph and all its subgraphs. */
  initializers: 200_000,
  /** Graph inputs, outputs and value_info entries, subgraphs included. */
  valueInfos: 1_000_000,
  /** If/Loop/Scan bodies inside bodies. */
  subgraphDepth: 64,
  /** Any one tensor dimension: 2^40, a thousand times the largest real one. */
  dim: 2 ** 40,
  /**
   * Bytes of the graph without its large weights (names, shapes, attributes, small constants): a
   * 200k-node graph with 200-character names is 47 MB and takes 0.76 GB to import.
   */
  structureBytes: 48 * 2 ** 20,
  /** Elements of one weight or constant: 2^36, 16 times the largest real one (a 262144 x 16384 embedding). */
  tensorElements: 2 ** 36,
} as const;
