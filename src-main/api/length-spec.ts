/**
 * A serving load's prompt or output length as typed in the app: a count (2000), a range (1000-3000)
 * or lognormal:MEDIAN:SIGMA, checked by the parser `pipedejavu serve-plan --prompt/--output` and the
 * capacity search use (core/serving/lengths.ts), so the form refuses what they would, in their words,
 * before anything is sent. Pure.
 */
import { UserError } from '../core/errors.js';
import { parseLengthSpec } from '../core/serving/lengths.js';
import { REQUEST_LIMITS } from '../core/workload/limits.js';

export type LengthField = 'prompt' | 'output';

/** What a field sends: a count as a number, a drawn spec as its text, undefined when empty; or why not. */
export type LengthFieldValue = { ok: true; value: number | string | undefined } | { ok: false; error: string };

const MAX: Record<LengthField, number> = { prompt: REQUEST_LIMITS.prompt.max, output: REQUEST_LIMITS.tokens.max };

export function lengthFieldValue(text: string | number | null, field: LengthField): LengthFieldValue {
  const s = text === null ? '' : String(text).trim();
  if (s === '') return { ok: true, value: undefined };
  try {
    const spec = parseLengthSpec(s, field);
    if (spec.kind !== 'fixed') return { ok: true, value: s };
    if (spec.tokens > MAX[field]) return { ok: false, error: `${field} ${s}: at most ${MAX[field]} tokens` };
    return { ok: true, value: spec.tokens };
  } catch (e) {
    if (e instanceof UserError) return { ok: false, error: e.message };
    throw e;
  }
}
