/**
 * The serving capacity request, defined once: what `pipedejavu serve-plan` and the app's Serving
 * view (`serving:plan`) ask the capacity search: a decoder, an engine, a load (Poisson or bursty
 * arrivals at a rate, prompt and output lengths fixed or drawn), the SLO as caps on latency percentiles, the candidate
 * GPU kinds (a count caps the GPUs per replica: the node), prices and weight formats. Pure.
 */
import { z } from 'zod';
import { ENGINE_NAMES, type EngineName } from '../../engines/engine-names.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../../workload/generation.js';
import { REQUEST_LIMITS as L, TEXT_LIMITS, type Range } from '../../workload/limits.js';
import { aboveIn, countIn } from '../../workload/request-schemas.js';

/** The latencies an SLO may cap: time to first token, time per output token after the first. */
export const SLO_METRICS = {
  ttft: { title: 'TTFT', about: 'time to first token' },
  tpot: { title: 'TPOT', about: 'time per output token after the first' },
} as const;
export type SloMetric = keyof typeof SLO_METRICS;

/** The percentiles an SLO may cap (the engines' benchmark tools report these). */
export const SLO_PERCENTILES = { p50: 0.5, p90: 0.9, p99: 0.99 } as const;
export type SloPercentile = keyof typeof SLO_PERCENTILES;

/** Bounds of a serving plan request beyond REQUEST_LIMITS. */
const SERVING_PLAN_LIMITS = {
  /** One SLO cap, in milliseconds (above 0, at most an hour). */
  sloMs: { min: 0, max: 3_600_000 },
  /** A GPU's price, dollars per GPU-hour (above 0). */
  perHour: { min: 0, max: 10_000 },
  /** GPU kinds searched at once. */
  gpus: 32,
  /** A burst's coefficient of variation (above 0). */
  burst: { min: 0, max: 100 },
} as const satisfies Record<string, Range | number>;

/** What `engine` takes: an engine, or `auto` (llama.cpp for GGUF block formats, vLLM for the others). */
export const SERVING_ENGINE_CHOICES = ['auto', ...ENGINE_NAMES] as const as readonly [
  'auto' | EngineName,
  ...('auto' | EngineName)[],
];

const SLO_CAP = z.strictObject({
  metric: z.enum(Object.keys(SLO_METRICS) as [SloMetric, ...SloMetric[]]),
  percentile: z.enum(Object.keys(SLO_PERCENTILES) as [SloPercentile, ...SloPercentile[]]),
  ms: aboveIn(SERVING_PLAN_LIMITS.sloMs),
});
export type SloCap = z.infer<typeof SLO_CAP>;

const gpuName = z.string().min(1).max(TEXT_LIMITS.gpuName);
const lengthSpecText = z.string().min(1).max(64);

export const SERVING_PLAN_REQUEST = z.strictObject({
  /** A catalog name or a stored workload (a decoder). */
  workload: z.string().min(1).max(4096),
  /** Default auto. */
  engine: z.enum(SERVING_ENGINE_CHOICES).optional(),
  /**
   * Requests per second, all replicas together (Poisson arrivals). Absent: a JSONL trace's own mean
   * rate over the rows simulated (serve-plan --trace FILE without --rate); refused without such a trace.
   */
  rate: aboveIn(L.rate).optional(),
  /**
   * Prompt tokens per request (default 1024) and output tokens (default 256): a count, or a spec
   * string, "2000", "1000-3000" (uniform) or "lognormal:2000:0.6" (median, sigma), checked by the service.
   */
  prompt: z.union([countIn(L.prompt), lengthSpecText]).optional(),
  output: z.union([countIn(L.tokens), lengthSpecText]).optional(),
  /** Coefficient of variation of the gaps between arrivals (default 1: Poisson; over 1: bursts, gamma gaps). */
  burst: aboveIn(SERVING_PLAN_LIMITS.burst).optional(),
  /** Requests simulated per point of the search (default 200; fewer is faster and coarser). */
  requests: countIn(L.requests).optional(),
  /** Caps on latency percentiles, each metric and percentile once. */
  slo: z
    .array(SLO_CAP)
    .min(1, 'at least one SLO cap')
    .max(6)
    .refine((caps) => new Set(caps.map((c) => `${c.metric}:${c.percentile}`)).size === caps.length, 'each cap once'),
  /** Datasheet GPU kinds ("H100 SXM5", or "4x L4": at most 4 per replica); default a list of rented GPUs. */
  gpus: z.array(gpuName).min(1).max(SERVING_PLAN_LIMITS.gpus).optional(),
  /** Prices over the shipped defaults ($ per GPU-hour). */
  prices: z
    .array(z.strictObject({ gpu: gpuName, perHour: aboveIn(SERVING_PLAN_LIMITS.perHour) }))
    .max(64)
    .optional(),
  /** Weight formats to try (default those the engine loads among bf16, fp8, int8, int4). */
  weights: z
    .array(z.enum(Object.keys(WEIGHT_FORMATS) as [WeightFormat, ...WeightFormat[]]))
    .min(1)
    .max(Object.keys(WEIGHT_FORMATS).length)
    .optional(),
  /** The KV cache's dtype: the model's ('auto', default) or fp8 (engines that hold one; half the bytes of a 16-bit cache). */
  kvCache: z.enum(['auto', 'fp8']).optional(),
  /** Deployments listed (default 5). */
  top: countIn(L.top).optional(),
  /** Seed of the arrivals (default 1). */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
});
export type ServingPlanRequest = z.output<typeof SERVING_PLAN_REQUEST>;
