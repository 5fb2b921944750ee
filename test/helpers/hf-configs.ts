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
