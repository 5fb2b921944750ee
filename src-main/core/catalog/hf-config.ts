/**
 * A model's architecture from its Hugging Face `config.json`, as a catalog entry: the planner and
 * the generation model then treat a model folder like a catalog model. Only the hyper-parameters
 * are read; no weights. Pure.
 *
 * Architectures (model_type) the transformer block of transformer.ts describes exactly: llama,
 * mistral, mixtral (dense and routed SwiGLU experts), qwen2 (Q/K/V biases), gpt2, gpt_neox
 * (its parallel attention and MLP are planned as sequential: same parameters and FLOPs), bert and
 * roberta (with the pooler, as BertModel/RobertaModel). qwen3 is read as qwen2 without Q/K/V
 * biases: its per-head Q and K RMSNorms (2 x head_dim weights per layer) are not counted, said in
 * a warning. Field names after transformers' configuration_*.py.
 */
import { UserError } from '../errors.js';
import { HYPERPARAMETER_RANGES as R, outOfRange, type Range } from '../workload/limits.js';
import { TransformerEntrySchema, type CatalogEntry, type TransformerEntry } from './schema.js';

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
  ) {}

  fail(message: string): never {
    throw new UserError(`${this.file}: ${message}`);
  }

  /** A whole number inside its range; missing: the default, or a refusal when none is given. */
  count(key: string, range: Range, fallback?: number): number {
    const v = this.cfg[key];
    if (v === undefined || v === null) {
      if (fallback !== undefined) return fallback;
      this.fail(`config.json has no ${key} (a whole number from ${range.min} to ${range.max})`);
    }
    const why = outOfRange(`config.json ${key}`, v, range);
    if (why !== null) this.fail(why);
    return v as number;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.cfg[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') this.fail(`config.json ${key} must be true or false, got ${JSON.stringify(v)}`);
    return v;
  }

  text(key: string): string | undefined {
    const v = this.cfg[key];
    return typeof v === 'string' ? v : undefined;
  }
}

const GATED_ACTS = ['silu', 'swish'];
const GELU_ACTS = ['gelu', 'gelu_new', 'gelu_pytorch_tanh', 'gelu_fast', 'quick_gelu'];

/** The head width the config gives, when it differs from hidden / heads: the block cannot take it. */
function checkHeadDim(r: ConfigReader, hidden: number, heads: number): void {
  if (hidden % heads !== 0) r.fail(`config.json num_attention_heads ${heads} does not divide hidden_size ${hidden}`);
  const headDim = r.count('head_dim', { min: 1, max: R.hidden.max }, hidden / heads);
  if (headDim !== hidden / heads)
    r.fail(
      `config.json head_dim ${headDim} differs from hidden_size / num_attention_heads (${hidden / heads}); only head_dim = hidden_size / num_attention_heads is supported`,
    );
}

function checkAct(r: ConfigReader, key: string, allowed: readonly string[], fallback: string): void {
  const act = r.text(key) ?? fallback;
  if (!allowed.includes(act))
    r.fail(`config.json ${key} "${act}" is not supported here (supported: ${allowed.join(', ')})`);
}

/** Llama, Mistral, Mixtral, Qwen2 and Qwen3: pre-RMSNorm, rotary, SwiGLU, grouped-query attention. */
function llamaLike(r: ConfigReader, type: string): Fields {
  const hidden = r.count('hidden_size', R.hidden);
  const heads = r.count('num_attention_heads', R.heads);
  checkHeadDim(r, hidden, heads);
  const kvHeads = r.count('num_key_value_heads', { min: 1, max: heads }, heads);
  if (heads % kvHeads !== 0)
    r.fail(`config.json num_key_value_heads ${kvHeads} does not divide num_attention_heads ${heads}`);
  checkAct(r, 'hidden_act', GATED_ACTS, 'silu');
  const attentionBias = r.bool('attention_bias', false);
  const mlpBias = r.bool('mlp_bias', false);
  if (attentionBias !== mlpBias)
    r.fail(
      `config.json attention_bias ${attentionBias} with mlp_bias ${mlpBias} is not supported; both true or both false`,
    );
  const experts = type === 'mixtral' ? r.count('num_local_experts', R.experts) : undefined;
  const moe = experts !== undefined ? { experts, topK: r.count('num_experts_per_tok', { min: 1, max: experts }) } : {};
  return {
    layers: r.count('num_hidden_layers', R.layers),
    hidden,
    heads,
    kvHeads,
    ffn: r.count('intermediate_size', R.ffn),
    ...moe,
    vocab: r.count('vocab_size', R.vocab),
    context: r.count('max_position_embeddings', R.context),
    contextPolicy: 'warn',
    norm: 'rmsnorm',
    normPlacement: 'pre',
    embeddingNorm: false,
    finalNorm: true,
    mlp: 'swiglu',
    bias: attentionBias,
    ...(type === 'qwen2' ? { qkvBias: true } : {}),
    position: 'rope',
    tiedEmbeddings: r.bool('tie_word_embeddings', false),
    head: 'lm',
    causal: true,
    dropout: false,
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
    contextPolicy: 'error',
    norm: 'layernorm',
    normPlacement: 'pre',
    embeddingNorm: false,
    finalNorm: true,
    mlp: 'gelu',
    bias: true,
    position: 'learned',
    tiedEmbeddings: r.bool('tie_word_embeddings', true),
    head: 'lm',
    causal: true,
    dropout: true,
  };
}

function gptNeox(r: ConfigReader): Fields {
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
    context: r.count('max_position_embeddings', R.context),
    contextPolicy: 'warn',
    norm: 'layernorm',
    normPlacement: 'pre',
    embeddingNorm: false,
    finalNorm: true,
    mlp: 'gelu',
    bias: r.bool('attention_bias', true),
    position: 'rope',
    tiedEmbeddings: r.bool('tie_word_embeddings', false),
    head: 'lm',
    causal: true,
    dropout: false,
  };
}

function bert(r: ConfigReader): Fields {
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

const ARCHITECTURES: Readonly<Record<string, (r: ConfigReader, type: string) => Fields>> = {
  llama: llamaLike,
  mistral: llamaLike,
  mixtral: llamaLike,
  qwen2: llamaLike,
  qwen3: llamaLike,
  gpt2,
  gpt_neox: gptNeox,
  bert,
  roberta: bert,
};

/** The model types config.json may name. */
export const HF_MODEL_TYPES: readonly string[] = Object.keys(ARCHITECTURES);

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
      `config.json model_type ${type === undefined ? 'is missing' : JSON.stringify(type)}${type === undefined ? '' : ' is not supported'}; supported: ${HF_MODEL_TYPES.join(', ')}`,
    );
  const fields = build(r, type);
  const context = fields.context as number;
  // The schema's name pattern is for catalog files: the folder's name (data) replaces it after.
  const candidate = {
    name: 'model',
    title: name,
    config: `${file} (config.json)`,
    reportedParams: 1,
    defaults: {
      batch: 1,
      seq: Math.min(fields.causal ? 4096 : 128, context),
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
  const warnings: string[] = [];
  if (type === 'qwen3')
    warnings.push(
      `${file}: Qwen3's per-head Q and K RMSNorms (2 x ${fields.hidden / fields.heads} weights per layer) are not counted`,
    );
  if (type === 'gpt_neox' && r.bool('use_parallel_residual', true))
    warnings.push(
      `${file}: GPT-NeoX's parallel attention and MLP are planned one after the other (same parameters and FLOPs)`,
    );
  return { entry: { ...parsed.data, name, family: `config.json ${type}`, sources: [file] }, warnings };
}
