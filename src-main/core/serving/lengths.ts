/**
 * How many tokens a serving load's prompts and answers hold: a fixed count, uniform between two
 * counts, lognormal around a median (the shape chat prompts and answers have), or the counts a trace
 * gives (cycled when the load runs more requests than it holds). Draws are seeded, whole and
 * clamped to [1, max]. The CLI's text spec (`2000`, `1000-3000`, `lognormal:2000:0.6`) is parsed
 * here. Pure.
 */
import { UsageError } from '../errors.js';
import { normalDraw, servingRandom } from './arrivals.js';

export type LengthDist =
  | { kind: 'fixed'; tokens: number }
  | { kind: 'uniform'; lo: number; hi: number }
  /** exp(ln median + sigma·Z), rounded, clamped to [1, max] (max defaults to MAX_LENGTH). */
  | { kind: 'lognormal'; median: number; sigma: number; max?: number }
  | { kind: 'trace'; tokens: ArrayLike<number> };

/** A plain count is a fixed length. */
export type LengthSpec = number | LengthDist;

/** The longest prompt or answer a spec may name (tokens): past any model's context today. */
export const MAX_LENGTH = 10_000_000;
const MAX_SIGMA = 3;

function lengthDist(spec: LengthSpec): LengthDist {
  return typeof spec === 'number' ? { kind: 'fixed', tokens: spec } : spec;
}

/**
 * `n` lengths drawn from `spec` with `seed` (one stream per call: give prompts and answers
 * different seeds, or they rise and fall together).
 */
export function sampleLengths(spec: LengthSpec, n: number, seed: number): Int32Array {
  const d = lengthDist(spec);
  const out = new Int32Array(n);
  const clamp = (x: number, max: number): number => Math.min(max, Math.max(1, Math.round(x)));
  switch (d.kind) {
    case 'fixed':
      return out.fill(clamp(d.tokens, MAX_LENGTH));
    case 'trace': {
      if (d.tokens.length === 0) throw new UsageError('a trace with no rows gives no lengths');
      for (let i = 0; i < n; i++) out[i] = clamp(d.tokens[i % d.tokens.length] as number, MAX_LENGTH);
      return out;
    }
    case 'uniform': {
      const u = servingRandom(seed);
      for (let i = 0; i < n; i++) out[i] = clamp(d.lo + Math.floor(u() * (d.hi - d.lo + 1)), d.hi);
      return out;
    }
    case 'lognormal': {
      const u = servingRandom(seed);
      const mu = Math.log(d.median);
      const max = d.max ?? MAX_LENGTH;
      for (let i = 0; i < n; i++) out[i] = clamp(Math.exp(mu + d.sigma * normalDraw(u)), max);
      return out;
    }
  }
}

/** One line for the output: the distribution as the CLI's spec writes it, and what it means. */
export function describeLength(spec: LengthSpec): string {
  const d = lengthDist(spec);
  switch (d.kind) {
    case 'fixed':
      return `${d.tokens} tokens`;
    case 'uniform':
      return `uniform ${d.lo}-${d.hi} tokens`;
    case 'lognormal':
      return `lognormal, median ${d.median} tokens, sigma ${d.sigma} (clamped to 1-${d.max ?? MAX_LENGTH})`;
    case 'trace':
      return `a trace's ${d.tokens.length} lengths`;
  }
}

function count(text: string, flag: string, what: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < 1 || n > MAX_LENGTH) {
    throw new UsageError(`${flag} ${what}: "${text}" is not a whole number of tokens from 1 to ${MAX_LENGTH}`);
  }
  return n;
}

/**
 * The CLI's length spec: `2000` (fixed), `1000-3000` (uniform, both ends included) or
 * `lognormal:MEDIAN:SIGMA` (sigma from 0 to 3). A bad spec is one line naming the flag.
 */
export function parseLengthSpec(text: string, flag = '--prompt'): LengthDist {
  const s = text.trim();
  if (s.startsWith('lognormal:')) {
    const parts = s.split(':');
    if (parts.length !== 3) {
      throw new UsageError(`${flag} ${s}: write lognormal:MEDIAN:SIGMA, e.g. lognormal:2000:0.6`);
    }
    const median = count(parts[1] as string, flag, 'median');
    const sigma = Number(parts[2]);
    if ((parts[2] as string).trim() === '' || !(sigma >= 0) || sigma > MAX_SIGMA) {
      throw new UsageError(`${flag} ${s}: sigma "${parts[2]}" must be a number from 0 to ${MAX_SIGMA}`);
    }
    return { kind: 'lognormal', median, sigma };
  }
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(s);
  if (range) {
    const lo = count(range[1] as string, flag, 'low end');
    const hi = count(range[2] as string, flag, 'high end');
    if (hi < lo) throw new UsageError(`${flag} ${s}: the range's high end is below its low end`);
    return lo === hi ? { kind: 'fixed', tokens: lo } : { kind: 'uniform', lo, hi };
  }
  if (/^[a-z]/i.test(s)) {
    throw new UsageError(`${flag} ${s}: write a count (2000), a range (1000-3000) or lognormal:MEDIAN:SIGMA`);
  }
  return { kind: 'fixed', tokens: count(s, flag, 'length') };
}
