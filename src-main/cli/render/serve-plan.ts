/**
 * `serve-plan`'s text: the ranked deployments (GPU kind, GPUs per replica, TP, weights, replicas,
 * cost, percentiles, breaking rate), each figure that the engine model predicts with its engine's
 * band in brackets, the latency-vs-rate table of the cheapest, the prices and whether they are
 * defaults, and one line naming the closest deployment when none meets.
 */
import { count, noun } from '../../core/text/plural.js';
import type { BandedFigure, ReplicaFigures, ReplicaSeriesPoint } from '../../core/planner/serving/replica-figures.js';
import { SLO_METRICS } from '../../core/planner/serving/serving-plan-request.js';
import type {
  ServingBand,
  ServingDeploymentView,
  ServingPlanView,
} from '../../core/planner/serving/serving-plan-answer.js';
import { tableRows } from '../output.js';

const short = (name: string): string => name.replace(/^NVIDIA (GeForce |Tesla )?/, '');

function ms(v: number): string {
  if (v >= 1000) return `${(v / 1000).toFixed(v >= 10_000 ? 0 : 2)} s`;
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ms`;
}

const num = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** A latency and how far off it may be: the engine's band scales the time. */
function latency(v: number, band: ServingBand | null): string {
  return band ? `${ms(v)} [${ms(v * band.low)}-${ms(v * band.high)}]` : `${ms(v)} [no band]`;
}

/** A rate the replica holds scales inversely with its step times. */
function rateText(v: number | null, band: ServingBand | null): string {
  if (v === null) return '-';
  return band ? `${num(v)} [${num(v / band.high)}-${num(v / band.low)}]` : num(v);
}

/** "1 x 2 H100 SXM5 80GB bf16 (vLLM)". */
function deploymentText(d: ServingDeploymentView): string {
  const split = d.pp > 1 ? `, ${d.pp} stages` : d.tp > 1 ? `, TP ${d.tp}` : '';
  return `${d.replicas} x ${d.gpusPerReplica} ${short(d.gpu)} ${d.weights} (${d.engineTitle}${split})`;
}

function sloText(p: Pick<ServingPlanView, 'slo'>): string {
  return p.slo.map((c) => `${SLO_METRICS[c.metric].title} ${c.percentile} <= ${ms(c.ms)}`).join(', ');
}

function deploymentRows(p: ServingPlanView): string[] {
  return tableRows(
    [
      '#',
      'GPU',
      'GPUS/REPLICA',
      'TP',
      'WEIGHTS',
      'ENGINE',
      'REPLICAS',
      '$/H',
      '$/M TOKENS',
      'TTFT P50',
      'TTFT P90',
      'TPOT P50',
      'TPOT P90',
      'BREAKS AT REQ/S',
    ],
    p.deployments.map((d, i) => [
      i + 1,
      short(d.gpu),
      d.gpusPerReplica,
      d.pp > 1 ? `${d.tp} (${d.pp} stages)` : d.tp,
      d.weights,
      d.engineTitle,
      d.replicas,
      d.perHour === null ? 'no price' : d.perHour.toFixed(2),
      d.perMillionTokens === null ? '-' : d.perMillionTokens.toFixed(3),
      ms(d.ttftMs.p50),
      latency(d.ttftMs.p90, d.band),
      ms(d.tpotMs.p50),
      latency(d.tpotMs.p90, d.band),
      rateText(d.breaksAt, d.band),
    ]),
  );
}

/** A figure and its range under the engine's band ("[no band]" without one). */
function banded(f: BandedFigure, fmt: (v: number) => string): string {
  return f.range ? `${fmt(f.value)} [${fmt(f.range[0])}-${fmt(f.range[1])}]` : `${fmt(f.value)} [no band]`;
}

const pct = (v: number): string => `${v >= 10 ? v.toFixed(0) : v.toFixed(1)}%`;
const queueNum = (v: number): string => (v >= 10 ? v.toFixed(0) : v.toFixed(1));

/** "goodput 4.9 [4.8-5.0] req/s per replica (98% ...); KV use mean 41% ..., peak 78% ...; queue mean 0.3 ..., peak 6 ... requests". */
function replicaText(r: ReplicaFigures): string {
  return (
    `goodput ${banded(r.goodput, num)} req/s per replica (${banded(r.goodShare, (v) => pct(v * 100))} of requests within every cap); ` +
    `KV use mean ${banded(r.kvUsePct.mean, pct)}, peak ${banded(r.kvUsePct.peak, pct)}; ` +
    `queue mean ${banded(r.queue.mean, queueNum)}, peak ${banded(r.queue.peak, (v) => v.toFixed(0))} ${noun(r.queue.peak.value, 'request')} waiting`
  );
}

/** Where a series peaks: the first slice holding its largest value. */
function peakAt(points: readonly ReplicaSeriesPoint[]): ReplicaSeriesPoint | undefined {
  return points.reduce<ReplicaSeriesPoint | undefined>((best, p) => (!best || p.max > best.max ? p : best), undefined);
}

/** The cheapest's KV use and queue over the run, summarised: where each peaks and how long it stays above half its peak. */
function seriesText(d: ServingDeploymentView): string | null {
  const s = d.series;
  if (!s || s.kvUsePct.length === 0) return null;
  const kv = peakAt(s.kvUsePct);
  const q = peakAt(s.queue);
  const above = (pts: readonly ReplicaSeriesPoint[], peak: number): number =>
    peak > 0 ? (pts.filter((p) => p.mean >= peak / 2).length / pts.length) * 100 : 0;
  const kvPeak = kv?.max ?? 0;
  const qPeak = q?.max ?? 0;
  return (
    `over time, one replica of ${deploymentText(d)} (${count(s.kvUsePct.length, 'slice')} of ${num(s.sliceS)} s; --json has the series): ` +
    `KV use peaks at ${pct(kvPeak)} near ${num(kv?.atS ?? 0)} s and is above half that ${pct(above(s.kvUsePct, kvPeak))} of the time; ` +
    (qPeak > 0
      ? `queue peaks at ${count(qPeak, 'request')} near ${num(q?.atS ?? 0)} s, above half that ${pct(above(s.queue, qPeak))} of the time`
      : 'no request waits')
  );
}

function curveRows(d: ServingDeploymentView): string[] {
  return tableRows(
    ['REQ/S', 'TTFT P50', 'TTFT P90', 'TTFT P99', 'TPOT P50', 'TPOT P90', 'TPOT P99', 'MEETS SLO'],
    d.curve.map((c) => [
      num(c.rate),
      ms(c.ttftMs.p50),
      ms(c.ttftMs.p90),
      ms(c.ttftMs.p99),
      ms(c.tpotMs.p50),
      ms(c.tpotMs.p90),
      ms(c.tpotMs.p99),
      c.meets ? 'yes' : 'no',
    ]),
  );
}

/** The one line when nothing meets the SLO: the closest deployment and its percentiles. */
export function nothingMeetsText(p: ServingPlanView): string {
  const head = `nothing meets ${sloText(p)} at ${num(p.load.rate)} req/s`;
  const c = p.closest;
  if (!c) return `${head}: no candidate GPU holds ${p.model} with one request's KV cache (see --virtual, --weights)`;
  const at = c.replicas > 0 ? `with ${c.replicas} replicas` : 'even at a trickle';
  return (
    `${head}; closest: ${deploymentText(c)} ${at}: TTFT p50 ${ms(c.ttftMs.p50)} p90 ${ms(c.ttftMs.p90)} p99 ${ms(c.ttftMs.p99)}, ` +
    `TPOT p50 ${ms(c.tpotMs.p50)} p90 ${ms(c.tpotMs.p90)} p99 ${ms(c.tpotMs.p99)}`
  );
}

/** The load in the header: fixed lengths as counts, a distribution in words, a trace by its means; bursts or a trace's times named. */
function loadText(l: ServingPlanView['load']): string {
  const d = l.described;
  const fixed = /^\d+ tokens?$/.test(d.prompt) && /^\d+ tokens?$/.test(d.output);
  const traced = d.prompt.includes("'s first ");
  const lengths = fixed
    ? `prompt ${l.prompt}, output ${count(l.output, 'token')}`
    : traced
      ? `prompt ${l.prompt}, output ${count(l.output, 'token')} on average, from the trace${d.prompt.includes('no tokenizer') ? ', lengths approximated as ceil(characters / 4)' : ''}`
      : `prompt ${d.prompt}, output ${d.output}; mean ${l.prompt} and ${l.output}`;
  const arrivals = d.arrivals.includes('arrival times')
    ? "the trace's arrival times scaled to the rate"
    : l.burst !== undefined
      ? `bursts, gaps' CV ${l.burst}`
      : '';
  return arrivals ? `${lengths}; ${arrivals}` : lengths;
}

export function servePlanText(p: ServingPlanView): string[] {
  const l = p.load;
  const lines = [
    `${p.model} at ${num(l.rate)} req/s (${loadText(l)}); SLO ${sloText(p)}`,
    `${p.meeting} deployments meet it of ${p.candidates} that hold the model (${p.skipped} skipped: could not beat those listed; ${p.simulations} simulations)`,
    ...deploymentRows(p),
  ];
  p.deployments.forEach((d, i) => {
    if (d.replica) lines.push(`#${i + 1} at ${num(d.perReplicaRate)} req/s per replica: ${replicaText(d.replica)}`);
  });
  const best = p.deployments[0];
  const overTime = best ? seriesText(best) : null;
  if (overTime) lines.push(overTime);
  if (best && best.curve.length > 0)
    lines.push(`latency vs rate, ${deploymentText(best)} (all replicas together):`, ...curveRows(best));
  for (const pr of p.prices)
    lines.push(
      pr.given
        ? `price: ${short(pr.gpu)} $${pr.perHour}/GPU-hour (given)`
        : `price: ${short(pr.gpu)} $${pr.perHour}/GPU-hour (default: ${pr.source?.name}, ${pr.source?.url}, read ${pr.source?.date}; --price to change)`,
    );
  const bands = [...new Map(p.deployments.filter((d) => d.band).map((d) => [d.engine, d])).values()];
  for (const d of bands)
    lines.push(
      `band: ${d.engineTitle}'s times were x${d.band?.low}-x${d.band?.high} of independent measurements (${d.band?.cells} held-out cells); brackets scale latencies by it and breaking rates inversely, and give goodput, KV use and queue simulated with every step time so scaled`,
    );
  for (const n of p.notes) lines.push(`note: ${n}`);
  return lines;
}
