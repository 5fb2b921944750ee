/**
 * Identical lines once each, in the order first seen, with "8x: " before a line that came 8
 * times (eight datasheet GPUs of one model give one warning, not eight). Pure.
 */
export function groupRepeated(lines: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].map(([line, n]) => (n > 1 ? `${n}x: ${line}` : line));
}
