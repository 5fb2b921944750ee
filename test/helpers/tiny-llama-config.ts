/** A tiny Llama config.json: grouped-query attention (4 heads, 2 key/value heads), SwiGLU, RMSNorm, rotary positions. */
export const TINY_LLAMA_CONFIG = {
  model_type: 'llama',
  architectures: ['LlamaForCausalLM'],
  hidden_size: 64,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  intermediate_size: 128,
  vocab_size: 256,
  max_position_embeddings: 64,
  rms_norm_eps: 1e-6,
  rope_theta: 10000,
  hidden_act: 'silu',
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};
