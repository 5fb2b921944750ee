/**
 * Which weight formats each engine loads, and how `--engine auto` picks an engine: one table,
 * read by the plan's checks, the launch lines and the app. A format an engine cannot load is
 * refused in one line naming the engines that can. Pure.
 */
import { UserError } from '../errors.js';
import type { WeightFormat } from '../workload/generation.js';
import { ENGINE_NAMES, ENGINES, type EngineChoice, type EngineName } from './engine-names.js';

/**
 * Formats each engine loads natively, as its own documentation lists them at the version its launch
 * line names: float checkpoints, fp8 (W8A8 or fp8 weights), int8 (W8A8 / LLM.int8 / weight-only),
 * int4 (AWQ or GPTQ groups of 128; ExLlamaV2's own EXL2 at about 4 bits), and llama.cpp's GGUF
 * block formats. vLLM also reads a GGUF file, experimentally.
 */
export const ENGINE_FORMATS = {
  vllm: ['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int4', 'q8_0', 'q4_k', 'q4_0'],
  sglang: ['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int4'],
  'tensorrt-llm': ['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int4'],
  'llama.cpp': ['fp32', 'fp16', 'bf16', 'q8_0', 'q4_k', 'q4_0'],
  transformers: ['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int4'],
  tgi: ['fp16', 'bf16', 'fp8', 'int8', 'int4'],
  exllamav2: ['fp16', 'bf16', 'int8', 'int4'],
} as const satisfies Record<EngineName, readonly WeightFormat[]>;

/** The engines that load a format, in the table's order. */
function enginesLoading(format: WeightFormat): EngineName[] {
  return ENGINE_NAMES.filter((e) => (ENGINE_FORMATS[e] as readonly WeightFormat[]).includes(format));
}

const GGUF_FORMATS: readonly WeightFormat[] = ['q8_0', 'q4_k', 'q4_0'];

/**
 * The engine a plan is priced for: the one asked, or for `auto` llama.cpp for GGUF block formats
 * and vLLM for everything else; `ideal` stays the kernel roofline. An engine that cannot load the
 * format is refused in one line naming the engines that can.
 */
export function resolveEngine(choice: EngineChoice | undefined, format: WeightFormat): EngineName | 'ideal' {
  const asked = choice ?? 'auto';
  if (asked === 'ideal') return 'ideal';
  const engine: EngineName = asked === 'auto' ? (GGUF_FORMATS.includes(format) ? 'llama.cpp' : 'vllm') : asked;
  if (!(ENGINE_FORMATS[engine] as readonly WeightFormat[]).includes(format)) {
    const can = enginesLoading(format).map((e) => `${e} (${ENGINES[e].title})`);
    throw new UserError(
      `--engine ${engine}: ${ENGINES[engine].title} does not load ${format} weights; ${can.length > 0 ? `${can.join(', ')} ${can.length === 1 ? 'does' : 'do'}` : 'no modelled engine does'}`,
    );
  }
  return engine;
}
