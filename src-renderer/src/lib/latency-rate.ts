/**
 * The latency-vs-rate chart's geometry: one panel per latency (time to first token, time per output
 * token), a line per percentile against the offered request rate, the SLO as a horizontal line, the
 * rate where the deployment breaks the SLO as a vertical one, and the band of how far off the SLO's
 * percentile may be. Pure, so the unit tests import it directly.
 */
import type { SloMetric } from '../../../src-main/api/view-models.js';
import { formatNumber, formatTime } from './format.js';
import { linearDomain, logDomain, type Scale } from './scales.js';

/** The latencies an SLO caps, as the contract names them; the chart draws a panel for each. */
export type LatencyMetric = SloMetric;

/** How the chart names each latency (one the contract adds does not compile until it is named here). */
export const LATENCY_LABELS: Record<LatencyMetric, { label: string; short: string }> = {
  ttft: { label: 'Time to first token', short: 'TTFT' },
  tpot: { label: 'Time per output token after the first', short: 'TPOT' },
};

/** One simulated rate: each metric's latency (µs) at each percentile, keyed "p50", "p90", ... */
export interface RatePoint {
  /** Offered requests per second. */
  rate: number;
  ttft: Readonly<Record<string, number>>;
  tpot: Readonly<Record<string, number>>;
}

/** An SLO on one metric: its percentile (90 for p90) must stay under `us`. */
export interface LatencySlo {
  percentile: number;
  us: number;
}

/** How far off a predicted time may be: the measured / predicted range (0.8 and 1.3 for 0.8x-1.3x). */
export interface TimeBand {
  low: number;
  high: number;
}

/** The y axis reaches at most this many times the lowest drawn latency; higher points sit on its top edge. */
export const MAX_SPAN = 100;

/** The percentiles the points carry, as numbers, ascending ("p50", "p90" -> [50, 90]). */
export function percentilesOf(points: readonly RatePoint[], metric: LatencyMetric): number[] {
  const seen = new Set<number>();
  for (const p of points) {
    for (const key of Object.keys(p[metric])) {
      const n = Number(key.replace(/^p/, ''));
      if (Number.isFinite(n) && n > 0 && n < 100) seen.add(n);
    }
  }
  return [...seen].sort((a, b) => a - b);
}

/** The latency at a percentile, or null where the point has none. */
export function latencyAt(point: RatePoint, metric: LatencyMetric, percentile: number): number | null {
  const v = point[metric][`p${percentile}`];
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : null;
}

/** The rate axis: from 0 to past the highest rate and the break rate, in round steps. */
export function rateDomain(points: readonly RatePoint[], breakRate: number | null): [number, number] {
  return linearDomain([...points.map((p) => p.rate), breakRate ?? 0]);
}

/**
 * A panel's latency axis (log): the drawn latencies, the SLO and its band's ends, in whole decades,
 * reaching at most MAX_SPAN times the lowest of them (a queue past saturation grows without end).
 */
export function latencyDomain(
  points: readonly RatePoint[],
  metric: LatencyMetric,
  slo: readonly LatencySlo[],
  band: TimeBand | null,
): [number, number] {
  const values: number[] = [];
  for (const p of points) for (const q of percentilesOf([p], metric)) values.push(latencyAt(p, metric, q) ?? NaN);
  for (const cap of slo) {
    values.push(cap.us);
    for (const b of bandValues(points, metric, cap.percentile, band)) values.push(b.low, b.high);
  }
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) return logDomain([]);
  const lowest = Math.min(...positive);
  return logDomain([lowest, Math.min(Math.max(...positive), lowest * MAX_SPAN)]);
}

/** y(v), held inside the axis: a point past its top sits on the top edge. */
export function clampedY(y: Scale, v: number): number {
  const [lo, hi] = y.domain;
  return y(Math.min(hi, Math.max(lo, v)));
}

/** The line of one percentile as SVG points; rates without a figure leave a gap (several runs of points). */
export function percentileLines(
  points: readonly RatePoint[],
  metric: LatencyMetric,
  percentile: number,
  x: Scale,
  y: Scale,
): string[] {
  const runs: string[] = [];
  let run: string[] = [];
  for (const p of points) {
    const v = latencyAt(p, metric, percentile);
    if (v === null) {
      if (run.length > 0) runs.push(run.join(' '));
      run = [];
      continue;
    }
    run.push(`${round(x(p.rate))},${round(clampedY(y, v))}`);
  }
  if (run.length > 0) runs.push(run.join(' '));
  return runs;
}

/** The band around one percentile's line at each rate that has a figure. */
export function bandValues(
  points: readonly RatePoint[],
  metric: LatencyMetric,
  percentile: number,
  band: TimeBand | null,
): { rate: number; low: number; high: number }[] {
  if (!band) return [];
  return points.flatMap((p) => {
    const v = latencyAt(p, metric, percentile);
    return v === null ? [] : [{ rate: p.rate, low: v * band.low, high: v * band.high }];
  });
}

/** The band as one SVG polygon (the high edge left to right, the low edge back); '' with under two rates. */
export function bandPolygon(
  points: readonly RatePoint[],
  metric: LatencyMetric,
  percentile: number,
  band: TimeBand | null,
  x: Scale,
  y: Scale,
): string {
  const b = bandValues(points, metric, percentile, band);
  if (b.length < 2) return '';
  const top = b.map((v) => `${round(x(v.rate))},${round(clampedY(y, v.high))}`);
  const bottom = b.reverse().map((v) => `${round(x(v.rate))},${round(clampedY(y, v.low))}`);
  return [...top, ...bottom].join(' ');
}

/** What the panel says to a screen reader: the lines, the SLO, where it breaks. */
export function panelLabel(
  metric: LatencyMetric,
  percentiles: readonly number[],
  slo: readonly LatencySlo[],
  breakRate: number | null,
): string {
  const lines = percentiles.map((p) => `p${p}`).join(', ');
  const parts = [`${LATENCY_LABELS[metric].label} against request rate${lines ? `: ${lines}` : ''}`];
  for (const cap of slo) parts.push(`SLO p${cap.percentile} under ${formatTime(cap.us)}`);
  parts.push(breakRate === null ? 'meets the SLO at every rate drawn' : `breaks at ${formatRate(breakRate)}`);
  return parts.join('; ');
}

/** A latency axis's tick: as formatTime writes it, but seconds past a minute ("100 s", not "1 min 40 s"). */
export function latencyTick(us: number): string {
  return us >= 60e6 ? `${formatNumber(us / 1e6)} s` : formatTime(us);
}

/** "18.5 requests/s". */
export function formatRate(rate: number): string {
  return `${formatNumber(rate)} requests/s`;
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
