import type { WeightFormat } from '../workload/generation.js';

/**
 * The serving engines pipeDejavu models, one `as const` table their names and types derive from:
 * each engine's title and the weight formats it loads natively, as its own documentation lists them
 * at the version its launch line names: float checkpoints, fp8 (W8A8 or fp8 weights), int8 (W8A8 /
 * LLM.int8 / weight-only), int4 (AWQ or GPTQ groups of 128; ExLlamaV2's own EXL2 at about 4 bits),
 * and llama.cpp's GGUF block formats (vLLM also reads a GGUF file, experimentally). Each engine's
 * rules are its own file beside this one (`vllm-engine.ts`, `llama-cpp-engine.ts`, ...), and its
 * launch line one in `planner/exports/serving/`. `auto` picks an engine by the weight format;
 * `ideal` is the kernel roofline with no engine around it, kept for comparison. Pure.
 */
export const ENGINES = {
  vllm: { title: 'vLLM', formats: ['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int4', 'q8_0', 'q4_k', 'q4_0'] },
  sglang: { title: 'SGLang', formats: ['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int4'] },
  'tensorrt-llm': { title: 'TensorRT-LLM', formats: ['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int4'] },
  'llama.cpp': { title: 'llama.cpp', formats: ['fp32', 'fp16', 'bf16', 'q8_0', 'q4_k', 'q4_0'] },
  transformers: { title: 'Hugging Face transformers', formats: ['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int4'] },
  tgi: { title: 'Text Generation Inference', formats: ['fp16', 'bf16', 'fp8', 'int8', 'int4'] },
  exllamav2: { title: 'ExLlamaV2', formats: ['fp16', 'bf16', 'int8', 'int4'] },
} as const satisfies Record<string, { title: string; formats: readonly WeightFormat[] }>;

export type EngineName = keyof typeof ENGINES;
export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];

/** What `--engine` takes: an engine, `auto` (by the weight format) or `ideal` (the kernel roofline alone). */
export type EngineChoice = EngineName | 'auto' | 'ideal';
export const ENGINE_CHOICES: readonly [EngineChoice, ...EngineChoice[]] = ['auto', 'ideal', ...ENGINE_NAMES];
