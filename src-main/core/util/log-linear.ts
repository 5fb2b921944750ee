/** A measured value `y` at a size `x` (a matrix's bytes, a product's rows). */
export interface SizedValue {
  x: number;
  y: number;
}

/**
 * The value at `x` read off values measured at a few sizes: linear in log(x) between the two
 * sizes around it, the nearest one's outside them; null with none measured. Pure.
 */
export function logLinearAt(measured: readonly SizedValue[], x: number): number | null {
  const by = [...measured].sort((a, b) => a.x - b.x);
  const first = by[0];
  const last = by[by.length - 1];
  if (!first || !last) return null;
  if (x <= first.x) return first.y;
  if (x >= last.x) return last.y;
  const i = by.findIndex((v) => v.x >= x);
  const [a, b] = [by[i - 1] as SizedValue, by[i] as SizedValue];
  const f = Math.log(x / a.x) / Math.log(b.x / a.x);
  return a.y + f * (b.y - a.y);
}
