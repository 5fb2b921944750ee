/** Human-readable output helpers for the CLI: aligned tables, lines of outside text and unit formatting. */
import { shown } from '../core/text/shown.js';

/** Cells are escaped whole (newlines and tabs too): a label cannot add a row or break the columns. */
export function formatTable(headers: string[], rows: (string | number | null)[][]): string {
  return tableRows(headers, rows).join('\n');
}

/** formatTable as its lines, for `textLines`. */
export function tableRows(headers: string[], rows: (string | number | null)[][]): string[] {
  const cells = rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : shown(String(c)))));
  const widths = headers.map((h, i) => Math.max(shown(h).length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers.map(shown)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
}

/**
 * A text output from its lines, each kept one line (`shown`): a name, reason or warning from
 * outside with a newline, a carriage return or U+2028 in it cannot start a line of its own. A table
 * goes in as its rows (`...tableRows(...)`).
 */
export function textLines(lines: readonly string[]): string {
  return lines.map(shown).join('\n');
}

export function formatOrDash(v: number | string | null | undefined, suffix = ''): string {
  return v === null || v === undefined || v === '' ? '-' : `${v}${suffix}`;
}
