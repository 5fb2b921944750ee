/**
 * Shell-style patterns over names (machine labels, device names in `--links`): `*` any run of characters,
 * `?` one. Pure.
 *
 * Matching is the classic greedy two-pointer walk with a single back-up point (the last `*`): at most
 * pattern length × name length steps, never exponential, whatever the pattern (no regular expression,
 * so no backtracking engine to exhaust).
 */

/** Whether a name matches a pattern with * and ? wildcards (whole name, case-sensitive; ? is one code point). */
export function globMatches(glob: string, name: string): boolean {
  const pattern = Array.from(glob);
  const text = Array.from(name);
  let p = 0;
  let t = 0;
  let star = -1; // index in pattern just after the last `*` seen
  let starText = 0; // the text position that `*` was last extended to
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = ++p;
      starText = t;
    } else if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star;
      t = ++starText;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Whether the text has a wildcard. */
export const isGlob = (text: string): boolean => /[*?]/.test(text);
