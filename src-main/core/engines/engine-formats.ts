/**
 * Which weight formats each engine loads (the engine table's `formats`), and how `--engine auto`
 * picks an engine, read by the plan's checks, the launch lines and the app. A format an engine cannot load is
 * refused in one line naming the engines that can. Pure.
 */
import { UserError } from '../errors.js';
import type { WeightFormat } from '../workload/generation.js';
import { ENGINE_NAMES, ENGINES, type EngineChoice, type EngineName } from './engine-names.js';

/** The formats each engine loads, read from the engine table (`ENGINES` in engine-names.ts). */
export const ENGINE_FORMATS = Object.fromEntries(ENGINE_NAMES.map((e) => [e, ENGINES[e].formats])) as {
  [E in EngineName]: (typeof ENGINES)[E]['formats'];
};

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
