/**
 * When a serving load's requests arrive: all at once (offline), a closed loop of users (the
 * simulator starts each when one ends), Poisson arrivals at a rate, bursts (gamma-distributed gaps
 * at a rate with a coefficient of variation over 1: the same mean rate, arrivals bunched), or the
 * times a trace gives. Seeded: the same seed gives the same arrivals anywhere. Pure.
 */
import { UsageError } from '../errors.js';

export type ArrivalSpec =
  | { kind: 'offline' }
  | { kind: 'concurrency'; users: number }
  | { kind: 'rate'; perSecond: number; seed?: number }
  /** Gaps gamma-distributed with mean 1/perSecond and coefficient of variation `cv` (1 is Poisson). */
  | { kind: 'burst'; perSecond: number; cv: number; seed?: number }
  /** Arrival times (s) in order, as a trace gives them; the load runs at most their count. */
  | { kind: 'trace'; atSeconds: ArrayLike<number> };

/**
 * Uniform in (0, 1) from a small LCG (Numerical Recipes' constants), as the Poisson arrivals have
 * always used, so a seed gives the same arrivals it gave before bursts and lengths came.
 */
export function servingRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 2 ** 32;
  };
}

/** A standard normal draw (Box-Muller on two uniforms). */
export function normalDraw(u: () => number): number {
  return Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

/** A gamma draw of shape `k` and scale 1 (Marsaglia and Tsang 2000; shape under 1 by the u^(1/k) boost). */
function gammaDraw(k: number, u: () => number): number {
  if (k < 1) return gammaDraw(k + 1, u) * u() ** (1 / k);
  const d = k - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normalDraw(u);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const w = u();
    if (w < 1 - 0.0331 * x ** 4 || Math.log(w) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** The requests a load runs: a trace gives at most its rows. */
export function arrivalCount(spec: ArrivalSpec, requests: number): number {
  return spec.kind === 'trace' ? Math.min(requests, spec.atSeconds.length) : requests;
}

function checkRate(perSecond: number): void {
  if (!(perSecond > 0) || !Number.isFinite(perSecond)) {
    throw new UsageError(`a request rate must be a positive number of requests per second, not ${perSecond}`);
  }
}

/**
 * Arrival times (µs) of the first `n` requests, the first at 0 for generated arrivals and at the
 * trace's own time for a trace. Offline and closed-loop loads arrive at 0 (the simulator restarts a
 * closed loop's requests as others end).
 */
export function arrivalTimesUs(spec: ArrivalSpec, n: number): Float64Array {
  const out = new Float64Array(n);
  if (spec.kind === 'offline' || spec.kind === 'concurrency') return out;
  if (spec.kind === 'trace') {
    for (let i = 0; i < n; i++) {
      const t = spec.atSeconds[i] as number;
      if (!Number.isFinite(t) || (i > 0 && t < (spec.atSeconds[i - 1] as number))) {
        throw new UsageError(`trace row ${i + 1}: arrival time ${t} is not a time at or after the row before`);
      }
      out[i] = t * 1e6;
    }
    return out;
  }
  checkRate(spec.perSecond);
  const u = servingRandom(spec.seed ?? 1);
  const meanUs = 1e6 / spec.perSecond;
  let gap: () => number;
  if (spec.kind === 'rate') {
    gap = () => -Math.log(u()) * meanUs;
  } else {
    if (!(spec.cv > 0) || spec.cv > 100) throw new UsageError(`a burst's CV must be in (0, 100], not ${spec.cv}`);
    // Shape 1/cv² and scale mean·cv²: mean 1/rate, standard deviation cv/rate.
    const shape = 1 / (spec.cv * spec.cv);
    gap = () => gammaDraw(shape, u) * meanUs * spec.cv * spec.cv;
  }
  let t = 0;
  for (let i = 0; i < n; i++) {
    out[i] = t;
    t += gap();
  }
  return out;
}

/** One line for the output: how the requests arrive. */
export function describeArrivals(spec: ArrivalSpec): string {
  switch (spec.kind) {
    case 'offline':
      return 'all at once (offline)';
    case 'concurrency':
      return `a closed loop of ${spec.users} users`;
    case 'rate':
      return `Poisson at ${spec.perSecond} requests/s (seed ${spec.seed ?? 1})`;
    case 'burst':
      return `bursts at ${spec.perSecond} requests/s, gaps gamma with CV ${spec.cv} (seed ${spec.seed ?? 1})`;
    case 'trace':
      return `a trace's ${spec.atSeconds.length} arrival times`;
  }
}
