/** `plan` options for serving a decoder: the weight format, the objective, prompt and output tokens. */
import { UsageError } from '../core/errors.js';
import type { Dtype } from '../core/domain/measurement.js';
import type { Mode } from '../core/planner/types.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../core/workload/generation.js';
import { ENGINE_CHOICES, type EngineChoice } from '../core/engines/engine-names.js';
import type { PlanRequest } from '../services/plan/plan-service.js';
import { DEFAULT_OUTPUT_TOKENS, DEFAULT_PROMPT_TOKENS, defaultBatch } from '../services/plan/serving-plan.js';
import type { OptionSpec, ParsedOptions } from './command.js';
import { positiveInt } from './workload-options.js';
import { REQUEST_LIMITS } from '../core/workload/limits.js';
import { quoted } from '../core/text/shown.js';
import { FP8_ARCHITECTURES_TEXT } from '../core/domain/gpu-architectures.js';

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

/** "vllm" → an engine choice; anything else names the choices. */
export function engineChoice(v: string): EngineChoice {
  const choice = ENGINE_CHOICES.find((e) => e === v.trim().toLowerCase());
  if (!choice) throw new UsageError(`--engine takes ${ENGINE_CHOICES.join(', ')}; got ${quoted(v)}`);
  return choice;
}

function kvCacheField(opts: ParsedOptions): Pick<PlanRequest, 'kvCache'> {
  const v = opts['kv-cache'];
  if (typeof v !== 'string') return {};
  if (v !== 'auto' && v !== 'fp8') throw new UsageError(`--kv-cache takes auto or fp8; got ${quoted(v)}`);
  return { kvCache: v };
}

/** --concurrency N or --rate R (one of them), with --requests N. */
function loadField(opts: ParsedOptions): Pick<PlanRequest, 'load'> {
  const requests =
    typeof opts.requests === 'string'
      ? { requests: positiveInt('--requests', opts.requests, REQUEST_LIMITS.requests) }
      : {};
  if (typeof opts.concurrency === 'string' && typeof opts.rate === 'string')
    throw new UsageError('give --concurrency or --rate, not both');
  if (typeof opts.concurrency === 'string')
    return {
      load: {
        kind: 'concurrency',
        users: positiveInt('--concurrency', opts.concurrency, REQUEST_LIMITS.users),
        ...requests,
      },
    };
  if (typeof opts.rate === 'string') {
    const r = Number(opts.rate);
    const { min, max } = REQUEST_LIMITS.rate;
    if (!Number.isFinite(r) || r <= min || r > max)
      throw new UsageError(`--rate takes requests per second above ${min}, at most ${max}; got ${quoted(opts.rate)}`);
    return { load: { kind: 'rate', perSecond: r, ...requests } };
  }
  if (requests.requests !== undefined) throw new UsageError('--requests goes with --concurrency or --rate');
  return {};
}

/** "q4_k" → a weight format; anything else names the formats. */
function weightFormat(v: string): WeightFormat {
  if (!Object.hasOwn(WEIGHT_FORMATS, v))
    throw new UsageError(`--weights takes ${Object.keys(WEIGHT_FORMATS).join(', ')}; got ${quoted(v)}`);
  return v as WeightFormat;
}

type ServingFields = Pick<
  PlanRequest,
  'weights' | 'engine' | 'kvCache' | 'load' | 'objective' | 'tokens' | 'prompt' | 'dtype'
> & {
  batch: number;
};

/**
 * The serving fields of a plan request: --weights (else a GGUF file's format, whose float formats
 * also set the dtype unless --dtype is given), --objective, --tokens, --prompt, and the batch:
 * --batch, else 1 when serving and 8 when training.
 */
export function servingFields(
  opts: ParsedOptions,
  mode: Mode,
  batch: number | undefined,
  dtype: Dtype | undefined,
  fileWeights: WeightFormat | null,
): ServingFields {
  const objective = typeof opts.objective === 'string' ? opts.objective : undefined;
  if (objective !== undefined && objective !== 'latency' && objective !== 'throughput')
    throw new UsageError(`--objective takes latency or throughput; got ${quoted(objective)}`);
  const given = typeof opts.weights === 'string' ? weightFormat(opts.weights) : undefined;
  const fromFile = mode === 'inference' && given === undefined ? (fileWeights ?? undefined) : undefined;
  const fileDtype =
    dtype === undefined && (fromFile === 'fp32' || fromFile === 'fp16' || fromFile === 'bf16') ? fromFile : undefined;
  const weights = given ?? fromFile;
  const chosenDtype = dtype ?? fileDtype;
  return {
    batch: batch ?? defaultBatch(mode),
    ...(weights !== undefined ? { weights } : {}),
    ...(chosenDtype !== undefined ? { dtype: chosenDtype } : {}),
    ...(objective !== undefined ? { objective } : {}),
    ...(typeof opts.engine === 'string' ? { engine: engineChoice(opts.engine) } : {}),
    ...kvCacheField(opts),
    ...loadField(opts),
    ...(typeof opts.tokens === 'string' ? { tokens: positiveInt('--tokens', opts.tokens, REQUEST_LIMITS.tokens) } : {}),
    ...(typeof opts.prompt === 'string' ? { prompt: positiveInt('--prompt', opts.prompt, REQUEST_LIMITS.prompt) } : {}),
  };
}
