/**
 * How the Serving view writes a capacity search's answer: a deployment in one line, its cost, its
 * engine's band, where the prices came from, and its curve as the latency-vs-rate chart reads it.
 * Pure.
 */
import type {
  LatencyPercentiles,
  ServingBand,
  ServingCurvePoint,
  ServingDeploymentView,
  ServingPlanView,
  ServingPriceView,
  SloCap,
} from '../../../src-main/api/view-models.js';
import type { LatencyMetric, LatencySlo, RatePoint } from './latency-rate.js';
import { formatNumber, formatTime, plural } from './format.js';

/** One replica: "2× H100 SXM5 (TP2) · fp8". */
export function replicaText(d: ServingDeploymentView): string {
  const split = d.pp > 1 ? `TP${d.tp}×PP${d.pp}` : `TP${d.tp}`;
  const gpus = `${d.gpusPerReplica > 1 ? `${d.gpusPerReplica}× ` : ''}${d.gpu}${d.gpusPerReplica > 1 ? ` (${split})` : ''}`;
  return `${gpus} · ${d.weights}`;
}

/** "2× H100 SXM5 (TP2) · fp8 · 3 replicas". */
export function deploymentText(d: ServingDeploymentView): string {
  return `${replicaText(d)} · ${d.replicas} ${d.replicas === 1 ? 'replica' : 'replicas'}`;
}

/** The capped percentiles against their caps: "p90 TTFT 1.4 s (1.2 s – 2 s), cap 1 s · ...". */
export function cappedText(d: ServingDeploymentView, caps: readonly SloCap[]): string {
  return caps
    .map((c) => {
      const v = (c.metric === 'ttft' ? d.ttftMs : d.tpotMs)[c.percentile];
      return `${c.percentile} ${c.metric.toUpperCase()} ${withBand(v, d.band)}, cap ${formatTime(c.ms * 1000)}`;
    })
    .join(' · ');
}

/** Dollars: "$2.50", "$0.042", "—" for none. */
export function formatDollars(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '—';
  return v >= 1 ? `$${v.toFixed(2)}` : `$${formatNumber(v, 2)}`;
}

/** "0.81x–1.42x the predicted times (90% of 23 independent measurements)"; null: the engine has no band yet. */
export function bandText(b: ServingBand | null): string {
  if (!b) return 'no band yet: too few independent measurements of this engine to say how far off';
  return `measured ${b.low.toFixed(2)}x–${b.high.toFixed(2)}x the predicted times (90% of ${b.cells} independent measurements)`;
}

/** A percentile figure's range under the band: "680 ms – 1.19 s"; null without a band. */
export function bandRange(ms: number, b: ServingBand | null): string | null {
  return b ? `${formatTime(ms * 1000 * b.low)} – ${formatTime(ms * 1000 * b.high)}` : null;
}

/** A percentile figure with its range under the band: "840 ms (680 ms – 1.19 s)". */
export function withBand(ms: number, b: ServingBand | null): string {
  const range = bandRange(ms, b);
  return range ? `${formatTime(ms * 1000)} (${range})` : formatTime(ms * 1000);
}

/**
 * The load in a few words: "prompt 2000 + 300 output tokens" when both are fixed, else the mean of
 * each drawn or traced one ("prompts mean 2,390 + 300 output tokens"), then bursts' CV where given.
 * What each is drawn from is in the answer's notes.
 */
export function loadText(load: ServingPlanView['load']): string {
  // A fixed length is described as a bare count ("300 tokens"); a drawn or traced one in words.
  const fixed = (what: 'prompt' | 'output'): boolean => /^\d+ tokens?$/.test(load.described[what]);
  const prompt = fixed('prompt') ? `prompt ${load.prompt}` : `prompts mean ${formatNumber(load.prompt)}`;
  const output = fixed('output') ? plural(load.output, 'output token') : `outputs mean ${plural(load.output, 'token')}`;
  const burst = load.burst !== undefined && load.burst !== 1 ? ` · bursts, CV ${formatNumber(load.burst)}` : '';
  return `${prompt} + ${output}${burst}`;
}

/** "p90 TTFT < 1 s · p90 TPOT < 50 ms". */
export function sloText(caps: readonly SloCap[]): string {
  return caps.map((c) => `${c.percentile} ${c.metric.toUpperCase()} < ${formatTime(c.ms * 1000)}`).join(' · ');
}

/**
 * Where the prices came from: "Prices are defaults from SOURCE, DATE (GPU $/h, ...)" for each source
 * of shipped defaults, then the prices given; null when there are none.
 */
export function pricesNote(prices: readonly ServingPriceView[]): string | null {
  const bySource = new Map<string, ServingPriceView[]>();
  const given: ServingPriceView[] = [];
  for (const p of prices) {
    if (p.given || !p.source) {
      given.push(p);
      continue;
    }
    const key = `${p.source.name}, ${p.source.date}`;
    bySource.set(key, [...(bySource.get(key) ?? []), p]);
  }
  const list = (ps: ServingPriceView[]): string => ps.map((p) => `${p.gpu} ${formatDollars(p.perHour)}/h`).join(', ');
  const parts: string[] = [];
  const defaults = [...bySource].map(([src, ps]) => `${src} (${list(ps)})`);
  if (defaults.length > 0) parts.push(`Prices are defaults from ${defaults.join(' and ')}`);
  if (given.length > 0) parts.push(`${parts.length > 0 ? 'prices' : 'Prices'} given: ${list(given)}`);
  return parts.length > 0 ? `${parts.join('; ')}.` : null;
}

/** The distinct sources of default prices, to link. */
export function priceSources(prices: readonly ServingPriceView[]): { name: string; url: string; date: string }[] {
  const seen = new Map<string, { name: string; url: string; date: string }>();
  for (const p of prices) if (!p.given && p.source) seen.set(p.source.url, p.source);
  return [...seen.values()];
}

const us = (p: LatencyPercentiles): Record<string, number> => ({
  p50: p.p50 * 1000,
  p90: p.p90 * 1000,
  p99: p.p99 * 1000,
});

/** A deployment's curve as the chart reads it (µs). */
export function curvePoints(curve: readonly ServingCurvePoint[]): RatePoint[] {
  return curve.map((c) => ({ rate: c.rate, ttft: us(c.ttftMs), tpot: us(c.tpotMs) }));
}

/** The caps drawn on each panel (µs), the highest percentile first (the band is drawn around it). */
export function chartSlo(caps: readonly SloCap[]): Record<LatencyMetric, LatencySlo[]> {
  const of = (metric: LatencyMetric): LatencySlo[] =>
    caps
      .filter((c) => c.metric === metric)
      .map((c) => ({ percentile: Number(c.percentile.slice(1)), us: c.ms * 1000 }))
      .sort((a, b) => b.percentile - a.percentile);
  return { ttft: of('ttft'), tpot: of('tpot') };
}

type ReplicaFigures = NonNullable<ServingDeploymentView['replica']>;
type Banded = ReplicaFigures['goodput'];

const ranged = (f: Banded, fmt: (v: number) => string): string =>
  f.range ? `${fmt(f.value)} (${fmt(f.range[0])} – ${fmt(f.range[1])})` : fmt(f.value);

/**
 * One replica at the asked rate, each figure with its range under the band: "goodput 4.9 (4.2 – 5)
 * requests/s each, 98% (85% – 100%) within the SLO · KV cache mean 32% (…), peak 75% (…) · queue peak 2 (…)".
 */
export function replicaFiguresText(r: ReplicaFigures): string {
  const pct = (v: number): string => `${formatNumber(v, 2)}%`;
  return (
    `goodput ${ranged(r.goodput, (v) => formatNumber(v))} requests/s each, ` +
    `${ranged(r.goodShare, (v) => pct(v * 100))} within the SLO · ` +
    `KV cache mean ${ranged(r.kvUsePct.mean, pct)}, peak ${ranged(r.kvUsePct.peak, pct)} · ` +
    `queue mean ${ranged(r.queue.mean, (v) => formatNumber(v, 2))}, peak ${ranged(r.queue.peak, (v) => v.toFixed(0))} waiting`
  );
}
