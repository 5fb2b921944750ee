/**
 * Every engine's rules by name and version: the newest rules at or before a version (or a date),
 * the newest when neither is given. Pure.
 */
import type { EngineName } from './engine-names.js';
import type { EngineRules } from './engine-rules.js';
import { EXLLAMAV2_VERSIONS } from './exllamav2-engine.js';
import { LLAMA_CPP_VERSIONS } from './llama-cpp-engine.js';
import { SGLANG_VERSIONS } from './sglang-engine.js';
import { TENSORRT_LLM_VERSIONS } from './tensorrt-llm-engine.js';
import { TGI_VERSIONS } from './tgi-engine.js';
import { TRANSFORMERS_VERSIONS } from './transformers-engine.js';
import { VLLM_VERSIONS } from './vllm-engine.js';

const VERSIONS: Record<EngineName, readonly EngineRules[]> = {
  vllm: VLLM_VERSIONS,
  sglang: SGLANG_VERSIONS,
  'tensorrt-llm': TENSORRT_LLM_VERSIONS,
  'llama.cpp': LLAMA_CPP_VERSIONS,
  transformers: TRANSFORMERS_VERSIONS,
  tgi: TGI_VERSIONS,
  exllamav2: EXLLAMAV2_VERSIONS,
};

/** "0.6.3" -> [0, 6, 3]; llama.cpp's "b2946" -> [2946]. */
function versionKey(v: string): number[] {
  return v
    .replace(/^[vb]/i, '')
    .split(/[.\-+]/)
    .map((p) => Number.parseInt(p, 10))
    .map((n) => (Number.isFinite(n) ? n : 0));
}

function atOrBefore(a: string, b: string): boolean {
  const x = versionKey(a);
  const y = versionKey(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return true;
}

/**
 * The rules of an engine at a version ("0.5.4", "b3000"), else at a date (YYYY-MM-DD: the rules
 * released by then), else the newest. A version or date before every listed one takes the oldest.
 */
export function engineRules(name: EngineName, at: { version?: string; date?: string } = {}): EngineRules {
  const list = VERSIONS[name];
  const newest = list[0] as EngineRules;
  const oldest = list[list.length - 1] as EngineRules;
  if (at.version !== undefined) return list.find((r) => atOrBefore(r.since, at.version as string)) ?? oldest;
  if (at.date !== undefined) return list.find((r) => r.released <= (at.date as string)) ?? oldest;
  return newest;
}

/** Every version's rules of every engine (tests, calibration provenance). */
export function allEngineRules(): EngineRules[] {
  return Object.values(VERSIONS).flat();
}
