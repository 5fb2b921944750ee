/**
 * Number formatting for the renderer: times, rates, sizes, counts. Pure (no DOM), so the
 * unit tests import it directly. Missing values (null, undefined, NaN, ±Infinity) print as "—".
 */

import { formatBytes as formatBytesText } from '../../../src-main/api/text.js';

export const MISSING = '—';

function missing(v: number | null | undefined): v is null | undefined {
  return v === null || v === undefined || !Number.isFinite(v);
}

/** `sig` significant digits, without trailing zeros after the point, never in exponent form. */
export function formatNumber(v: number | null | undefined, sig = 3): string {
  if (missing(v)) return MISSING;
  if (v === 0) return '0';
  const abs = Math.abs(v);
  const digits = Math.max(0, sig - 1 - Math.floor(Math.log10(abs)));
  const fixed = v.toFixed(Math.min(digits, 20));
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** Integers with thin grouping: 1234567 -> "1 234 567". */
export function formatInt(v: number | null | undefined): string {
  if (missing(v)) return MISSING;
  const s = Math.round(Math.abs(v)).toString();
  const grouped = s.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return v < 0 ? `−${grouped}` : grouped;
}

/** A time given in microseconds: "850 ns", "12.3 µs", "4.56 ms", "1.23 s", "2 min 05 s". */
export function formatTime(us: number | null | undefined): string {
  if (missing(us)) return MISSING;
  const abs = Math.abs(us);
  if (abs === 0) return '0 µs';
  if (abs < 1) return `${formatNumber(us * 1000)} ns`;
  if (abs < 1000) return `${formatNumber(us)} µs`;
  if (abs < 1e6) return `${formatNumber(us / 1000)} ms`;
  if (abs < 60e6) return `${formatNumber(us / 1e6)} s`;
  const totalS = Math.round(abs / 1e6);
  const min = Math.floor(totalS / 60);
  const s = totalS % 60;
  return `${us < 0 ? '−' : ''}${min} min ${String(s).padStart(2, '0')} s`;
}

/** A time given in milliseconds. */
export function formatMs(ms: number | null | undefined): string {
  return missing(ms) ? MISSING : formatTime(ms * 1000);
}

/** Achieved compute rate given in GFLOP/s: "850 MFLOP/s", "123 GFLOP/s", "1.23 TFLOP/s". */
export function formatGflops(gflops: number | null | undefined): string {
  if (missing(gflops)) return MISSING;
  const abs = Math.abs(gflops);
  if (abs !== 0 && abs < 1) return `${formatNumber(gflops * 1000)} MFLOP/s`;
  if (abs >= 1000) return `${formatNumber(gflops / 1000)} TFLOP/s`;
  return `${formatNumber(gflops)} GFLOP/s`;
}

/** Bandwidth given in GB/s (1e9 bytes per second). */
export function formatGBps(gbps: number | null | undefined): string {
  if (missing(gbps)) return MISSING;
  if (Math.abs(gbps) >= 1000) return `${formatNumber(gbps / 1000)} TB/s`;
  if (gbps !== 0 && Math.abs(gbps) < 1) return `${formatNumber(gbps * 1000)} MB/s`;
  return `${formatNumber(gbps)} GB/s`;
}

/** Bytes in binary units, as the CLI writes them: "512 B", "1.5 KiB", "24.0 GiB". */
export function formatBytes(bytes: number | null | undefined): string {
  return formatBytesText(bytes, MISSING);
}

const COUNT_UNITS: [number, string][] = [
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** Large counts with SI suffixes: 1234 -> "1.23k", 7.1e9 -> "7.1G". */
export function formatCount(v: number | null | undefined): string {
  if (missing(v)) return MISSING;
  for (const [scale, unit] of COUNT_UNITS) {
    if (Math.abs(v) >= scale) return `${formatNumber(v / scale)}${unit}`;
  }
  return formatNumber(v);
}

/** A model's parameter count as people say it: 8.03e9 -> "8.03 B", 124e6 -> "124 M" (not "8.03G"). */
export function formatParameterCount(v: number | null | undefined): string {
  const text = formatCount(v);
  // formatCount's suffix, spaced, with B (billion) for G.
  return text.replace(/^(-?[\d.]+)([kMGT])$/, (_m, n: string, unit: string) => `${n} ${unit === 'G' ? 'B' : unit}`);
}

/** FLOP counts: "1.2 GFLOP". */
export function formatFlops(flops: number | null | undefined): string {
  if (missing(flops)) return MISSING;
  for (const [scale, unit] of COUNT_UNITS) {
    if (Math.abs(flops) >= scale) return `${formatNumber(flops / scale)} ${unit}FLOP`;
  }
  return `${formatNumber(flops)} FLOP`;
}

/** A value already in percent (metrics are): 12.345 -> "12.3 %". */
export function formatPercent(pct: number | null | undefined, sig = 3): string {
  if (missing(pct)) return MISSING;
  if (Math.abs(pct) >= 1e4) return `${pct.toExponential(1).replace('e+', 'e')} %`;
  if (Math.abs(pct) >= 100) return `${Math.round(pct)} %`;
  return `${formatNumber(pct, sig)} %`;
}

/** A fraction 0..1 as percent: 0.125 -> "12.5 %". */
export function formatFraction(f: number | null | undefined): string {
  return missing(f) ? MISSING : formatPercent(f * 100);
}

/** Samples per second: "123 samples/s", "1.2k samples/s". */
export function formatThroughput(samplesPerS: number | null | undefined): string {
  return missing(samplesPerS) ? MISSING : `${formatCount(samplesPerS)} samples/s`;
}

/** Correlation-like values in −1..1 with two decimals. */
export function formatCorrelation(v: number | null | undefined): string {
  return missing(v) ? MISSING : v.toFixed(2);
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** An ISO date in local time, to the minute: "2025-03-14 09:26". */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return MISSING;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** Time between two ISO dates ("12 s", "3 min 04 s"); "—" when either is missing. */
export function formatElapsed(startIso: string | null | undefined, endIso: string | null | undefined): string {
  if (!startIso || !endIso) return MISSING;
  const ms = new Date(endIso).getTime() - new Date(startIso).getTime();
  return Number.isFinite(ms) ? formatMs(Math.max(0, ms)) : MISSING;
}

/** Clock rates in GHz or MHz as given: "3.5 GHz". */
export function formatGHz(ghz: number | null | undefined): string {
  return missing(ghz) ? MISSING : `${formatNumber(ghz)} GHz`;
}

export function formatMHz(mhz: number | null | undefined): string {
  return missing(mhz) ? MISSING : mhz >= 1000 ? `${formatNumber(mhz / 1000)} GHz` : `${formatNumber(mhz)} MHz`;
}

/** Singular or plural: plural(1, 'run') -> "1 run", plural(3, 'run') -> "3 runs". */
export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${formatInt(n)} ${n === 1 ? word : pluralWord}`;
}

/** A duration in ms as a person reads it: 42s, 3m05s, 1h02m (the CLI's own wording). */
export { formatDuration as formatDurationMs } from '../../../src-main/api/text.js';
