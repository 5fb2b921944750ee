/**
 * What a serving run's requests measure, as the engines' benchmark tools report it (vLLM's
 * `bench serve`, SGLang's `bench_serving`): percentiles of time to first token, time per output
 * token, inter-token latency and end-to-end latency; goodput under a service-level objective; and
 * Little's law as a check on the run. Percentiles are nearest-rank (the smallest value with at
 * least q of the requests, or tokens, at or below it). Pure.
 */
import type { RequestResult, TokenGaps } from '../engines/serving-sim.js';

export interface LatencySummary {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
}

const QUANTILES = { p50: 0.5, p90: 0.9, p99: 0.99 } as const;

/** Nearest-rank index of quantile q among n sorted values. */
const rank = (q: number, n: number): number => Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1));

export function latencySummary(xs: ArrayLike<number>): LatencySummary {
  const s = Float64Array.from(xs).sort();
  let sum = 0;
  for (const x of s) sum += x;
  const at = (q: number): number => (s.length > 0 ? (s[rank(q, s.length)] as number) : 0);
  return { mean: sum / Math.max(1, s.length), p50: at(QUANTILES.p50), p90: at(QUANTILES.p90), p99: at(QUANTILES.p99) };
}

/** Percentiles of values that each occur `counts[i]` times (inter-token gaps shared by a step's sequences). */
export function weightedSummary({ gapsUs, counts }: TokenGaps): LatencySummary {
  const order = Array.from({ length: gapsUs.length }, (_, i) => i).sort(
    (a, b) => (gapsUs[a] as number) - (gapsUs[b] as number),
  );
  let total = 0;
  let sum = 0;
  for (let i = 0; i < gapsUs.length; i++) {
    total += counts[i] as number;
    sum += (gapsUs[i] as number) * (counts[i] as number);
  }
  const at = (q: number): number => {
    if (total === 0) return 0;
    const want = rank(q, total) + 1;
    let seen = 0;
    for (const i of order) {
      seen += counts[i] as number;
      if (seen >= want) return gapsUs[i] as number;
    }
    return gapsUs[order[order.length - 1] as number] as number;
  };
  return { mean: total > 0 ? sum / total : 0, p50: at(QUANTILES.p50), p90: at(QUANTILES.p90), p99: at(QUANTILES.p99) };
}

/** A request's time to first token and time per output token after the first (µs; NaN for a one-token answer). */
export const ttftOf = (r: RequestResult): number => r.firstToken - r.arrival;
export const tpotOf = (r: RequestResult): number => (r.output > 1 ? (r.end - r.firstToken) / (r.output - 1) : NaN);

/** A cap on a latency percentile: `percentile` (e.g. 90) of requests within `us`. */
export interface PercentileCap {
  percentile: number;
  us: number;
}

/** A service-level objective: caps on TTFT and TPOT percentiles (either may be left out). */
export interface ServingSlo {
  ttft?: PercentileCap;
  tpot?: PercentileCap;
}

export interface Goodput {
  /** Requests per second that met every cap themselves. */
  requestsPerSecond: number;
  /** Share of the requests that met every cap. */
  share: number;
  /** Whether the run meets the SLO: each capped percentile is within its cap. */
  meets: boolean;
  /** Each capped percentile as the run gave it (µs). */
  ttftUs?: number;
  tpotUs?: number;
}

function capped(values: readonly number[], cap: PercentileCap): { value: number; meets: boolean } {
  const s = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (s.length === 0) return { value: 0, meets: true };
  const value = s[rank(cap.percentile / 100, s.length)] as number;
  return { value, meets: value <= cap.us };
}

/**
 * Goodput under `slo` (DistServe's and vLLM's bench's sense): the requests per second, over the
 * run's span, whose own TTFT and TPOT are within the caps; and whether the run meets the SLO's
 * percentiles at all.
 */
export function goodput(
  run: { sim: { requests: readonly RequestResult[]; makespanUs: number } },
  slo: ServingSlo,
): Goodput {
  const reqs = run.sim.requests;
  const ok = (r: RequestResult): boolean =>
    (!slo.ttft || ttftOf(r) <= slo.ttft.us) && (!slo.tpot || !(tpotOf(r) > slo.tpot.us));
  const good = reqs.filter(ok).length;
  const ttft = slo.ttft ? capped(reqs.map(ttftOf), slo.ttft) : undefined;
  const tpot = slo.tpot ? capped(reqs.map(tpotOf), slo.tpot) : undefined;
  return {
    requestsPerSecond: run.sim.makespanUs > 0 ? (good * 1e6) / run.sim.makespanUs : 0,
    share: reqs.length > 0 ? good / reqs.length : 0,
    meets: (ttft?.meets ?? true) && (tpot?.meets ?? true),
    ...(ttft ? { ttftUs: ttft.value } : {}),
    ...(tpot ? { tpotUs: tpot.value } : {}),
  };
}

export interface LittlesLaw {
  /** Requests in the system on average, as the simulation's steps counted them. */
  meanInSystem: number;
  /** Throughput x mean time in the system (requests/µs x µs). */
  throughputTimesLatency: number;
  /** |meanInSystem / (throughput x latency) - 1|: 0 when the run is consistent. */
  relativeGap: number;
}

/**
 * Little's law, L = λW, on a run: the mean number of requests in the system the steps counted
 * against the completions per unit time times their mean time in the system. A run whose books
 * balance gives a gap near 0 (the oracle tests hold it under 1%).
 */
export function littlesLaw(run: {
  sim: { requests: readonly RequestResult[]; makespanUs: number; meanInSystem: number };
}): LittlesLaw {
  const { requests, makespanUs, meanInSystem } = run.sim;
  let sojourn = 0;
  for (const r of requests) sojourn += r.end - r.arrival;
  const throughputTimesLatency = makespanUs > 0 ? sojourn / makespanUs : 0;
  const relativeGap = throughputTimesLatency > 0 ? Math.abs(meanInSystem / throughputTimesLatency - 1) : 0;
  return { meanInSystem, throughputTimesLatency, relativeGap };
}
