/**
 * The predictors by name, one `as const` table their type derives from; the registry builds
 * them (registry.ts), the API contract takes their names, and the app names them. Pure.
 */
import type { Equal, Expect } from '../util/type-checks.js';

export const PREDICTOR_NAMES = ['roofline', 'analytical', 'linear', 'forest'] as const;
export type PredictorName = (typeof PREDICTOR_NAMES)[number];

export function isPredictorName(v: string): v is PredictorName {
  return (PREDICTOR_NAMES as readonly string[]).includes(v);
}

/** The predictor kinds from the most accurate down: with none named, the first trained is used. */
export const PREDICTOR_PREFERENCE = ['forest', 'analytical', 'linear', 'roofline'] as const;

// A predictor added to PREDICTOR_NAMES and not ranked here (or the reverse) does not compile.
type _PreferenceRanksEveryPredictor = Expect<Equal<(typeof PREDICTOR_PREFERENCE)[number], PredictorName>>;
