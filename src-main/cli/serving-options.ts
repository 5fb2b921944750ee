/**
 * `plan` options for serving a decoder: the weight format, the engine, the load, the objective,
 * prompt and output tokens (read into the plan request by plan-request-options.ts).
 */
import { WEIGHT_FORMATS } from '../core/workload/generation.js';
import { ENGINE_CHOICES, type EngineChoice } from '../core/engines/engine-names.js';
import { DEFAULT_OUTPUT_TOKENS, DEFAULT_PROMPT_TOKENS } from '../services/plan/serving-plan.js';
import type { OptionSpec } from './command.js';
import { FP8_ARCHITECTURES_TEXT } from '../core/domain/gpu-architectures.js';
import { planFieldsOf } from './plan-request-options.js';

export const SERVING_OPTIONS: Record<string, OptionSpec> = {
  batch: {
    type: 'string',
    valueName: 'N',
    description: 'sequences (serving) or samples (training) per step (default: 1 serving, 8 training)',
  },
  weights: {
    type: 'string',
    valueName: 'FORMAT',
    description: `inference: how the weights are stored, ${Object.keys(WEIGHT_FORMATS).join(', ')} (default: the model's dtype; int4: AWQ/GPTQ groups of 128; fp8: ${FP8_ARCHITECTURES_TEXT})`,
  },
  engine: {
    type: 'string',
    valueName: 'NAME',
    description: `serving a decoder: the engine that runs it, ${ENGINE_CHOICES.join(', ')} (default auto: llama.cpp for q8_0/q4_k/q4_0, vLLM otherwise; ideal: the kernel roofline alone)`,
  },
  'kv-cache': {
    type: 'string',
    valueName: 'DTYPE',
    description: "serving a decoder: the KV cache's dtype, auto (the model's, default) or fp8",
  },
  concurrency: {
    type: 'string',
    valueName: 'N',
    description:
      'serving a decoder: simulate N users each keeping one request in flight; adds TTFT, TPOT and end-to-end percentiles',
  },
  rate: {
    type: 'string',
    valueName: 'R',
    description: 'serving a decoder: simulate Poisson arrivals at R requests/s (seeded); adds the same percentiles',
  },
  requests: {
    type: 'string',
    valueName: 'N',
    description: 'with --concurrency or --rate: requests simulated (default 200)',
  },
  objective: {
    type: 'string',
    valueName: 'WHAT',
    description:
      'serving a decoder: rank plans by latency (default: a whole request at --batch) or throughput (tokens/s at the most concurrent sequences that fit)',
  },
  tokens: {
    type: 'string',
    valueName: 'N',
    description: `serving a decoder: output tokens per request (default ${DEFAULT_OUTPUT_TOKENS}); the KV cache holds prompt + tokens`,
  },
  prompt: {
    type: 'string',
    valueName: 'N',
    description: `serving a decoder: prompt tokens (default: --seq, else ${DEFAULT_PROMPT_TOKENS} or what the model's context leaves)`,
  },
};

/** "vllm" → an engine choice, as `plan --engine` reads it; anything else names the choices. */
export function engineChoice(v: string): EngineChoice {
  return planFieldsOf({ engine: v }, ['engine']).engine as EngineChoice;
}
