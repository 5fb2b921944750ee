/**
 * Parses `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]` output. Cells
 * are separated by ", "; values nvidia-smi could not read ("[N/A]", "[Not Supported]", ...)
 * become null.
 */
import { cleanText } from './text.js';

export interface CsvTable {
  /** Header names without their " [unit]" suffix; null when parsed without a header. */
  header: string[] | null;
  /** Raw cells, trimmed. */
  rows: string[][];
}

export function parseCsv(text: string, opts: { header: boolean }): CsvTable {
  const lines = cleanText(text)
    .split('\n')
    .filter((l) => l.trim() !== '');
  const split = (line: string): string[] => line.split(', ').map((c) => c.trim());
  if (!opts.header) return { header: null, rows: lines.map(split) };
  const [first, ...rest] = lines;
  return { header: first === undefined ? [] : split(first).map(headerName), rows: rest.map(split) };
}

/** "memory.total [MiB]" -> "memory.total". */
export function headerName(h: string): string {
  return h.replace(/\s*\[[^\]]*\]\s*$/, '').trim();
}

/** A cell as a string, or null for the sentinels nvidia-smi prints when it cannot read a value. */
export function cellValue(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const v = cleanText(raw).trim();
  if (v === '' || /^N\/A$/i.test(v) || /^\[.*\]$/.test(v)) return null;
  return v;
}

/** A cell as a number, tolerating a trailing unit ("81559 MiB", "700.00 W", "1980 MHz"); null otherwise. */
export function cellNumber(raw: string | undefined): number | null {
  const v = cellValue(raw);
  if (v === null) return null;
  const m = /^([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*[A-Za-z%/]*$/.exec(v);
  if (!m?.[1]) return null;
  const n = Number(m[1]);
  return Number.isFinite(n) ? n : null;
}

/**
 * Maps each row to a record keyed by field name. A row with more cells than fields
 * (a value containing ", ") has its extra cells joined into the last field; a row with
 * fewer cells is reported as invalid.
 */
export function toRecords(
  fields: readonly string[],
  rows: readonly string[][],
): { records: Map<string, string>[]; invalid: string[][] } {
  const records: Map<string, string>[] = [];
  const invalid: string[][] = [];
  for (const row of rows) {
    if (row.length < fields.length || fields.length === 0) {
      invalid.push(row);
      continue;
    }
    const head = row.slice(0, fields.length - 1);
    const last = row.slice(fields.length - 1).join(', ');
    records.push(new Map(fields.map((f, i) => [f, i < head.length ? (head[i] ?? '') : last])));
  }
  return { records, invalid };
}
