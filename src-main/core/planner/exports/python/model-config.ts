/**
 * The decoder the emitted training scripts build (python/decoder-py.ts), from a model's
 * description (a catalog entry, or a Hugging Face config.json read as one): its fields under
 * config.json's names, so that `--config config.json` overrides them one for one. A description
 * the template does not build (mixture of experts, latent attention, encoders, ...) gets a reason
 * instead, and its scripts ask for --config. Pure.
 */
import type { CatalogEntry } from '../../../catalog/schema.js';
import { pythonString } from '../common.js';

/** A decoder as the scripts build it: config.json's field names, plus norm, position and mlp. */
export interface DecoderConfig {
  hidden_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  num_key_value_heads: number;
  head_dim: number;
  intermediate_size: number;
  vocab_size: number;
  max_position_embeddings: number;
  norm: 'rmsnorm' | 'layernorm';
  norm_eps: number;
  position: 'rope' | 'learned';
  rope_theta: number;
  mlp: 'gated' | 'plain';
  hidden_act: 'silu' | 'gelu' | 'gelu_pytorch_tanh';
  qkv_bias: boolean;
  o_bias: boolean;
  mlp_bias: boolean;
  tie_word_embeddings: boolean;
}

/** The model the training scripts build, and how it is named in their comments. */
export interface ExportModel {
  /** Null when the template cannot build it: `why` says so, and the scripts need --config. */
  config: DecoderConfig | null;
  why: string | null;
  /** The model as the user named it (a catalog name, a Hugging Face id or a folder): outside text. */
  name: string;
  /** Tokens per sample. */
  seqLen: number;
  /** What the template builds differently from the description (said in the warnings). */
  notes: string[];
}

/**
 * Defaults for what a catalog description does not carry: RMSNorm's epsilon as Llama 2 and
 * Mistral set it (1e-5; Llama 3 and Qwen use 1e-6), LayerNorm's as GPT-2 does, and rotary base
 * 10000 (Llama 2; Llama 3 uses 500000). `--config config.json` replaces them with the file's.
 */
const RMS_EPS = 1e-5;
const LAYERNORM_EPS = 1e-5;
const ROPE_THETA = 10000;

/** Why the template cannot build this description, or null when it can. */
function refusal(e: CatalogEntry): string | null {
  if (e.kind !== 'transformer') return `${e.kind} models are not decoders`;
  if (e.input !== 'tokens' || e.head !== 'lm' || !e.causal) return 'not a causal language model';
  if (e.normPlacement !== 'pre') return 'post-norm blocks';
  if (e.experts !== undefined) return 'mixture-of-experts blocks';
  if (e.mla !== undefined) return 'multi-head latent attention';
  if (e.sandwichNorm || e.qkNorm || e.embeddingNorm) return 'extra norms (sandwich, query/key or embedding norms)';
  return null;
}

/** The export model of a description: its decoder config, or why there is none. */
export function exportModelOf(e: CatalogEntry, name: string, seqLen: number): ExportModel {
  const why = refusal(e);
  if (why !== null || e.kind !== 'transformer') return { config: null, why, name, seqLen, notes: [] };
  const notes: string[] = [];
  if (e.window !== undefined)
    notes.push(`the script attends over the whole sequence; the model's local layers see ${e.window} tokens`);
  const bias = e.bias;
  const config: DecoderConfig = {
    hidden_size: e.hidden,
    num_hidden_layers: e.layers,
    num_attention_heads: e.heads,
    num_key_value_heads: e.kvHeads ?? e.heads,
    head_dim: e.headDim ?? e.hidden / e.heads,
    intermediate_size: e.ffn,
    vocab_size: e.vocab ?? 0,
    max_position_embeddings: Math.max(e.context ?? seqLen, seqLen),
    norm: e.norm,
    norm_eps: e.norm === 'rmsnorm' ? RMS_EPS : LAYERNORM_EPS,
    position: e.position,
    rope_theta: ROPE_THETA,
    mlp: e.mlp === 'swiglu' ? 'gated' : 'plain',
    hidden_act: e.mlp === 'swiglu' ? (e.gatedAct === 'gelu' ? 'gelu_pytorch_tanh' : 'silu') : 'gelu_pytorch_tanh',
    qkv_bias: bias || e.qkvBias === true,
    o_bias: bias,
    mlp_bias: bias,
    tie_word_embeddings: e.tiedEmbeddings,
  };
  return { config, why: null, name, seqLen, notes };
}

const pyValue = (v: number | string | boolean): string =>
  typeof v === 'boolean' ? (v ? 'True' : 'False') : typeof v === 'string' ? pythonString(v) : String(v);

/** MODEL_CONFIG = {...} (or None), one field a line. */
export function modelConfigPy(config: DecoderConfig | null): string[] {
  if (!config) return ['MODEL_CONFIG = None'];
  return ['MODEL_CONFIG = {', ...Object.entries(config).map(([k, v]) => `    ${pythonString(k)}: ${pyValue(v)},`), '}'];
}
