/**
 * The serving engines pipeDejavu models, one `as const` table their names and types derive from.
 * Each engine's rules are its own file beside this one (`vllm-engine.ts`, `llama-cpp-engine.ts`,
 * ...). `auto` picks an engine by the weight format; `ideal` is the kernel roofline with no engine
 * around it, kept for comparison. Pure.
 */
export const ENGINES = {
  vllm: { title: 'vLLM' },
  sglang: { title: 'SGLang' },
  'tensorrt-llm': { title: 'TensorRT-LLM' },
  'llama.cpp': { title: 'llama.cpp' },
  transformers: { title: 'Hugging Face transformers' },
  tgi: { title: 'Text Generation Inference' },
  exllamav2: { title: 'ExLlamaV2' },
} as const;

export type EngineName = keyof typeof ENGINES;
export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];

/** What `--engine` takes: an engine, `auto` (by the weight format) or `ideal` (the kernel roofline alone). */
export type EngineChoice = EngineName | 'auto' | 'ideal';
export const ENGINE_CHOICES: readonly [EngineChoice, ...EngineChoice[]] = ['auto', 'ideal', ...ENGINE_NAMES];
