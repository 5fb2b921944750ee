/**
 * Timing statistics of repeated kernel runs, and the stopping rule of the profiler:
 * repeat until the 95% confidence interval of the median is within ±2% (or the time
 * budget is spent). Distribution-free: timings are skewed, so no normal assumption
 * for the median. Pure.
 */
import { count } from '../text/plural.js';

export interface TimingSummary {
  medianUs: number;
  p10Us: number;
  p90Us: number;
  meanUs: number;
  /** Coefficient of variation (stddev / mean) of the kept samples. */
  cv: number;
  /** Samples kept after outlier rejection. */
  repetitions: number;
  /** Samples dropped as disturbed (preemption, page faults): far above the median. */
  rejected: number;
  /** Half-width of the 95% CI of the median, relative to the median. */
  ciHalfWidth: number;
}

export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Linear-interpolated quantile (q in [0,1]) of sorted values. */
export function quantileSorted(s: readonly number[], q: number): number {
  if (s.length === 0) return Number.NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = s[lo] as number;
  const b = s[hi] as number;
  return a + (b - a) * (pos - lo);
}

export function median(values: readonly number[]): number {
  return quantileSorted(sorted(values), 0.5);
}

/**
 * Order-statistic 95% CI of the median: ranks n/2 ± 0.98·sqrt(n) (normal approximation
 * of the binomial). Returns the relative half-width, Infinity when n is too small.
 */
export function medianCiHalfWidth(s: readonly number[]): number {
  const n = s.length;
  if (n < 6) return Number.POSITIVE_INFINITY;
  const spread = 0.98 * Math.sqrt(n);
  const lo = Math.max(0, Math.floor(n / 2 - spread));
  const hi = Math.min(n - 1, Math.ceil(n / 2 + spread));
  const med = quantileSorted(s, 0.5);
  if (!(med > 0)) return Number.POSITIVE_INFINITY;
  return ((s[hi] as number) - (s[lo] as number)) / (2 * med);
}

/**
 * Drops samples above median + 6·MAD (and above 3× the median): single runs hit by a
 * context switch or a page fault, which describe the machine's noise, not the kernel.
 * Fast outliers are kept: a kernel cannot run faster than it can.
 */
export function rejectOutliers(values: readonly number[]): { kept: number[]; rejected: number } {
  if (values.length < 5) return { kept: [...values], rejected: 0 };
  const s = sorted(values);
  const med = quantileSorted(s, 0.5);
  const mad = quantileSorted(sorted(s.map((v) => Math.abs(v - med))), 0.5);
  const limit = Math.min(med + 6 * Math.max(mad, med * 0.01), med * 3);
  const kept = values.filter((v) => v <= limit);
  return { kept, rejected: values.length - kept.length };
}

export function summarize(values: readonly number[]): TimingSummary {
  const { kept, rejected } = rejectOutliers(values.filter((v) => Number.isFinite(v) && v > 0));
  const s = sorted(kept);
  const n = s.length;
  const mean = n ? s.reduce((a, b) => a + b, 0) / n : Number.NaN;
  const variance = n > 1 ? s.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  return {
    medianUs: quantileSorted(s, 0.5),
    p10Us: quantileSorted(s, 0.1),
    p90Us: quantileSorted(s, 0.9),
    meanUs: mean,
    cv: n > 1 && mean > 0 ? Math.sqrt(variance) / mean : 0,
    repetitions: n,
    rejected,
    ciHalfWidth: medianCiHalfWidth(s),
  };
}

export interface StoppingRule {
  /** Runs before timing starts (first-run allocation, cuDNN algorithm search). */
  warmupRuns: number;
  minRepetitions: number;
  maxRepetitions: number;
  /** Stop once the CI half-width of the median is at most this (0.02 = ±2%). */
  targetCi: number;
  /** Stop once this much time was spent timing one kernel (ms). */
  budgetMs: number;
  /**
   * Time at least this long (ms) before converging or running out of budget (the repetition
   * cap still stops): a loop of a few milliseconds can fall wholly in one slow moment of the
   * machine, which a median cannot see past.
   */
  minDurationMs?: number;
}

export type StopReason = 'converged' | 'budget' | 'max-repetitions';

/** Whether to stop after `samples` (µs) with `elapsedMs` spent; null means go on. */
export function shouldStop(samples: readonly number[], elapsedMs: number, rule: StoppingRule): StopReason | null {
  if (samples.length >= rule.maxRepetitions) return 'max-repetitions';
  if (elapsedMs < (rule.minDurationMs ?? 0)) return null;
  if (samples.length < rule.minRepetitions)
    return elapsedMs >= rule.budgetMs * 4 && samples.length >= 3 ? 'budget' : null;
  if (medianCiHalfWidth(sorted(rejectOutliers(samples).kept)) <= rule.targetCi) return 'converged';
  return elapsedMs >= rule.budgetMs ? 'budget' : null;
}

/**
 * A timing's spread in words: the median's interval and the cv, or, from fewer than the 6 runs an
 * interval needs, how many runs there were (a kernel whose every run takes long).
 */
export function spreadText(k: Pick<TimingSummary, 'ciHalfWidth' | 'cv' | 'repetitions'>): string {
  const cv = `cv ${k.cv.toFixed(2)}`;
  if (Number.isFinite(k.ciHalfWidth)) return `median within ±${(k.ciHalfWidth * 100).toFixed(0)}%, ${cv}`;
  return `${count(k.repetitions, 'run')}, too few to bound the median, ${cv}`;
}

/** Above this coefficient of variation a kernel's timing is noisy, whatever its median's interval. */
export const NOISY_CV = 0.5;

/** A measurement is "noisy" when even the budget could not pin the median down. */
export function isNoisy(summary: TimingSummary, rule: StoppingRule): boolean {
  return summary.ciHalfWidth > Math.max(rule.targetCi * 4, 0.1) || summary.cv > NOISY_CV;
}
