/**
 * The 90% band of a whole-model prediction, by split conformal prediction over held-out
 * residuals: the log ratios measured / predicted of other models' checks (measure-model runs on
 * the same device and thread count, leave-one-model-out), and when too few, the shipped residuals
 * of the prediction bench's models measured on CPUs of this project's kinds. Pure.
 *
 * For n exchangeable residuals r_i, the interval predicted x exp(+-q), q the ceil((n + 1) 0.9)-th
 * smallest |r_i|, holds the measured time with probability at least 0.9 (Vovk et al.; Lei et al.
 * 2018, "Distribution-free predictive inference for regression"); it needs n >= 9.
 *
 * Residuals are taken by class first (Mondrian conformal prediction): models predicted under
 * SMALL_MODEL_US, where the per-run and per-node overheads are a fifth to a half of the time and
 * errors run larger, apart from the others; then by thread count. A class with too few
 * residuals borrows from all of them.
 */

const BAND_COVERAGE = 0.9;

/** One model checked: log(measured / predicted) of its whole run at a thread count. */
export interface Residual {
  /** What identifies the model (its content hash, else its name): its own checks are left out. */
  model: string;
  threads: number | null;
  logRatio: number;
  /** The prediction it was measured against (µs), which sets its class. */
  predictedUs: number;
}

/** Models predicted under this (µs) form a class of their own: overhead-bound, with larger errors. */
const SMALL_MODEL_US = 100;

const isSmall = (us: number): boolean => us < SMALL_MODEL_US;

export interface ModelBand {
  lowUs: number;
  highUs: number;
  /** The half-width in log space: the band is the prediction times exp(-q) to exp(q). */
  q: number;
  /** Residuals the band stands on, and where they came from. */
  n: number;
  from: 'checks' | 'checks+shipped' | 'shipped';
}

/** The rank of the conformal quantile among n residuals (1-based), robust to 0.9's binary rounding. */
const rank = (n: number): number => Math.ceil((n + 1) * BAND_COVERAGE - 1e-9);

/** The conformal half-width of `residuals` (|log ratio|), or null with too few for its rank (fewer than 9 at 90%). */
export function conformalQ(residuals: readonly number[]): number | null {
  const n = residuals.length;
  const k = rank(n);
  if (k > n) return null;
  const sorted = residuals.map(Math.abs).sort((a, b) => a - b);
  return sorted[k - 1] as number;
}

/**
 * The band of a prediction: the other models' checks at this thread count, or at any thread
 * count, pooled with the shipped residuals when the checks alone are too few.
 */
export function modelBand(
  predictedUs: number,
  own: { model: string; threads: number | null },
  checks: readonly Residual[],
  shipped: readonly Residual[],
): ModelBand {
  const small = isSmall(predictedUs);
  const others = checks.filter((r) => r.model !== own.model);
  const shippedOthers = shipped.filter((r) => r.model !== own.model);
  const sameClass = (rs: readonly Residual[]): Residual[] => rs.filter((r) => isSmall(r.predictedUs) === small);
  const pick = (rs: readonly Residual[]): number[] => rs.map((r) => r.logRatio);
  const pooled = others.length > 0 ? 'checks+shipped' : 'shipped';
  const candidates: [number[], ModelBand['from']][] = [
    [pick(sameClass(others).filter((r) => r.threads === own.threads)), 'checks'],
    [pick(sameClass(others)), 'checks'],
    [pick([...sameClass(others), ...sameClass(shippedOthers)]), pooled],
    [pick(others), 'checks'],
    [pick([...others, ...shippedOthers]), pooled],
  ];
  for (const [rs, from] of candidates) {
    const q = conformalQ(rs);
    if (q !== null)
      return { lowUs: predictedUs * Math.exp(-q), highUs: predictedUs * Math.exp(q), q, n: rs.length, from };
  }
  // Too few residuals even with the shipped ones: the widest seen stands for the band.
  const all = [...pick(others), ...pick(shipped)].map(Math.abs);
  const q = all.length > 0 ? Math.max(...all) : Math.log(2);
  return { lowUs: predictedUs * Math.exp(-q), highUs: predictedUs * Math.exp(q), q, n: all.length, from: 'shipped' };
}

/** "+-23%": the band's half-width as a percentage above the prediction. */
export function bandPercent(b: Pick<ModelBand, 'q'>): string {
  return `-${(100 * (1 - Math.exp(-b.q))).toFixed(0)}%/+${(100 * (Math.exp(b.q) - 1)).toFixed(0)}%`;
}
