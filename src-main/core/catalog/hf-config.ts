/**
 * A model's architecture from its Hugging Face `config.json`, as a catalog entry: the planner and
 * the generation model then treat a model folder like a catalog model. Only the hyper-parameters
 * are read; no weights. Pure.
 *
 * Architectures (model_type) the transformer block of transformer.ts describes exactly, so that
 * the parameters equal the checkpoint's tensor elements: llama, mistral, mixtral (routed SwiGLU
 * experts), qwen2 (Q/K/V biases), qwen3 (head_dim, per-head Q/K RMSNorms), qwen2_moe (shared
 * expert with a sigmoid gate) and qwen3_moe (sparse step, mlp_only_layers), phi3 (Phi-3 and
 * Phi-4: its fused qkv_proj and gate_up_proj hold what separate ones would), gemma2, gemma3_text
 * and gemma3 (the language model of its text_config; four norms per block, GeGLU, tied
 * embeddings, sliding-window layers with their local/global pattern), deepseek_v2 and deepseek_v3
 * (multi-head latent attention, dense first layers, shared and routed experts; V3's router bias;
 * the main model without the multi-token-prediction layers), gpt2, gpt_neox (its parallel
 * attention and MLP are planned as sequential: same parameters and FLOPs), bert and roberta (with
 * the pooler, as BertModel/RobertaModel). Field names after transformers' configuration_*.py.
 */
import { quoted } from '../text/shown.js';
import { UserError } from '../errors.js';
import { HYPERPARAMETER_RANGES as R, outOfRange, type Range } from '../workload/limits.js';
import { TransformerEntrySchema, type CatalogEntry, type TransformerEntry } from './schema.js';
import { CAUSAL_LM, LLAMA_STYLE } from './decoder-style.js';
import { defaultSequence } from './default-sequence.js';

export type HfConfig = Readonly<Record<string, unknown>>;

export interface HfDecoder {
  entry: CatalogEntry;
  warnings: string[];
}

type Fields = Omit<TransformerEntry, 'name' | 'title' | 'config' | 'reportedParams' | 'defaults' | 'kind' | 'input'>;

/** Reads one field of the config; every refusal is one line naming the field. */
class ConfigReader {
  constructor(
    private readonly cfg: HfConfig,
    private readonly file: string,
    /** Where the fields sit in config.json: '' (top level) or 'text_config.' (Gemma 3). */
    private readonly prefix = '',
  ) {}

  fail(message: string): never {
    throw new UserError(`${this.file}: ${message}`);
  }

  /** The reader of a nested object (Gemma 3's text_config); a refusal when it is not one. */
  nested(key: string): ConfigReader {
    const v = this.cfg[key];
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      this.fail(`config.json has no ${this.prefix}${key} object (the language model's fields)`);
    return new ConfigReader(v as HfConfig, this.file, `${this.prefix}${key}.`);
  }

  /** A whole number inside its range; missing: the default, or a refusal when none is given. */
  count(key: string, range: Range, fallback?: number): number {
    const v = this.cfg[key];
    if (v === undefined || v === null) {
      if (fallback !== undefined) return fallback;
      this.fail(`config.json has no ${this.prefix}${key} (a whole number from ${range.min} to ${range.max})`);
    }
    const why = outOfRange(`config.json ${this.prefix}${key}`, v, range);
    if (why !== null) this.fail(why);
    return v as number;
  }

  /** A whole number inside its range, or undefined when the field is missing or null. */
  optionalCount(key: string, range: Range): number | undefined {
    const v = this.cfg[key];
    return v === undefined || v === null ? undefined : this.count(key, range);
  }

  /** A list of whole numbers inside a range (Qwen's mlp_only_layers); missing: empty. */
  counts(key: string, range: Range): number[] {
    const v = this.cfg[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) this.fail(`config.json ${this.prefix}${key} must be a list of layer indices`);
    return v.map((x: unknown) => {
      const why = outOfRange(`config.json ${this.prefix}${key} entry`, x, range);
      if (why !== null) this.fail(why);
      return x as number;
    });
  }

  /** A list of strings, each one of `allowed` (Gemma 3's layer_types); undefined when missing. */
  texts(key: string, allowed: readonly string[]): string[] | undefined {
    const v = this.cfg[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && allowed.includes(x)))
      this.fail(`config.json ${this.prefix}${key} must be a list of ${allowed.join(' or ')}`);
    return v as string[];
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.cfg[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean')
      this.fail(`config.json ${this.prefix}${key} must be true or false, got ${JSON.stringify(v)}`);
    return v;
  }

  text(key: string): string | undefined {
    const v = this.cfg[key];
    return typeof v === 'string' ? v : undefined;
  }
}

const GATED_ACTS = ['silu', 'swish'];
const GELU_ACTS = ['gelu', 'gelu_new', 'gelu_pytorch_tanh', 'gelu_fast', 'quick_gelu'];

/** The hidden size must split evenly over the heads (architectures without head_dim). */
function checkHeadDim(r: ConfigReader, hidden: number, heads: number): void {
  if (hidden % heads !== 0) r.fail(`config.json num_attention_heads ${heads} does not divide hidden_size ${hidden}`);
}

/**
 * The head width: head_dim when given (Qwen3 and Gemma differ from hidden / heads), else the
 * architecture's default (Gemma's 256, whatever hidden / heads), else hidden / heads; only a width
 * other than hidden / heads is stored in the entry.
 */
function readHeadDim(r: ConfigReader, hidden: number, heads: number, fallback?: number): { headDim?: number } {
  const even = hidden % heads === 0 ? hidden / heads : undefined;
  const given = r.optionalCount('head_dim', { min: 1, max: R.hidden.max });
  const headDim = given ?? fallback ?? even;
  if (headDim === undefined)
    r.fail(`config.json num_attention_heads ${heads} does not divide hidden_size ${hidden} and there is no head_dim`);
  return headDim === even ? {} : { headDim };
}

/** Grouped-query key/value heads: num_key_value_heads (default: one per head), dividing the heads. */
function readKvHeads(r: ConfigReader, heads: number): number {
  const kvHeads = r.count('num_key_value_heads', { min: 1, max: heads }, heads);
  if (heads % kvHeads !== 0)
    r.fail(`config.json num_key_value_heads ${kvHeads} does not divide num_attention_heads ${heads}`);
  return kvHeads;
}

function checkAct(r: ConfigReader, key: string, allowed: readonly string[], fallback: string): void {
  const act = r.text(key) ?? fallback;
  if (!allowed.includes(act))
    r.fail(`config.json ${key} ${quoted(act)} is not supported here (supported: ${allowed.join(', ')})`);
}

type MoeFields = Pick<
  Fields,
  'ffn' | 'experts' | 'topK' | 'moeEvery' | 'denseLayerList' | 'denseFfn' | 'sharedFfn' | 'sharedGate'
>;

/** Mixtral's experts: every layer routed, experts intermediate_size wide. */
function mixtralExperts(r: ConfigReader): MoeFields {
  const experts = r.count('num_local_experts', R.experts);
  return {
    ffn: r.count('intermediate_size', R.ffn),
    experts,
    topK: r.count('num_experts_per_tok', { min: 1, max: experts }),
  };
}

/**
 * Qwen2-MoE and Qwen3-MoE: num_experts of moe_intermediate_size, routed every
 * decoder_sparse_step-th layer except mlp_only_layers (dense, intermediate_size); Qwen2-MoE adds a
 * shared expert of shared_expert_intermediate_size behind a sigmoid gate.
 */
function qwenExperts(r: ConfigReader, type: string, layers: number): MoeFields {
  const experts = r.count('num_experts', R.experts);
  const step = r.count('decoder_sparse_step', { min: 1, max: layers }, 1);
  const denseList = r.counts('mlp_only_layers', { min: 0, max: layers - 1 });
  const shared =
    type === 'qwen2_moe' ? { sharedFfn: r.count('shared_expert_intermediate_size', R.ffn), sharedGate: true } : {};
  return {
    ffn: r.count('moe_intermediate_size', R.ffn),
    experts,
    topK: r.count('num_experts_per_tok', { min: 1, max: experts }),
    ...(step !== 1 ? { moeEvery: step } : {}),
    ...(denseList.length > 0 ? { denseLayerList: denseList } : {}),
    denseFfn: r.count('intermediate_size', R.ffn),
    ...shared,
  };
}

function llamaMlp(r: ConfigReader, type: string, layers: number): MoeFields {
  if (type === 'mixtral') return mixtralExperts(r);
  if (type === 'qwen2_moe' || type === 'qwen3_moe') return qwenExperts(r, type, layers);
  return { ffn: r.count('intermediate_size', R.ffn) };
}

/**
 * Llama, Mistral, Mixtral, Qwen2/Qwen3 (dense and MoE) and Phi-3/Phi-4: pre-RMSNorm, rotary,
 * SwiGLU, grouped-query attention.
 */
function llamaLike(r: ConfigReader, type: string): Fields {
  const hidden = r.count('hidden_size', R.hidden);
  const heads = r.count('num_attention_heads', R.heads);
  const layers = r.count('num_hidden_layers', R.layers);
  const headDim = readHeadDim(r, hidden, heads);
  const kvHeads = readKvHeads(r, heads);
  checkAct(r, 'hidden_act', GATED_ACTS, 'silu');
  const attentionBias = r.bool('attention_bias', false);
  const mlpBias = r.bool('mlp_bias', false);
  if (attentionBias !== mlpBias)
    r.fail(
      `config.json attention_bias ${attentionBias} with mlp_bias ${mlpBias} is not supported; both true or both false`,
    );
  return {
    layers,
    hidden,
    heads,
    kvHeads,
    ...headDim,
    ...(type === 'qwen3' || type === 'qwen3_moe' ? { qkNorm: true } : {}),
    ...llamaMlp(r, type, layers),
    vocab: r.count('vocab_size', R.vocab),
    context: r.count('max_position_embeddings', R.context),
    ...LLAMA_STYLE,
    bias: attentionBias,
    ...(type === 'qwen2' || type === 'qwen2_moe' ? { qkvBias: true } : {}),
    tiedEmbeddings: r.bool('tie_word_embeddings', false),
  };
}

const GEMMA_LAYER_TYPES = ['sliding_attention', 'full_attention'];

/** Gemma 2's and Gemma 3's local/global layers: alternating (Gemma 2), or sliding_window_pattern / layer_types (Gemma 3). */
function gemmaWindows(
  r: ConfigReader,
  type: string,
  layers: number,
): Pick<Fields, 'window' | 'localPattern' | 'layerTypes'> {
  const window = r.count('sliding_window', R.context, 4096);
  const types = r.texts('layer_types', GEMMA_LAYER_TYPES);
  if (types !== undefined) {
    if (types.length !== layers)
      r.fail(`config.json layer_types has ${types.length} entries; it needs one per layer (${layers})`);
    return { window, layerTypes: types.map((t) => (t === 'sliding_attention' ? 'local' : 'global')) };
  }
  const pattern = type === 'gemma2' ? 2 : r.count('sliding_window_pattern', { min: 1, max: layers }, 6);
  return { window, localPattern: pattern };
}

/**
 * Gemma 2 and Gemma 3 (text): pre- and post-norms around attention and the MLP, GeGLU
 * (gelu_pytorch_tanh), tied embeddings, head_dim 256 by default, sliding-window layers; Gemma 3
 * adds per-head Q/K RMSNorms. Defaults are the configuration classes' (Gemma 3's published
 * text_config leaves vocab_size, head_dim and the window pattern out).
 */
function gemma(r: ConfigReader, type: string): Fields {
  const hidden = r.count('hidden_size', R.hidden);
  const heads = r.count('num_attention_heads', R.heads);
  const layers = r.count('num_hidden_layers', R.layers);
  const gemma3 = type !== 'gemma2';
  checkAct(
    r,
    r.text('hidden_activation') !== undefined ? 'hidden_activation' : 'hidden_act',
    GELU_ACTS,
    'gelu_pytorch_tanh',
  );
  const bias = r.bool('attention_bias', false);
  if (bias) r.fail('config.json attention_bias true is not supported for Gemma (its projections have no biases)');
  return {
    layers,
    hidden,
    heads,
    kvHeads: readKvHeads(r, heads),
    ...readHeadDim(r, hidden, heads, 256),
    ...(gemma3 ? { qkNorm: true } : {}),
    ...gemmaWindows(r, type, layers),
    sandwichNorm: true,
    ffn: r.count('intermediate_size', R.ffn),
    gatedAct: 'gelu',
    vocab: r.count('vocab_size', R.vocab, gemma3 ? 262_208 : 256_000),
    context: r.count('max_position_embeddings', R.context, gemma3 ? 131_072 : 8192),
    ...LLAMA_STYLE,
    tiedEmbeddings: r.bool('tie_word_embeddings', true),
  };
}

/** Gemma 3 with vision: the language model of its text_config (a warning says the vision tower is left out). */
function gemma3Multimodal(r: ConfigReader, _type: string, warnings: string[]): Fields {
  warnings.push(
    "Gemma 3's vision tower and projector are not planned: the language model of text_config is (text in, text out)",
  );
  return gemma(r.nested('text_config'), 'gemma3_text');
}

/**
 * DeepSeek-V2 and V3: multi-head latent attention (q_lora_rank may be null: one q_proj), the first
 * first_k_dense_replace layers dense (intermediate_size), then n_routed_experts of
 * moe_intermediate_size with n_shared_experts shared ones as one SwiGLU; V3's router carries
 * e_score_correction_bias. The multi-token-prediction layers (num_nextn_predict_layers) are not
 * part of the main model and are not planned.
 */
function deepseek(r: ConfigReader, type: string, warnings: string[]): Fields {
  const hidden = r.count('hidden_size', R.hidden);
  const heads = r.count('num_attention_heads', R.heads);
  const layers = r.count('num_hidden_layers', R.layers);
  checkAct(r, 'hidden_act', GATED_ACTS, 'silu');
  if (r.bool('attention_bias', false)) r.fail('config.json attention_bias true is not supported for DeepSeek');
  const width = { min: 1, max: R.hidden.max };
  const qLoraRank = r.optionalCount('q_lora_rank', width);
  const experts = r.count('n_routed_experts', R.experts);
  const freq = r.count('moe_layer_freq', { min: 1, max: layers }, 1);
  if (freq !== 1)
    r.fail(`config.json moe_layer_freq ${freq} is not supported; only 1 (every layer after the dense ones)`);
  const moeFfn = r.count('moe_intermediate_size', R.ffn);
  const shared = r.count('n_shared_experts', { min: 0, max: R.experts.max }, 0);
  const mtp = r.count('num_nextn_predict_layers', { min: 0, max: R.layers.max }, 0);
  if (mtp > 0)
    warnings.push(
      `DeepSeek's ${mtp} multi-token-prediction layer${mtp === 1 ? ' is' : 's are'} not planned: the main model is (num_nextn_predict_layers)`,
    );
  return {
    layers,
    hidden,
    heads,
    mla: {
      ...(qLoraRank !== undefined ? { qLoraRank } : {}),
      kvLoraRank: r.count('kv_lora_rank', width),
      qkNopeHeadDim: r.count('qk_nope_head_dim', width),
      qkRopeHeadDim: r.count('qk_rope_head_dim', width),
      vHeadDim: r.count('v_head_dim', width),
    },
    ffn: moeFfn,
    experts,
    topK: r.count('num_experts_per_tok', { min: 1, max: experts }),
    denseLayers: r.count('first_k_dense_replace', { min: 0, max: layers }, 0),
    denseFfn: r.count('intermediate_size', R.ffn),
    ...(shared > 0 ? { sharedFfn: shared * moeFfn } : {}),
    ...(type === 'deepseek_v3' ? { routerBias: true } : {}),
    vocab: r.count('vocab_size', R.vocab),
    context: r.count('max_position_embeddings', R.context),
    ...LLAMA_STYLE,
    tiedEmbeddings: r.bool('tie_word_embeddings', false),
  };
}

function gpt2(r: ConfigReader): Fields {
  const hidden = r.count('n_embd', R.hidden);
  const heads = r.count('n_head', R.heads);
  if (hidden % heads !== 0) r.fail(`config.json n_head ${heads} does not divide n_embd ${hidden}`);
  checkAct(r, 'activation_function', GELU_ACTS, 'gelu_new');
  return {
    layers: r.count('n_layer', R.layers),
    hidden,
    heads,
    ffn: r.count('n_inner', R.ffn, 4 * hidden),
    vocab: r.count('vocab_size', R.vocab),
    context: r.count('n_positions', R.context),
    ...CAUSAL_LM,
    contextPolicy: 'error',
    norm: 'layernorm',
    mlp: 'gelu',
    bias: true,
    position: 'learned',
    tiedEmbeddings: r.bool('tie_word_embeddings', true),
    dropout: true,
  };
}

/** The sizes GPT-NeoX and BERT name alike: GELU, heads that divide hidden_size. */
function geluSizes(r: ConfigReader): Pick<Fields, 'layers' | 'hidden' | 'heads' | 'ffn' | 'vocab'> {
  const hidden = r.count('hidden_size', R.hidden);
  const heads = r.count('num_attention_heads', R.heads);
  checkHeadDim(r, hidden, heads);
  checkAct(r, 'hidden_act', GELU_ACTS, 'gelu');
  return {
    layers: r.count('num_hidden_layers', R.layers),
    hidden,
    heads,
    ffn: r.count('intermediate_size', R.ffn),
    vocab: r.count('vocab_size', R.vocab),
  };
}

function gptNeox(r: ConfigReader): Fields {
  return {
    ...geluSizes(r),
    context: r.count('max_position_embeddings', R.context),
    ...CAUSAL_LM,
    contextPolicy: 'warn',
    norm: 'layernorm',
    mlp: 'gelu',
    bias: r.bool('attention_bias', true),
    position: 'rope',
    tiedEmbeddings: r.bool('tie_word_embeddings', false),
    dropout: false,
  };
}

function bert(r: ConfigReader): Fields {
  return {
    ...geluSizes(r),
    typeVocab: r.count('type_vocab_size', { min: 1, max: R.vocab.max }, 2),
    context: r.count('max_position_embeddings', R.context),
    contextPolicy: 'error',
    norm: 'layernorm',
    normPlacement: 'post',
    embeddingNorm: true,
    finalNorm: false,
    mlp: 'gelu',
    bias: true,
    position: 'learned',
    tiedEmbeddings: false,
    head: 'pooler',
    causal: false,
    dropout: true,
  };
}

const ARCHITECTURES: Readonly<Record<string, (r: ConfigReader, type: string, warnings: string[]) => Fields>> = {
  llama: llamaLike,
  mistral: llamaLike,
  mixtral: llamaLike,
  qwen2: llamaLike,
  qwen2_moe: llamaLike,
  qwen3: llamaLike,
  qwen3_moe: llamaLike,
  phi3: llamaLike,
  gemma2: gemma,
  gemma3_text: gemma,
  gemma3: gemma3Multimodal,
  deepseek_v2: deepseek,
  deepseek_v3: deepseek,
  gpt2,
  gpt_neox: gptNeox,
  bert,
  roberta: bert,
};

/** The model types config.json may name. */
const HF_MODEL_TYPES: readonly string[] = Object.keys(ARCHITECTURES);

const DTYPES: Readonly<Record<string, 'fp32' | 'fp16' | 'bf16'>> = {
  float32: 'fp32',
  float16: 'fp16',
  bfloat16: 'bf16',
};

/** The stored dtype (torch_dtype, or dtype in newer transformers); absent or another: bf16 for decoders, fp32 otherwise. */
function defaultDtype(r: ConfigReader, fields: Fields): 'fp32' | 'fp16' | 'bf16' {
  const named = r.text('torch_dtype') ?? r.text('dtype');
  return (named !== undefined ? DTYPES[named] : undefined) ?? (fields.position === 'rope' ? 'bf16' : 'fp32');
}

/**
 * The model a config.json describes; one line (UserError) for an unknown model_type, a missing
 * field or a size outside HYPERPARAMETER_RANGES. `name` is the folder's (a user's text: data).
 */
export function hfConfigDecoder(cfg: unknown, file: string, name: string): HfDecoder {
  if (typeof cfg !== 'object' || cfg === null || Array.isArray(cfg))
    throw new UserError(`${file}: config.json must hold a JSON object`);
  const r: ConfigReader = new ConfigReader(cfg as HfConfig, file);
  const type = r.text('model_type');
  const build = type !== undefined && Object.hasOwn(ARCHITECTURES, type) ? ARCHITECTURES[type] : undefined;
  if (type === undefined || !build)
    r.fail(
      `config.json model_type ${type === undefined ? 'is missing' : quoted(type)}${type === undefined ? '' : ' is not supported'}; supported: ${HF_MODEL_TYPES.join(', ')}`,
    );
  const notes: string[] = [];
  const fields = build(r, type, notes);
  const context = fields.context as number;
  // The schema's name pattern is for catalog files: the folder's name (data) replaces it after.
  const candidate = {
    name: 'model',
    title: name,
    config: `${file} (config.json)`,
    reportedParams: 1,
    defaults: {
      batch: 1,
      seq: defaultSequence(context, fields.causal === true),
      dtype: defaultDtype(r, fields),
    },
    kind: 'transformer' as const,
    input: 'tokens' as const,
    ...fields,
  };
  const parsed = TransformerEntrySchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    r.fail(`config.json: ${issue?.path.map(String).join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  const warnings = notes.map((note) => `${file}: ${note}`);
  if (type === 'gpt_neox' && r.bool('use_parallel_residual', true))
    warnings.push(
      `${file}: GPT-NeoX's parallel attention and MLP are planned one after the other (same parameters and FLOPs)`,
    );
  return { entry: { ...parsed.data, name, family: `config.json ${type}`, sources: [file] }, warnings };
}
