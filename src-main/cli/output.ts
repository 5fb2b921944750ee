/** Human-readable output helpers for the CLI: aligned tables and unit formatting. */
import { printableLine } from '../core/text/printable.js';

/** Cells are escaped whole (newlines and tabs too): a label cannot add a row or break the columns. */
export function formatTable(headers: string[], rows: (string | number | null)[][]): string {
  const cells = rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : printableLine(String(c)))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export function formatOrDash(v: number | string | null | undefined, suffix = ''): string {
  return v === null || v === undefined || v === '' ? '-' : `${v}${suffix}`;
}
