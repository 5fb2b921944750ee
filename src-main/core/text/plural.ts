/**
 * Counts in prose: `count(1, 'device')` is "1 device", `count(2, 'device')` "2 devices",
 * `count(3, 'thread')` "3 threads"; irregular plurals are given (`count(2, 'child', 'children')`).
 * One home for every "N things" the CLI, the app and reports print. Pure.
 */
export function count(n: number, singular: string, pluralForm?: string): string {
  return `${n} ${noun(n, singular, pluralForm)}`;
}

/** The noun alone, singular for exactly 1 (and -1), plural otherwise (0 devices, 2.5 threads). */
export function noun(n: number, singular: string, pluralForm?: string): string {
  return Math.abs(n) === 1 ? singular : (pluralForm ?? defaultPlural(singular));
}

function defaultPlural(word: string): string {
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}
