/**
 * What one replica does at the asked per-replica rate besides its latencies: goodput under the SLO
 * (the share of requests whose own TTFT and TPOT are within every cap, times the rate), the KV
 * cache's use (% of the replica's KV capacity) and the queue (requests waiting), mean and peak, and
 * the same over time for a chart. How far off they may be: the engine's band scales every step
 * time by x low..x high, and a replica whose steps are k times slower at rate r is the nominal one
 * at rate k r with every time k times longer (the same requests, arrivals compressed), so the
 * bracket is the nominal simulation at r x low and r x high, its latencies scaled by the same
 * factor. Queue lengths and cache use do not depend on the time scale. Pure.
 */
import type { ServingRun } from '../../engines/engine-figures.js';
import { ttftOf, tpotOf } from '../../serving/serving-metrics.js';
import type { Series } from '../../serving/timeline.js';
import type { ServingBand } from './serving-plan-answer.js';
import type { SloCap } from './serving-plan-request.js';

/** A figure and, where the engine has a band, its range under that band (low <= value <= high). */
export interface BandedFigure {
  value: number;
  range: [number, number] | null;
}

export interface ReplicaFigures {
  /** Requests simulated at the asked per-replica rate. */
  requests: number;
  /** Requests/s per replica whose own TTFT and TPOT meet every cap, and their share of all requests (0..1). */
  goodput: BandedFigure;
  goodShare: BandedFigure;
  /** KV cache held (and reserved for prompts being prefilled), % of the replica's KV capacity: time-weighted mean and peak. */
  kvUsePct: { mean: BandedFigure; peak: BandedFigure };
  /** Requests waiting (arrived, not running): time-weighted mean and peak. */
  queue: { mean: BandedFigure; peak: BandedFigure };
}

/** A series point: from the first arrival (s), the slice's time-weighted mean and its largest value. */
export interface ReplicaSeriesPoint {
  atS: number;
  mean: number;
  max: number;
}

/** KV use (%) and the queue (requests) over the run at the asked rate, in equal slices (at most 200 points). */
export interface ReplicaSeries {
  sliceS: number;
  kvUsePct: ReplicaSeriesPoint[];
  queue: ReplicaSeriesPoint[];
}

/** Share of the run's requests whose own latencies, scaled by `scale`, are within every cap. */
export function goodShare(run: Pick<ServingRun, 'sim'>, slo: readonly SloCap[], scale = 1): number {
  const reqs = run.sim.requests;
  if (reqs.length === 0) return 0;
  const cap = (metric: SloCap['metric']): number =>
    Math.min(...slo.filter((c) => c.metric === metric).map((c) => c.ms * 1000));
  const [ttftCap, tpotCap] = [cap('ttft'), cap('tpot')];
  let good = 0;
  for (const r of reqs) {
    // A one-token answer has no TPOT (NaN): it meets any TPOT cap.
    if (ttftOf(r) * scale <= ttftCap && !(tpotOf(r) * scale > tpotCap)) good++;
  }
  return good / reqs.length;
}

/** Time-weighted mean of a series (its slices are equal). */
const seriesMean = (s: Series): number =>
  s.points.length > 0 ? s.points.reduce((sum, p) => sum + p.mean, 0) / s.points.length : 0;

interface Nominal {
  share: number;
  kvMean: number;
  kvPeak: number;
  queueMean: number;
  queuePeak: number;
}

function nominal(run: Pick<ServingRun, 'sim'>, slo: readonly SloCap[], kvTokens: number, scale: number): Nominal {
  const pct = (tokens: number): number => (kvTokens > 0 ? (tokens / kvTokens) * 100 : 0);
  return {
    share: goodShare(run, slo, scale),
    kvMean: pct(run.sim.meanKvTokens),
    kvPeak: pct(run.sim.peakKvTokens),
    queueMean: seriesMean(run.sim.queueSeries),
    queuePeak: run.sim.queueSeries.peak,
  };
}

/**
 * The figures of `run` (one replica at `rate` requests/s), bracketed by `at(rate x band.low)` and
 * `at(rate x band.high)`: the nominal replica at those rates stands for a faster and a slower one.
 */
export function replicaFigures(
  run: Pick<ServingRun, 'sim'>,
  rate: number,
  slo: readonly SloCap[],
  kvTokens: number,
  band: ServingBand | null,
  at: (rate: number) => Pick<ServingRun, 'sim'>,
): ReplicaFigures {
  const mid = nominal(run, slo, kvTokens, 1);
  const ends = band
    ? [nominal(at(rate * band.low), slo, kvTokens, band.low), nominal(at(rate * band.high), slo, kvTokens, band.high)]
    : [];
  const fig = (f: (n: Nominal) => number): BandedFigure => {
    const v = f(mid);
    if (ends.length === 0) return { value: v, range: null };
    const xs = [v, ...ends.map(f)];
    return { value: v, range: [Math.min(...xs), Math.max(...xs)] };
  };
  return {
    requests: run.sim.requests.length,
    goodput: fig((n) => n.share * rate),
    goodShare: fig((n) => n.share),
    kvUsePct: { mean: fig((n) => n.kvMean), peak: fig((n) => n.kvPeak) },
    queue: { mean: fig((n) => n.queueMean), peak: fig((n) => n.queuePeak) },
  };
}

/** The run's KV-use and queue series: % of `kvTokens` and requests, times in seconds. */
export function replicaSeries(run: Pick<ServingRun, 'sim'>, kvTokens: number): ReplicaSeries {
  const { kvSeries, queueSeries } = run.sim;
  const points = (s: Series, k: number): ReplicaSeriesPoint[] =>
    s.points.map((p) => ({ atS: p.atUs / 1e6, mean: p.mean * k, max: p.max * k }));
  return {
    sliceS: kvSeries.sliceUs / 1e6,
    kvUsePct: points(kvSeries, kvTokens > 0 ? 100 / kvTokens : 0),
    queue: points(queueSeries, 1),
  };
}
