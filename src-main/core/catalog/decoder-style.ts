/**
 * Block layouts that several architectures share, as catalog entry fields, so that each reader
 * (Hugging Face config.json, GGUF header) states only what its architecture does differently. Pure.
 */
import type { TransformerEntry } from './schema.js';

/** A causal language model: pre-norm blocks, a final norm, an LM head, no embedding norm. */
export const CAUSAL_LM = {
  normPlacement: 'pre',
  embeddingNorm: false,
  finalNorm: true,
  head: 'lm',
  causal: true,
} as const satisfies Partial<TransformerEntry>;

/**
 * Llama's layout, which Mistral, Qwen, Gemma, DeepSeek and GGUF decoders keep: a causal LM with
 * RMSNorm, SwiGLU, rotary positions, no biases, no dropout; a context past the trained one warns.
 */
export const LLAMA_STYLE = {
  ...CAUSAL_LM,
  contextPolicy: 'warn',
  norm: 'rmsnorm',
  mlp: 'swiglu',
  bias: false,
  position: 'rope',
  dropout: false,
} as const satisfies Partial<TransformerEntry>;
