/**
 * The Serving view's form turned into a `serving:plan` request, checked before anything is sent: a
 * rate above 0 (empty with a trace: a JSONL trace's own mean rate, as serve-plan --trace FILE takes
 * without --rate), at least one SLO cap, lengths as `serve-plan --prompt/--output` takes them (a count,
 * a range or a lognormal, by the same parser), a burst's CV, prices above 0; or a trace's text in
 * place of the lengths and the burst. Empty fields take the service's defaults. Pure.
 */
import type { ApiRequest } from '../../../src-main/api/contract.js';
import { lengthFieldValue } from '../../../src-main/api/length-spec.js';
import type { SloMetric, SloPercentile } from '../../../src-main/api/view-models.js';

export type ServingPlanRequest = ApiRequest<'serving:plan'>;

/** One SLO cap as typed: a percentile of a latency under `ms` milliseconds; an empty `ms` leaves it out. */
export interface SloRow {
  metric: SloMetric;
  percentile: SloPercentile;
  ms: number | string | null;
}

/** A candidate GPU kind: at most `perReplica` GPUs a replica (0: any), at `price` dollars an hour ('' : the default). */
export interface GpuChoice {
  perReplica: number;
  price: number | string | null;
}

export interface ServingPlanForm {
  workload: string;
  /** An engine name or auto. */
  engine: string;
  /** Requests per second, all replicas together; empty with a trace: a JSONL trace's own mean rate. */
  rate: number | string | null;
  /** Prompt and output tokens per request as `--prompt`/`--output` take them; empty: the defaults (1024, 256). */
  prompt: number | string | null;
  output: number | string | null;
  /** The gaps' coefficient of variation (1: Poisson, over 1: bursts); empty: Poisson. */
  burst: number | string | null;
  /** A trace file's name and text: its rows give the lengths (and a JSONL's the arrivals) in place of the three above. */
  trace: { fileName: string; text: string } | null;
  /** '' tries every format the engine loads among bf16, fp8, int8 and int4. */
  weights: string;
  /** The KV cache's dtype: the model's (auto, sent as nothing) or fp8; absent: auto. */
  kvCache?: 'auto' | 'fp8';
  slo: readonly SloRow[];
  /** The candidate GPUs by datasheet name; none: the service's default list of rented GPUs. */
  gpus: Readonly<Record<string, GpuChoice>>;
  top: number;
}

/** The example: p90 time to first token under 1 s, p90 time per output token under 50 ms. */
export const DEFAULT_SLO: readonly SloRow[] = [
  { metric: 'ttft', percentile: 'p90', ms: 1000 },
  { metric: 'tpot', percentile: 'p90', ms: 50 },
];

export type ServingFormResult = { ok: true; request: ServingPlanRequest } | { ok: false; error: string };

const blank = (v: number | string | null): boolean => v === null || (typeof v === 'string' && v.trim() === '');
const num = (v: number | string): number => (typeof v === 'number' ? v : Number(v.trim()));

/** A number above 0, undefined for an empty field, null when bad. */
function optionalPositive(v: number | string | null): number | undefined | null {
  if (blank(v)) return undefined;
  const n = num(v as number | string);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The candidate GPUs as `--virtual` names them ("4x L4": at most 4 a replica) and the prices typed. */
function gpuFields(gpus: ServingPlanForm['gpus']): Pick<ServingPlanRequest, 'gpus' | 'prices'> | string {
  const names: string[] = [];
  const prices: { gpu: string; perHour: number }[] = [];
  for (const [name, c] of Object.entries(gpus)) {
    names.push(c.perReplica > 0 ? `${c.perReplica}x ${name}` : name);
    const price = optionalPositive(c.price);
    if (price === null) return `The price of ${name} must be dollars an hour above 0 (or empty for the default).`;
    if (price !== undefined) prices.push({ gpu: name, perHour: price });
  }
  return {
    ...(names.length > 0 ? { gpus: names } : {}),
    ...(prices.length > 0 ? { prices } : {}),
  };
}

/** The burst's CV most a request takes (the schema's bound). */
const MAX_BURST = 100;

/** The lengths and the burst, or the trace in their place; a string says what is wrong. */
function loadFields(f: ServingPlanForm): Pick<ServingPlanRequest, 'prompt' | 'output' | 'burst' | 'trace'> | string {
  if (f.trace) return { trace: f.trace };
  const prompt = lengthFieldValue(f.prompt, 'prompt');
  if (!prompt.ok) return prompt.error;
  const output = lengthFieldValue(f.output, 'output');
  if (!output.ok) return output.error;
  const burst = optionalPositive(f.burst);
  if (burst === null || (burst !== undefined && burst > MAX_BURST))
    return `The burst is the gaps' coefficient of variation, above 0 and at most ${MAX_BURST} (1: Poisson; empty for Poisson).`;
  return {
    ...(prompt.value !== undefined ? { prompt: prompt.value } : {}),
    ...(output.value !== undefined ? { output: output.value } : {}),
    ...(burst !== undefined ? { burst } : {}),
  };
}

export function servingPlanRequest(f: ServingPlanForm): ServingFormResult {
  const fail = (error: string): ServingFormResult => ({ ok: false, error });
  if (!f.workload) return fail('Choose a model.');
  const rate = optionalPositive(f.rate);
  if (rate === null) return fail('The rate must be requests per second above 0.');
  if (rate === undefined && !f.trace)
    return fail("Give a rate, requests per second (or a JSONL trace with the rate empty: the trace's own mean rate).");
  const load = loadFields(f);
  if (typeof load === 'string') return fail(load);
  const slo: ServingPlanRequest['slo'] = [];
  for (const row of f.slo) {
    const ms = optionalPositive(row.ms);
    if (ms === null) return fail(`The ${row.percentile} ${row.metric.toUpperCase()} cap must be milliseconds above 0.`);
    if (ms === undefined) continue;
    if (slo.some((c) => c.metric === row.metric && c.percentile === row.percentile)) {
      return fail(`The ${row.percentile} ${row.metric.toUpperCase()} cap is given twice.`);
    }
    slo.push({ metric: row.metric, percentile: row.percentile, ms });
  }
  if (slo.length === 0) return fail('Give at least one SLO cap (a latency percentile in milliseconds).');
  const gpus = gpuFields(f.gpus);
  if (typeof gpus === 'string') return fail(gpus);
  const request: ServingPlanRequest = {
    workload: f.workload,
    ...(rate !== undefined ? { rate } : {}),
    slo,
    top: f.top,
    ...load,
    ...gpus,
  };
  if (f.engine && f.engine !== 'auto') request.engine = f.engine as ServingPlanRequest['engine'];
  if (f.weights) request.weights = [f.weights as NonNullable<ServingPlanRequest['weights']>[number]];
  if (f.kvCache === 'fp8') request.kvCache = 'fp8';
  return { ok: true, request };
}
