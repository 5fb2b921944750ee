/** Hugging Face config.json contents the tests write, from published hyper-parameters. */

/** meta-llama/Llama-3.1-8B's config.json (the fields a planner reads). */
export const LLAMA_31_8B = {
  architectures: ['LlamaForCausalLM'],
  model_type: 'llama',
  hidden_size: 4096,
  intermediate_size: 14336,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  vocab_size: 128256,
  max_position_embeddings: 131072,
  rms_norm_eps: 1e-5,
  hidden_act: 'silu',
  attention_bias: false,
  mlp_bias: false,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
  head_dim: 128,
};

/** mistralai/Mistral-7B-v0.3's config.json. */
export const MISTRAL_7B_V03 = {
  model_type: 'mistral',
  hidden_size: 4096,
  intermediate_size: 14336,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  head_dim: 128,
  vocab_size: 32768,
  max_position_embeddings: 32768,
  sliding_window: null,
  hidden_act: 'silu',
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

/** mistralai/Mixtral-8x22B-v0.1's config.json. */
export const MIXTRAL_8X22B = {
  model_type: 'mixtral',
  hidden_size: 6144,
  intermediate_size: 16384,
  num_hidden_layers: 56,
  num_attention_heads: 48,
  num_key_value_heads: 8,
  num_local_experts: 8,
  num_experts_per_tok: 2,
  vocab_size: 32768,
  max_position_embeddings: 65536,
  hidden_act: 'silu',
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

/** Qwen/Qwen3-0.6B's config.json: head_dim 128 with hidden 1024 and 16 heads; tied embeddings. */
export const QWEN3_06B = {
  model_type: 'qwen3',
  hidden_size: 1024,
  intermediate_size: 3072,
  num_hidden_layers: 28,
  num_attention_heads: 16,
  num_key_value_heads: 8,
  head_dim: 128,
  vocab_size: 151936,
  max_position_embeddings: 40960,
  attention_bias: false,
  hidden_act: 'silu',
  tie_word_embeddings: true,
  torch_dtype: 'bfloat16',
};

/** Qwen/Qwen3-8B's config.json. */
export const QWEN3_8B = {
  ...QWEN3_06B,
  hidden_size: 4096,
  intermediate_size: 12288,
  num_hidden_layers: 36,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  tie_word_embeddings: false,
};

/** Qwen/Qwen3-30B-A3B's config.json: 128 experts of 768, 8 per token. */
export const QWEN3_30B_A3B = {
  model_type: 'qwen3_moe',
  hidden_size: 2048,
  intermediate_size: 6144,
  moe_intermediate_size: 768,
  num_hidden_layers: 48,
  num_attention_heads: 32,
  num_key_value_heads: 4,
  head_dim: 128,
  num_experts: 128,
  num_experts_per_tok: 8,
  decoder_sparse_step: 1,
  mlp_only_layers: [],
  norm_topk_prob: true,
  vocab_size: 151936,
  max_position_embeddings: 40960,
  hidden_act: 'silu',
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

/** Qwen/Qwen1.5-MoE-A2.7B's config.json: 60 experts of 1408, 4 per token, a 5632-wide gated shared expert. */
export const QWEN15_MOE_A27B = {
  model_type: 'qwen2_moe',
  hidden_size: 2048,
  intermediate_size: 5632,
  moe_intermediate_size: 1408,
  shared_expert_intermediate_size: 5632,
  num_hidden_layers: 24,
  num_attention_heads: 16,
  num_key_value_heads: 16,
  num_experts: 60,
  num_experts_per_tok: 4,
  decoder_sparse_step: 1,
  vocab_size: 151936,
  max_position_embeddings: 8192,
  hidden_act: 'silu',
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

/** Qwen/Qwen2-57B-A14B's config.json. */
export const QWEN2_57B_A14B = {
  ...QWEN15_MOE_A27B,
  hidden_size: 3584,
  intermediate_size: 18944,
  moe_intermediate_size: 2560,
  shared_expert_intermediate_size: 20480,
  num_hidden_layers: 28,
  num_attention_heads: 28,
  num_key_value_heads: 4,
  num_experts: 64,
  num_experts_per_tok: 8,
  max_position_embeddings: 131072,
};

/** google/gemma-2-9b's config.json: local (4096-token window) and global layers alternate. */
export const GEMMA2_9B = {
  model_type: 'gemma2',
  hidden_size: 3584,
  intermediate_size: 14336,
  num_hidden_layers: 42,
  num_attention_heads: 16,
  num_key_value_heads: 8,
  head_dim: 256,
  vocab_size: 256000,
  max_position_embeddings: 8192,
  sliding_window: 4096,
  hidden_activation: 'gelu_pytorch_tanh',
  query_pre_attn_scalar: 256,
  attn_logit_softcapping: 50.0,
  final_logit_softcapping: 30.0,
  torch_dtype: 'float32',
};

/** google/gemma-3-1b-pt's config.json (text only): 5 local (512-token window) : 1 global. */
export const GEMMA3_1B = {
  model_type: 'gemma3_text',
  hidden_size: 1152,
  intermediate_size: 6912,
  num_hidden_layers: 26,
  num_attention_heads: 4,
  num_key_value_heads: 1,
  head_dim: 256,
  vocab_size: 262144,
  max_position_embeddings: 32768,
  sliding_window: 512,
  sliding_window_pattern: 6,
  hidden_activation: 'gelu_pytorch_tanh',
  query_pre_attn_scalar: 256,
  torch_dtype: 'bfloat16',
};

/** google/gemma-3-12b-pt's config.json: vision and text; its text_config leaves the class defaults out (vocab 262208, head_dim 256). */
export const GEMMA3_12B = {
  architectures: ['Gemma3ForConditionalGeneration'],
  model_type: 'gemma3',
  mm_tokens_per_image: 256,
  text_config: {
    model_type: 'gemma3_text',
    hidden_size: 3840,
    intermediate_size: 15360,
    num_hidden_layers: 48,
    num_attention_heads: 16,
    num_key_value_heads: 8,
    rope_scaling: { factor: 8.0, rope_type: 'linear' },
    sliding_window: 1024,
  },
  vision_config: { model_type: 'siglip_vision_model', hidden_size: 1152, num_hidden_layers: 27 },
  torch_dtype: 'bfloat16',
};

/** microsoft/Phi-3-mini-4k-instruct's config.json. */
export const PHI3_MINI_4K = {
  model_type: 'phi3',
  hidden_size: 3072,
  intermediate_size: 8192,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 32,
  vocab_size: 32064,
  max_position_embeddings: 4096,
  sliding_window: 2047,
  hidden_act: 'silu',
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

/** microsoft/phi-4's config.json (model_type phi3). */
export const PHI4 = {
  ...PHI3_MINI_4K,
  hidden_size: 5120,
  intermediate_size: 17920,
  num_hidden_layers: 40,
  num_attention_heads: 40,
  num_key_value_heads: 10,
  vocab_size: 100352,
  max_position_embeddings: 16384,
  sliding_window: null,
};

/** deepseek-ai/DeepSeek-V2-Lite's config.json: no query bottleneck (q_lora_rank null), 1 dense layer. */
export const DEEPSEEK_V2_LITE = {
  model_type: 'deepseek_v2',
  hidden_size: 2048,
  intermediate_size: 10944,
  moe_intermediate_size: 1408,
  num_hidden_layers: 27,
  num_attention_heads: 16,
  num_key_value_heads: 16,
  n_shared_experts: 2,
  n_routed_experts: 64,
  num_experts_per_tok: 6,
  first_k_dense_replace: 1,
  moe_layer_freq: 1,
  q_lora_rank: null,
  kv_lora_rank: 512,
  qk_nope_head_dim: 128,
  qk_rope_head_dim: 64,
  v_head_dim: 128,
  vocab_size: 102400,
  max_position_embeddings: 163840,
  hidden_act: 'silu',
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

/** deepseek-ai/DeepSeek-V3's config.json: 3 dense layers, 256 routed experts (8 per token) and 1 shared. */
export const DEEPSEEK_V3 = {
  model_type: 'deepseek_v3',
  hidden_size: 7168,
  intermediate_size: 18432,
  moe_intermediate_size: 2048,
  num_hidden_layers: 61,
  num_nextn_predict_layers: 1,
  num_attention_heads: 128,
  num_key_value_heads: 128,
  n_shared_experts: 1,
  n_routed_experts: 256,
  num_experts_per_tok: 8,
  first_k_dense_replace: 3,
  moe_layer_freq: 1,
  q_lora_rank: 1536,
  kv_lora_rank: 512,
  qk_nope_head_dim: 128,
  qk_rope_head_dim: 64,
  v_head_dim: 128,
  topk_method: 'noaux_tc',
  vocab_size: 129280,
  max_position_embeddings: 163840,
  hidden_act: 'silu',
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

/** A two-layer Llama of `hidden` width (4 heads): its parameter count tells which config.json was read. */
export const tinyLlama = (hidden: number): typeof LLAMA_31_8B => ({
  ...LLAMA_31_8B,
  hidden_size: hidden,
  intermediate_size: hidden * 2,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 4,
  head_dim: hidden / 4,
  vocab_size: 1000,
});
