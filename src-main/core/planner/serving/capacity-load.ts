/**
 * The load a capacity search runs (capacity-search.ts), resolved from the request: prompt and
 * output lengths (a count or a distribution, lengths.ts), arrivals (Poisson, or bursts: gamma gaps
 * with a CV, arrivals.ts) or a trace's rows. A JSONL trace gives the arrival times and lengths of its
 * first `requests` rows; a replica tried at a rate replays those times scaled by the trace's mean
 * rate over that rate (the pattern's bursts kept, its pace changed), its lengths in order. A ShareGPT
 * trace gives lengths only; arrivals then come from the rate. Pure.
 */
import { UserError } from '../../errors.js';
import { describeArrivals, type ArrivalSpec } from '../../serving/arrivals.js';
import { describeLength, MAX_LENGTH, parseLengthSpec, type LengthSpec } from '../../serving/lengths.js';
import type { ServingTrace } from '../../serving/trace-rows.js';

export interface CapacityLoad {
  /** Requests per second, all replicas together. */
  rate: number;
  prompt: LengthSpec;
  output: LengthSpec;
  /** Requests simulated per point. */
  requests: number;
  seed: number;
  /** Coefficient of variation of the gaps between arrivals (1: Poisson; over 1: bursts). */
  burst?: number;
  /** A JSONL trace's arrival times (s after its first row), replayed scaled to each rate; null: drawn at the rate. */
  traceTimes?: Float64Array | null;
}

/** A trace as the load reads it: the rows, and the name to show. */
export interface NamedTrace {
  file: string;
  trace: ServingTrace;
}

/** The z-score of the 99th percentile: a lognormal's longest request sized for is its p99. */
const Z99 = 2.326;

/** "2000", "1000-3000" or "lognormal:2000:0.6" (a number is a fixed count). */
export function lengthSpecOf(v: number | string | undefined, fallback: number, flag: string): LengthSpec {
  if (v === undefined) return fallback;
  return typeof v === 'number' ? v : parseLengthSpec(v, flag);
}

/** Mean tokens of a spec (a lognormal's ignores its clamp). */
export function meanLength(spec: LengthSpec): number {
  if (typeof spec === 'number') return spec;
  switch (spec.kind) {
    case 'fixed':
      return spec.tokens;
    case 'uniform':
      return (spec.lo + spec.hi) / 2;
    case 'lognormal':
      return Math.min(spec.max ?? MAX_LENGTH, spec.median * Math.exp((spec.sigma * spec.sigma) / 2));
    case 'trace': {
      let s = 0;
      for (let i = 0; i < spec.tokens.length; i++) s += spec.tokens[i] as number;
      return spec.tokens.length > 0 ? s / spec.tokens.length : 0;
    }
  }
}

/** The longest request a spec gives that a replica must hold (a lognormal's p99, within its clamp). */
export function longestLength(spec: LengthSpec): number {
  if (typeof spec === 'number') return spec;
  switch (spec.kind) {
    case 'fixed':
      return spec.tokens;
    case 'uniform':
      return spec.hi;
    case 'lognormal':
      return Math.min(spec.max ?? MAX_LENGTH, Math.ceil(spec.median * Math.exp(Z99 * spec.sigma)));
    case 'trace': {
      let m = 0;
      for (let i = 0; i < spec.tokens.length; i++) m = Math.max(m, spec.tokens[i] as number);
      return m;
    }
  }
}

/** Clamps a lognormal's draws to `max` tokens (at least its median); other specs as they are. */
export function clampLength(spec: LengthSpec, max: number): LengthSpec {
  if (typeof spec === 'number' || spec.kind !== 'lognormal') return spec;
  return { ...spec, max: Math.max(spec.median, Math.min(spec.max ?? MAX_LENGTH, max)) };
}

/**
 * The load's prompts and answers from a trace's first `requests` rows (cycled when it holds
 * fewer), and a JSONL trace's times from its first row; the rate defaults to the trace's own mean.
 */
export function traceLoad(
  t: ServingTrace,
  base: Pick<CapacityLoad, 'requests' | 'seed'> & { rate?: number },
): CapacityLoad {
  const timed = t.atSeconds;
  const n = timed ? Math.min(base.requests, t.rows) : base.requests;
  const used = Math.min(n, t.rows);
  const prompt: LengthSpec = { kind: 'trace', tokens: t.prompt.subarray(0, used) };
  const output: LengthSpec = { kind: 'trace', tokens: t.output.subarray(0, used) };
  if (!timed) {
    if (base.rate === undefined) throw new UserError('a ShareGPT trace has no arrival times: give a rate (--rate N)');
    return { rate: base.rate, prompt, output, requests: n, seed: base.seed, burst: 1, traceTimes: null };
  }
  const t0 = timed[0] as number;
  const times = Float64Array.from(timed.subarray(0, used), (x) => x - t0);
  const span = times[used - 1] as number;
  if (used < 2 || !(span > 0))
    throw new UserError(
      `the trace's first ${used} rows arrive at one time, so it has no rate to replay: give more rows or --requests`,
    );
  return {
    rate: base.rate ?? (used - 1) / span,
    prompt,
    output,
    requests: used,
    seed: base.seed,
    burst: 1,
    traceTimes: times,
  };
}

/** The trace's mean rate over the rows a load replays. */
function traceRate(times: Float64Array): number {
  return (times.length - 1) / (times[times.length - 1] as number);
}

/** How one replica's requests arrive at `perSecond` (the trace's times scaled to it). */
export function arrivalAt(load: CapacityLoad, perSecond: number): ArrivalSpec {
  if (load.traceTimes) {
    const scale = traceRate(load.traceTimes) / perSecond;
    return { kind: 'trace', atSeconds: Float64Array.from(load.traceTimes, (t) => t * scale) };
  }
  if (load.burst !== undefined && load.burst !== 1)
    return { kind: 'burst', perSecond, cv: load.burst, seed: load.seed };
  return { kind: 'rate', perSecond, seed: load.seed };
}

/** The load in words: arrivals, prompt lengths, output lengths (what the output and --json say). */
export function describeLoad(
  load: CapacityLoad,
  trace?: NamedTrace,
): { arrivals: string; prompt: string; output: string } {
  let arrivals: string;
  if (load.traceTimes) {
    const r = traceRate(load.traceTimes);
    arrivals =
      `${trace?.file ?? 'the trace'}'s first ${load.requests} arrival times (mean ${r.toPrecision(3)} req/s), ` +
      `replayed on each replica scaled to its rate (times x ${r.toPrecision(3)} / rate)`;
  } else {
    arrivals = describeArrivals(arrivalAt(load, load.rate)).replace(/ at [\d.e+-]+ requests\/s/, '');
  }
  if (!trace) return { arrivals, prompt: describeLength(load.prompt), output: describeLength(load.output) };
  const t = trace.trace;
  const rows = `${trace.file}'s first ${Math.min(load.requests, t.rows)} rows${t.rows < load.requests ? ` cycled over ${load.requests} requests` : ''}`;
  return {
    arrivals,
    prompt: `${rows} (${t.lengthRule}), mean ${meanLength(load.prompt).toFixed(0)} tokens`,
    output: `the same rows' outputs, mean ${meanLength(load.output).toFixed(0)} tokens`,
  };
}
