/** Seeded randomness for the splits (mulberry32), so a seed always gives the same folds. Pure. */

import { seededRandom } from '../../random.js';

export { seededRandom };

/** A shuffled copy (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

/** A fixed pseudo-random 32-bit hash of an integer (for picking scatter rows). */
export function hash32(value: number): number {
  let t = (value + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}
