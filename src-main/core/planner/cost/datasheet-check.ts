/**
 * How far a datasheet GPU's estimate is from the same GPU measured: the kernels a real one was
 * profiled with, predicted on its virtual (datasheet) device and compared with what was
 * measured, per op family. Pure.
 */

export interface EstimatePair {
  family: string;
  measuredUs: number;
  predictedUs: number;
}

export interface FamilyError {
  family: string;
  kernels: number;
  /** Mean absolute percentage error of the estimate, 0.12 = 12%. */
  mape: number;
  /** Median of predicted / measured: above 1 the datasheet estimate is too slow, below 1 too fast. */
  medianRatio: number;
}

export interface EstimateError {
  kernels: number;
  mape: number;
  families: FamilyError[];
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

const mapeOf = (ps: readonly EstimatePair[]): number =>
  ps.reduce((a, p) => a + Math.abs(p.predictedUs - p.measuredUs) / p.measuredUs, 0) / ps.length;

/** The error overall and per family (families sorted by name); pairs with a non-positive measurement are left out. */
export function estimateError(pairs: readonly EstimatePair[]): EstimateError {
  const valid = pairs.filter((p) => p.measuredUs > 0 && Number.isFinite(p.predictedUs));
  const families = [...new Set(valid.map((p) => p.family))].sort().map((family) => {
    const ps = valid.filter((p) => p.family === family);
    return {
      family,
      kernels: ps.length,
      mape: mapeOf(ps),
      medianRatio: median(ps.map((p) => p.predictedUs / p.measuredUs)),
    };
  });
  return { kernels: valid.length, mape: valid.length ? mapeOf(valid) : Number.NaN, families };
}

/** "gemm 12%, elementwise 55%": the families' errors in one line. */
export function familyErrorsText(e: EstimateError): string {
  return e.families.map((f) => `${f.family} ${Math.round(f.mape * 100)}%`).join(', ');
}
