/** Small dense linear algebra for the linear predictor: solve A·x = b (Gaussian elimination). Pure. */

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs((m[r] as number[])[col] as number) > Math.abs((m[pivot] as number[])[col] as number)) pivot = r;
    }
    [m[col], m[pivot]] = [m[pivot] as number[], m[col] as number[]];
    const p = (m[col] as number[])[col] as number;
    if (Math.abs(p) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const row = m[r] as number[];
      const f = (row[col] as number) / p;
      if (f === 0) continue;
      const pr = m[col] as number[];
      for (let c = col; c <= n; c++) row[c] = (row[c] as number) - f * (pr[c] as number);
    }
  }
  return m.map((row, i) => {
    const p = row[i] as number;
    return Math.abs(p) < 1e-12 ? 0 : (row[n] as number) / p;
  });
}

/** Ridge regression on standardized columns: returns coefficients and intercept in raw units. */
export function ridge(
  x: readonly (readonly number[])[],
  y: readonly number[],
  alpha: number,
): { coef: number[]; intercept: number } {
  const n = x.length;
  const f = x[0]?.length ?? 0;
  const mean = new Array<number>(f).fill(0);
  const sd = new Array<number>(f).fill(0);
  for (const row of x) for (let j = 0; j < f; j++) mean[j] = (mean[j] as number) + (row[j] as number) / n;
  for (const row of x)
    for (let j = 0; j < f; j++) sd[j] = (sd[j] as number) + ((row[j] as number) - (mean[j] as number)) ** 2 / n;
  const scale = sd.map((v) => (v > 1e-12 ? Math.sqrt(v) : 0));
  const ym = y.reduce((a, v) => a + v, 0) / n;
  const xtx = Array.from({ length: f }, () => new Array<number>(f).fill(0));
  const xty = new Array<number>(f).fill(0);
  const z = new Array<number>(f);
  for (let i = 0; i < n; i++) {
    const row = x[i] as readonly number[];
    for (let j = 0; j < f; j++) z[j] = scale[j] ? ((row[j] as number) - (mean[j] as number)) / (scale[j] as number) : 0;
    const yi = (y[i] as number) - ym;
    for (let j = 0; j < f; j++) {
      const zj = z[j] as number;
      if (zj === 0) continue;
      xty[j] = (xty[j] as number) + zj * yi;
      const rowj = xtx[j] as number[];
      for (let k = j; k < f; k++) rowj[k] = (rowj[k] as number) + zj * (z[k] as number);
    }
  }
  for (let j = 0; j < f; j++) {
    const rowj = xtx[j] as number[];
    for (let k = 0; k < j; k++) rowj[k] = (xtx[k] as number[])[j] as number;
    rowj[j] = (rowj[j] as number) + alpha * n;
  }
  const w = solve(xtx, xty);
  const coef = w.map((v, j) => (scale[j] ? v / (scale[j] as number) : 0));
  const intercept = ym - coef.reduce((a, c, j) => a + c * (mean[j] as number), 0);
  return { coef, intercept };
}
