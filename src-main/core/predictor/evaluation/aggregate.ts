/**
 * From per-sample test predictions to the report's aggregates, and the scatter subsample.
 * Buckets go by measured time. Pure.
 */
import { groupBy } from '../../util/group-by.js';
import { computeMetrics, type BandOf, type Metrics } from './metrics.js';
import { hash32 } from './random.js';
import type { PredictorSummary, ProtocolName, ScatterRow } from './types.js';

/** Size buckets of measured time: upper bound (exclusive), µs, and label. */
const SIZE_BUCKETS: readonly { maxUs: number; label: string }[] = [
  { maxUs: 10, label: '<10 µs tiny (timer noise dominates)' },
  { maxUs: 100, label: '10-100 µs' },
  { maxUs: 1000, label: '100 µs-1 ms' },
  { maxUs: 10000, label: '1-10 ms' },
  { maxUs: Infinity, label: '>10 ms' },
];

function sizeBucket(actualUs: number): string {
  return (SIZE_BUCKETS.find((b) => actualUs < b.maxUs) ?? SIZE_BUCKETS[SIZE_BUCKETS.length - 1])?.label ?? '';
}

function metricsOf(rows: readonly ScatterRow[]): Metrics {
  return computeMetrics(
    rows.map((r) => r.actualUs),
    rows.map((r) => r.predictedUs),
    bandsOf(rows),
  );
}

/** The rows' bands, when every row has one. */
function bandsOf(rows: readonly ScatterRow[]): BandOf[] | undefined {
  const bands = rows.flatMap((r) =>
    r.lowUs !== undefined && r.highUs !== undefined ? [{ lowUs: r.lowUs, highUs: r.highUs }] : [],
  );
  return bands.length === rows.length ? bands : undefined;
}

function metricsBy(rows: readonly ScatterRow[], keyOf: (r: ScatterRow) => string): Record<string, Metrics> {
  const out: Record<string, Metrics> = {};
  for (const [key, list] of groupBy(rows, keyOf)) out[key] = metricsOf(list);
  return out;
}

/** All aggregates of one predictor's rows under one protocol. */
export function summarise(rows: readonly ScatterRow[], tinyUs: number, bigUs: number): PredictorSummary {
  const families = [...new Set(rows.map((r) => r.family))].sort();
  const byFamilyAll = metricsBy(rows, (r) => r.family);
  const byFamily: Record<string, Metrics> = {};
  for (const f of families) byFamily[f] = byFamilyAll[f] as Metrics;
  const bySizeAll = metricsBy(rows, (r) => sizeBucket(r.actualUs));
  const bySize: Record<string, Metrics> = {};
  for (const { label } of SIZE_BUCKETS) if (bySizeAll[label]) bySize[label] = bySizeAll[label];
  return {
    overall: metricsOf(rows),
    above100us: metricsOf(rows.filter((r) => r.actualUs >= bigUs)),
    under10us: metricsOf(rows.filter((r) => r.actualUs < tinyUs)),
    byFamily,
    bySize,
  };
}

/** Summaries per predictor, in order of first appearance of the predictor in `rows`. */
export function summariseByPredictor(
  rows: readonly ScatterRow[],
  tinyUs: number,
  bigUs: number,
): Record<string, PredictorSummary> {
  const out: Record<string, PredictorSummary> = {};
  for (const [name, list] of groupBy(rows, (r) => r.predictor)) out[name] = summarise(list, tinyUs, bigUs);
  return out;
}

/**
 * At most `cap` rows, the same share for every (protocol, predictor). Within a protocol
 * a sample is tested once, so rows are picked by a fixed hash of the sample index: every
 * predictor of a protocol shows the same samples, and capping again gives the same rows.
 */
export function capScatter(
  rows: readonly ScatterRow[],
  cap: number,
  protocolOrder: readonly ProtocolName[],
): ScatterRow[] {
  const groups = groupBy(rows, (r) => JSON.stringify([r.protocol, r.predictor]));
  const allowance = groups.size === 0 ? 0 : Math.floor(Math.max(0, cap) / groups.size);
  const kept: ScatterRow[] = [];
  for (const list of groups.values()) {
    const picked = [...list].sort((a, b) => hash32(a.index) - hash32(b.index) || a.index - b.index);
    kept.push(...picked.slice(0, allowance));
  }
  const rank = (p: ProtocolName): number => protocolOrder.indexOf(p);
  return kept.sort(
    (a, b) =>
      rank(a.protocol) - rank(b.protocol) ||
      (a.predictor < b.predictor ? -1 : a.predictor > b.predictor ? 1 : 0) ||
      a.index - b.index,
  );
}
