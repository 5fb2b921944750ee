/**
 * Sizes in binary units, one wording for the CLI, the planner's messages and the app:
 * "512 B", "1.5 KiB", "11.3 GiB", "150 GiB" (one decimal under 100, none from 100 up or in
 * bytes). Pure.
 */

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** `bytes` in the largest binary unit that keeps it at 1 or more; `missing` for null, undefined, NaN or ±Infinity. */
export function formatBytes(bytes: number | null | undefined, missing = '-'): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return missing;
  let v = Math.abs(bytes);
  let unit = 0;
  while (v >= 1024 && unit < BYTE_UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  const text = unit === 0 || v >= 100 ? v.toFixed(0) : v.toFixed(1);
  return `${bytes < 0 ? '-' : ''}${text} ${BYTE_UNITS[unit]}`;
}
