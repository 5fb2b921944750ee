/**
 * Accuracy metrics of predicted against measured times. APE = |y − ŷ| / y (y measured).
 * Percentiles interpolate linearly between order statistics (numpy's default). Pure.
 */

export interface Metrics {
  /** Number of (measured, predicted) pairs. */
  count: number;
  /** Mean APE, %. */
  mape: number;
  /** Median APE, %. */
  medianApe: number;
  /** Root mean squared percentage error: sqrt(mean(((y − ŷ) / y)²)) · 100, %. */
  rmspe: number;
  /** 90th percentile of APE, %. */
  p90Ape: number;
  /** Largest APE, %. */
  maxApe: number;
  /** Share of pairs with APE ≤ 5 %, in % of `count` (0–100). */
  within5: number;
  /** Share of pairs with APE ≤ 10 %, in % of `count` (0–100). */
  within10: number;
  /** Share of pairs with APE ≤ 15 %, in % of `count` (0–100). */
  within15: number;
  /** Spearman rank correlation of measured and predicted (ties get average ranks), −1…1. */
  spearman: number;
  /** Share of measured times inside the prediction's 90% band, % (NaN without bands). */
  bandCoverage: number;
  /** Median of the band's upper half-width, high / predicted − 1, % (NaN without bands). */
  bandHalfWidth: number;
}

/** A prediction's band, µs. */
export interface BandOf {
  lowUs: number;
  highUs: number;
}
// Every value but `count` is NaN when count is 0 (JSON writes null); spearman is NaN when
// count < 2 or either side is constant.

/** |y − ŷ| / y as a fraction; throws on a non-positive or non-finite measured time. */
export function ape(actual: number, predicted: number): number {
  if (!(actual > 0) || !Number.isFinite(actual)) throw new RangeError(`measured time must be > 0, got ${actual}`);
  if (!Number.isFinite(predicted)) throw new RangeError(`predicted time must be finite, got ${predicted}`);
  return Math.abs(actual - predicted) / actual;
}

/** Quantile q ∈ [0, 1] of ascending `sorted`, linear between order statistics. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a + (b - a) * (pos - lo);
}

/** 1-based ranks; tied values share the average of their ranks. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((x, y) => x[0] - y[0]);
  const ranks = new Array<number>(values.length).fill(0);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.[0] === order[start]?.[0]) end++;
    const rank = (start + end) / 2 + 1;
    for (let j = start; j <= end; j++) ranks[order[j]?.[1] ?? 0] = rank;
    start = end + 1;
  }
  return ranks;
}

/** Pearson correlation of the average ranks; NaN when undefined. */
export function spearman(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`spearman needs equal lengths, got ${a.length} and ${b.length}`);
  if (a.length < 2) return NaN;
  const ra = averageRanks(a);
  const rb = averageRanks(b);
  const mean = (a.length + 1) / 2; // mean of ranks 1..n, ties included
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < ra.length; i++) {
    const da = (ra[i] as number) - mean;
    const db = (rb[i] as number) - mean;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return saa === 0 || sbb === 0 ? NaN : sab / Math.sqrt(saa * sbb);
}

const TOLERANCE = 1e-12; // so 105 vs 100 counts as within ±5 % despite rounding

export function computeMetrics(
  actual: readonly number[],
  predicted: readonly number[],
  bands?: readonly BandOf[],
): Metrics {
  if (actual.length !== predicted.length) {
    throw new RangeError(
      `metrics need as many predictions as measurements, got ${predicted.length} and ${actual.length}`,
    );
  }
  const n = actual.length;
  const apes = actual.map((y, i) => ape(y, predicted[i] as number));
  const sorted = [...apes].sort((x, y) => x - y);
  const share = (limit: number): number => (100 * apes.filter((e) => e <= limit + TOLERANCE).length) / n;
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / n;
  return {
    count: n,
    mape: 100 * mean(apes),
    medianApe: 100 * quantile(sorted, 0.5),
    rmspe: 100 * Math.sqrt(mean(apes.map((e) => e * e))),
    p90Ape: 100 * quantile(sorted, 0.9),
    maxApe: n === 0 ? NaN : 100 * (sorted[n - 1] as number),
    within5: share(0.05),
    within10: share(0.1),
    within15: share(0.15),
    spearman: spearman(actual, predicted),
    ...bandMetrics(actual, predicted, bands),
  };
}

function bandMetrics(
  actual: readonly number[],
  predicted: readonly number[],
  bands: readonly BandOf[] | undefined,
): Pick<Metrics, 'bandCoverage' | 'bandHalfWidth'> {
  const none = { bandCoverage: NaN, bandHalfWidth: NaN };
  if (!bands || bands.length !== actual.length || actual.length === 0) return none;
  // A predictor without a band (the roofline's low = high) is not scored as one that always misses.
  if (bands.every((b) => b.lowUs === b.highUs)) return none;
  const inside = bands.filter((b, i) => (actual[i] as number) >= b.lowUs && (actual[i] as number) <= b.highUs);
  const widths = bands.map((b, i) => b.highUs / (predicted[i] as number) - 1).sort((x, y) => x - y);
  return { bandCoverage: (100 * inside.length) / actual.length, bandHalfWidth: 100 * quantile(widths, 0.5) };
}
