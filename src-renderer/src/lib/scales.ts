/**
 * Chart scales and ticks: linear and base-10 logarithmic maps from a data domain to pixels.
 * Pure, so the unit tests import it directly.
 */

export type Domain = readonly [number, number];

export interface Scale {
  (v: number): number;
  domain: Domain;
  range: Domain;
  ticks(count?: number): number[];
  /** Inverse map: pixel to value. */
  invert(px: number): number;
}

export function linearScale(domain: Domain, range: Domain): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  const f = ((v: number) => r0 + ((v - d0) / span) * (r1 - r0)) as Scale;
  f.domain = domain;
  f.range = range;
  f.ticks = (count = 5) => linearTicks(d0, d1, count);
  f.invert = (px) => d0 + ((px - r0) / (r1 - r0 || 1)) * span;
  return f;
}

/** Log10 scale; values ≤ 0 map to the low end of the range. */
export function logScale(domain: Domain, range: Domain): Scale {
  const l0 = Math.log10(domain[0]);
  const l1 = Math.log10(domain[1]);
  const [r0, r1] = range;
  const span = l1 - l0 || 1;
  const f = ((v: number) => (v > 0 ? r0 + ((Math.log10(v) - l0) / span) * (r1 - r0) : r0)) as Scale;
  f.domain = domain;
  f.range = range;
  f.ticks = () => logTicks(domain[0], domain[1]);
  f.invert = (px) => 10 ** (l0 + ((px - r0) / (r1 - r0 || 1)) * span);
  return f;
}

/** A step of 1, 2 or 5 times a power of ten, near span / count. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0) || !(count > 0)) return 1;
  const raw = span / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  const nice = m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10;
  return nice * pow;
}

/** Round numbers within [min, max], about `count` of them. */
export function linearTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const lo = Math.min(min, max);
  const hi = Math.max(min, max);
  const step = niceStep(hi - lo, count);
  const out: number[] = [];
  const start = Math.ceil(lo / step - 1e-9) * step;
  for (let v = start; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** Powers of ten within [min, max]; with two decades or fewer also 2x and 5x. */
export function logTicks(min: number, max: number): number[] {
  if (!(min > 0) || !(max > 0)) return [];
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const fine = hi - lo <= 2;
  const every = hi - lo > 8 ? 2 : 1;
  const out: number[] = [];
  for (let e = lo; e <= hi; e++) {
    for (const m of fine ? [1, 2, 5] : [1]) {
      const v = Number((m * 10 ** e).toPrecision(12));
      if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9) && (fine || (e - lo) % every === 0)) out.push(v);
    }
  }
  return out;
}

/**
 * A log domain covering the positive finite values, widened to whole decades
 * (or by `padDecades` on each side); [1, 10] when there is nothing to show.
 */
export function logDomain(values: Iterable<number>, padDecades = 0): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v > 0 && Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (lo === Infinity) return [1, 10];
  let l0 = Math.floor(Math.log10(lo) - padDecades);
  let l1 = Math.ceil(Math.log10(hi) + padDecades);
  if (l1 <= l0) l1 = l0 + 1;
  if (!Number.isFinite(l0)) l0 = l1 - 1;
  return [10 ** l0, 10 ** l1];
}

/** [0, max] rounded up to a nice step; [0, 1] when nothing is positive. */
export function linearDomain(values: Iterable<number>, count = 5): [number, number] {
  let hi = 0;
  for (const v of values) if (Number.isFinite(v) && v > hi) hi = v;
  if (hi <= 0) return [0, 1];
  const step = niceStep(hi, count);
  return [0, Math.ceil(hi / step - 1e-9) * step];
}

/** Tick label of a log axis: 1e-3 ... 1e5 as plain numbers, beyond with SI suffixes. */
export function logTickLabel(v: number): string {
  if (v === 0) return '0';
  const abs = Math.abs(v);
  const units: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [s, u] of units) if (abs >= s) return `${Number((v / s).toPrecision(3))}${u}`;
  if (abs < 1e-3) return v.toExponential(0);
  return String(Number(v.toPrecision(3)));
}
