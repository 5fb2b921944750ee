/**
 * `serve-plan`'s options read into the serving plan request (core/planner/serving/serving-plan-request.ts):
 * the load, the SLO as --ttft-p90 1s, --tpot-p50 20ms (every metric x percentile), the GPU kinds,
 * prices and formats. Each bad value is refused in one line naming it.
 */
import { UsageError } from '../core/errors.js';
import type { EngineName } from '../core/engines/engine-names.js';
import { parsePrices } from '../core/planner/serving/gpu-prices.js';
import {
  SERVING_ENGINE_CHOICES,
  SERVING_PLAN_REQUEST,
  SLO_METRICS,
  SLO_PERCENTILES,
  type ServingPlanRequest,
  type SloMetric,
  type SloPercentile,
} from '../core/planner/serving/serving-plan-request.js';
import { parseLengthSpec } from '../core/serving/lengths.js';
import { quoted } from '../core/text/shown.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../core/workload/generation.js';
import { REQUEST_LIMITS, TEXT_LIMITS } from '../core/workload/limits.js';
import type { OptionSpec, ParsedOptions } from './command.js';
import { boundedText, positiveInt } from './workload-options.js';

const CAPS = (Object.keys(SLO_METRICS) as SloMetric[]).flatMap((metric) =>
  (Object.keys(SLO_PERCENTILES) as SloPercentile[]).map((percentile) => ({
    metric,
    percentile,
    flag: `${metric}-${percentile}`,
  })),
);

const capOptions = Object.fromEntries(
  CAPS.map((c) => [
    c.flag,
    {
      type: 'string',
      valueName: 'TIME',
      description: `SLO: the ${c.percentile} ${SLO_METRICS[c.metric].about} at most TIME (e.g. ${c.metric === 'ttft' ? '1s' : '50ms'})`,
    } satisfies OptionSpec,
  ]),
);

export const SERVE_PLAN_OPTIONS: Record<string, OptionSpec> = {
  workload: {
    type: 'string',
    valueName: 'MODEL',
    description: 'the decoder: a catalog name, stored workload or Hugging Face model folder',
  },
  engine: {
    type: 'string',
    valueName: 'NAME',
    description: `the engine, ${SERVING_ENGINE_CHOICES.join(', ')} (default auto: llama.cpp for GGUF formats, vLLM otherwise)`,
  },
  rate: {
    type: 'string',
    valueName: 'N',
    description:
      "requests per second, all replicas together (Poisson arrivals; with a JSONL --trace, default the trace's own mean rate)",
  },
  prompt: {
    type: 'string',
    valueName: 'SPEC',
    description: 'prompt tokens per request: 2000 (fixed, default 1024), 1000-3000 (uniform) or lognormal:2000:0.6',
  },
  output: {
    type: 'string',
    valueName: 'SPEC',
    description: 'output tokens per request: 300 (fixed, default 256), 100-500 (uniform) or lognormal:300:0.8',
  },
  burst: {
    type: 'string',
    valueName: 'CV',
    description: 'bursty arrivals: gaps gamma-distributed with this coefficient of variation (1 = Poisson, default)',
  },
  trace: {
    type: 'string',
    valueName: 'FILE',
    description:
      'requests from a trace: JSONL rows {"t": s, "prompt": N, "output": N} (times and lengths), or a ShareGPT JSON (lengths as ceil(chars/4); arrivals Poisson at --rate)',
  },
  requests: { type: 'string', valueName: 'N', description: 'requests simulated per point (default 200)' },
  ...capOptions,
  virtual: {
    type: 'string',
    valueName: 'GPUS',
    description:
      'GPU kinds to try, comma separated; "4x L4" allows at most 4 per replica (default: the GPUs with a shipped price, up to 8)',
  },
  price: {
    type: 'string',
    valueName: 'PRICES',
    description: 'dollars per GPU-hour over the shipped defaults, e.g. "H100 SXM5=2.5/h,4090=0.4/h"',
  },
  weights: {
    type: 'string',
    valueName: 'FORMATS',
    description: `weight formats to try, comma separated, of ${Object.keys(WEIGHT_FORMATS).join(', ')} (default bf16,fp8,int8,int4 where the engine loads them)`,
  },
  'kv-cache': {
    type: 'string',
    valueName: 'DTYPE',
    description: "the KV cache's dtype, auto (the model's, default) or fp8 (more requests a replica holds)",
  },
  top: { type: 'string', valueName: 'N', description: 'deployments listed (default 5)' },
  seed: { type: 'string', valueName: 'N', description: 'seed of the arrivals (default 1)' },
};

/** "1s", "50ms", "0.5 s" in milliseconds. */
function duration(flag: string, v: string): number {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s)\s*$/i.exec(v);
  const ms = m ? Number(m[1]) * ((m[2] as string).toLowerCase() === 's' ? 1000 : 1) : NaN;
  if (!(ms > 0) || ms > 3_600_000)
    throw new UsageError(
      `--${flag} takes a time with its unit, e.g. 1s or 50ms (above 0, at most 1 hour); got ${quoted(v)}`,
    );
  return ms;
}

function rate(v: string): number {
  const r = /^\s*[0-9.eE+]+\s*$/.test(v) ? Number(v) : NaN;
  const max = REQUEST_LIMITS.rate.max;
  if (!Number.isFinite(r) || r <= 0 || r > max)
    throw new UsageError(`--rate takes requests per second above 0, at most ${max}; got ${quoted(v)}`);
  return r;
}

const text = (opts: ParsedOptions, k: string): string | undefined =>
  typeof opts[k] === 'string' ? opts[k] : undefined;
const items = (v: string, flag: string): string[] =>
  v
    .split(',')
    .map((s) => boundedText(`--${flag} entry`, s.trim(), TEXT_LIMITS.gpuName))
    .filter(Boolean);

/** A length spec as given: a plain count is a number, the rest checked now so a bad one is refused in one line. */
function lengthOpt(
  opts: ParsedOptions,
  k: 'prompt' | 'output',
): { prompt?: number | string; output?: number | string } {
  const v = text(opts, k);
  if (v === undefined) return {};
  const spec = parseLengthSpec(v, `--${k}`);
  const max = (k === 'prompt' ? REQUEST_LIMITS.prompt : REQUEST_LIMITS.tokens).max;
  if (spec.kind === 'fixed') return { [k]: positiveInt(`--${k}`, v.trim(), { min: 1, max }) };
  return { [k]: v.trim() };
}

function burst(v: string): number {
  const cv = /^\s*[0-9.eE+]+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(cv) || cv <= 0 || cv > 100)
    throw new UsageError(
      `--burst takes the gaps' coefficient of variation above 0, at most 100 (1 = Poisson); got ${quoted(v)}`,
    );
  return cv;
}

/**
 * The request from the options; `traced`: a --trace FILE is given, so --rate may be left out (the
 * service then takes a JSONL trace's own mean rate over the rows simulated).
 */
export function servePlanRequest(opts: ParsedOptions, traced = false): ServingPlanRequest {
  const workload = text(opts, 'workload');
  if (!workload) throw new UsageError('serve-plan needs --workload MODEL (e.g. llama-3.1-8b)');
  const r = text(opts, 'rate');
  if (r === undefined && !traced) throw new UsageError('serve-plan needs --rate N (requests per second)');
  const slo = CAPS.flatMap((c) => {
    const v = text(opts, c.flag);
    return v === undefined ? [] : [{ metric: c.metric, percentile: c.percentile, ms: duration(c.flag, v) }];
  });
  if (slo.length === 0) throw new UsageError('serve-plan needs an SLO: --ttft-p90 1s, --tpot-p90 50ms or another cap');
  const engine = text(opts, 'engine');
  if (engine !== undefined && !(SERVING_ENGINE_CHOICES as readonly string[]).includes(engine))
    throw new UsageError(`--engine takes ${SERVING_ENGINE_CHOICES.join(', ')}; got ${quoted(engine)}`);
  const weights = text(opts, 'weights');
  const formats = weights === undefined ? undefined : items(weights, 'weights');
  for (const f of formats ?? [])
    if (!(f in WEIGHT_FORMATS))
      throw new UsageError(`--weights takes ${Object.keys(WEIGHT_FORMATS).join(', ')}; got ${quoted(f)}`);
  const count = (k: string, range: { min: number; max: number }): number | undefined => {
    const v = text(opts, k);
    return v === undefined ? undefined : positiveInt(`--${k}`, v, range);
  };
  const kv = text(opts, 'kv-cache');
  if (kv !== undefined && kv !== 'auto' && kv !== 'fp8')
    throw new UsageError(`--kv-cache takes auto or fp8; got ${quoted(kv)}`);
  const virtual = text(opts, 'virtual');
  const price = text(opts, 'price');
  const req = {
    workload,
    ...(r !== undefined ? { rate: rate(r) } : {}),
    slo,
    ...(engine !== undefined ? { engine: engine as EngineName | 'auto' } : {}),
    ...lengthOpt(opts, 'prompt'),
    ...lengthOpt(opts, 'output'),
    ...(text(opts, 'burst') !== undefined ? { burst: burst(text(opts, 'burst') as string) } : {}),
    ...(count('requests', REQUEST_LIMITS.requests) !== undefined
      ? { requests: count('requests', REQUEST_LIMITS.requests) }
      : {}),
    ...(count('top', REQUEST_LIMITS.top) !== undefined ? { top: count('top', REQUEST_LIMITS.top) } : {}),
    ...(count('seed', { min: 0, max: 2 ** 31 - 1 }) !== undefined
      ? { seed: count('seed', { min: 0, max: 2 ** 31 - 1 }) }
      : {}),
    ...(virtual !== undefined ? { gpus: items(virtual, 'virtual') } : {}),
    ...(price !== undefined ? { prices: parsePrices(price) } : {}),
    ...(formats ? { weights: formats as WeightFormat[] } : {}),
    ...(kv !== undefined ? { kvCache: kv } : {}),
  };
  const parsed = SERVING_PLAN_REQUEST.safeParse(req);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new UsageError(`serve-plan: ${i?.path.join('.') ?? ''}: ${i?.message ?? 'invalid request'}`);
  }
  return parsed.data;
}
