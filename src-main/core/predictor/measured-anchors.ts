/**
 * Measured anchors: where the device's own profile timed the same elementwise kernel (same op,
 * dtype and shape but its element count n) at sizes on both sides of a query, the query's time
 * is read off the power law through the two nearest (a straight line in log-log: linear in n
 * where both are large, and bent like the cache cliffs between levels). A measurement beats a
 * learned guess: the forest learns log(time / floor) over every elementwise op at once, and
 * between two sizes of one op it follows its neighbours instead. On a 2-vCPU Zen 4 guest's quick profile (run X2's store),
 * Sigmoid at 50 k-600 k elements came out -30% to +31% off from a forest trained on Sigmoid at
 * 24.6 k and 1 M elements (0.30 and 0.32 ns per element), where one-node models of those sizes
 * took 0.35-0.42 ns per element.
 *
 * Above the largest size the line of the last two anchors is followed only when both stream
 * past the last-level cache (at least 2x L3 of bytes: the DRAM regime, linear in n); below the
 * smallest, or above it in cache, the wrapped predictor answers. The band keeps the wrapped
 * predictor's relative width. Pure.
 */
import { median } from '../profiler/timing-stats.js';
import type { OpInstance, OpQuery, Prediction, Predictor, PredictorJson, Sample } from './types.js';

/** One measured size of a series: elements, bytes moved, median time (µs). */
export interface AnchorPoint {
  n: number;
  bytes: number;
  timeUs: number;
}

/** Series by device, op, dtype and the shape's other dims; each sorted by n. */
export type AnchorIndex = ReadonlyMap<string, readonly AnchorPoint[]>;

/** The dim a series varies along. */
const SIZE_DIM = 'n';

/** A series extends above its largest size only when its last two sizes move this many L3s of bytes. */
const DRAM_L3_MULTIPLE = 2;

function seriesKey(deviceId: string, q: OpInstance): string | null {
  if (!Number.isFinite(q.shape[SIZE_DIM])) return null;
  const rest = Object.keys(q.shape)
    .filter((k) => k !== SIZE_DIM)
    .sort()
    .map((k) => `${k}=${q.shape[k]}`)
    .join(',');
  return `${deviceId}|${q.op}|${q.dtype}|${rest}`;
}

/** The series of the samples that have an element count (one point per size: the median time). */
export function anchorIndex(samples: readonly Sample[]): AnchorIndex {
  const bySize = new Map<string, Map<number, { bytes: number; times: number[] }>>();
  for (const s of samples) {
    const key = seriesKey(s.device.deviceId, s);
    if (key === null || !(s.timeUs > 0)) continue;
    const series = bySize.get(key) ?? new Map<number, { bytes: number; times: number[] }>();
    const n = s.shape[SIZE_DIM] as number;
    const point = series.get(n) ?? { bytes: s.bytes, times: [] };
    point.times.push(s.timeUs);
    series.set(n, point);
    bySize.set(key, series);
  }
  const out = new Map<string, AnchorPoint[]>();
  for (const [key, series] of bySize) {
    const points = [...series].map(([n, p]) => ({ n, bytes: p.bytes, timeUs: median(p.times) }));
    if (points.length >= 2)
      out.set(
        key,
        points.sort((a, b) => a.n - b.n),
      );
  }
  return out;
}

const lerp = (a: AnchorPoint, b: AnchorPoint, n: number): number =>
  a.timeUs + ((b.timeUs - a.timeUs) * (n - a.n)) / (b.n - a.n);

/** Between two sizes: the power law through them (a straight line in log-log). */
const between = (a: AnchorPoint, b: AnchorPoint, n: number): number =>
  a.timeUs * Math.exp((Math.log(b.timeUs / a.timeUs) * Math.log(n / a.n)) / Math.log(b.n / a.n));

/** The query's time read off its series, or null where the series does not bracket it. */
export function anchoredTimeUs(index: AnchorIndex, q: OpQuery): number | null {
  const key = seriesKey(q.device.deviceId, q);
  const points = key === null ? undefined : index.get(key);
  if (!points) return null;
  const n = q.shape[SIZE_DIM] as number;
  const above = points.findIndex((p) => p.n >= n);
  if (above >= 0 && (points[above] as AnchorPoint).n === n) return (points[above] as AnchorPoint).timeUs;
  if (above === 0) return null;
  if (above > 0) return between(points[above - 1] as AnchorPoint, points[above] as AnchorPoint, n);
  const [a, b] = points.slice(-2) as [AnchorPoint, AnchorPoint];
  const l3 = q.device.l3Bytes;
  if (!l3 || a.bytes < DRAM_L3_MULTIPLE * l3 || b.timeUs <= a.timeUs) return null;
  return lerp(a, b, n);
}

/**
 * A predictor answering from the device's measured series where they bracket a query, and
 * from the wrapped predictor elsewhere. Named as the wrapped one: it is that predictor, read
 * together with the profile it was trained on; training and storage are the wrapped one's.
 */
export class AnchoredPredictor implements Predictor {
  readonly name: string;
  readonly version: number;

  constructor(
    private readonly base: Predictor,
    private readonly index: AnchorIndex,
  ) {
    this.name = base.name;
    this.version = base.version;
  }

  train(samples: readonly Sample[]): void {
    this.base.train(samples);
  }

  predict(queries: readonly OpQuery[]): Prediction[] {
    return this.base.predict(queries).map((p, i) => {
      const t = anchoredTimeUs(this.index, queries[i] as OpQuery);
      if (t === null || !(t > 0) || !(p.timeUs > 0)) return p;
      const r = t / p.timeUs;
      return { timeUs: t, lowUs: p.lowUs * r, highUs: p.highUs * r, warning: p.warning };
    });
  }

  toJSON(): PredictorJson {
    return this.base.toJSON();
  }
}
