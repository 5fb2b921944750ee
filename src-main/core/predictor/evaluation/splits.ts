/**
 * Deterministic split generators over samples: grouped k-fold, leave one op family out,
 * leave one device out (unseen shapes live in unseen-shapes.ts). Folds hold sample
 * indices; a fold with an empty side is not returned but named in `skipped`. Pure.
 */
import type { Sample } from '../types.js';
import { addFold, groupKey, holdOut, indicesBy } from './groups.js';
import { seededRandom, shuffled } from './random.js';
import type { SplitResult } from './types.js';

/**
 * k folds of whole near-duplicate groups (see groups.ts): no group is in train and test
 * of one fold and every sample is tested exactly once (over the folds kept). Groups are
 * shuffled by `seed`, then placed largest first into the fold with the fewest samples.
 */
export function groupedKFold(samples: readonly Sample[], k: number, seed: number): SplitResult {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`grouped k-fold needs an integer k >= 2, got ${k}`);
  const groups = shuffled([...indicesBy(samples, groupKey).values()], seededRandom(seed));
  groups.sort((a, b) => b.length - a.length); // stable: equal sizes keep the shuffled order
  const tests: number[][] = Array.from({ length: k }, () => []);
  for (const members of groups) {
    let best = 0;
    for (let f = 1; f < k; f++) if ((tests[f]?.length ?? 0) < (tests[best]?.length ?? 0)) best = f;
    tests[best]?.push(...members);
  }
  const out: SplitResult = { folds: [], skipped: [] };
  tests.forEach((test, f) => addFold(out, holdOut(`fold-${f + 1}-of-${k}`, samples.length, test)));
  return out;
}

/** One fold per op family (sorted by name), testing that family and training on the rest. */
export function leaveOneFamilyOut(samples: readonly Sample[]): SplitResult {
  return leaveOneOut(samples, 'family', (s) => s.family);
}

/**
 * One fold per distinct `device.deviceId` (so thread counts of one CPU are separate
 * devices). No folds, with the reason, when there are fewer than 2 devices.
 */
export function leaveOneDeviceOut(samples: readonly Sample[]): SplitResult {
  const devices = new Set(samples.map((s) => s.device.deviceId));
  if (devices.size < 2) {
    return { folds: [], skipped: [`leave-one-device-out needs at least 2 devices, found ${devices.size}`] };
  }
  return leaveOneOut(samples, 'device', (s) => s.device.deviceId);
}

/**
 * Each model measured with measure-model in turn: its nodes are the test set, everything else
 * (the profile and the other models' nodes) trains. Says so when no model was measured.
 */
export function leaveOneModelOut(samples: readonly Sample[]): SplitResult {
  const models = new Set(samples.map((s) => s.origin ?? 'profile').filter((o) => o !== 'profile'));
  if (models.size === 0) {
    return {
      folds: [],
      skipped: ['leave-one-model-out needs nodes of real models: run pipedejavu measure-model on a few models first'],
    };
  }
  const out: SplitResult = { folds: [], skipped: [] };
  const all = samples.map((_, i) => i);
  for (const model of [...models].sort()) {
    const test = all.filter((i) => samples[i]?.origin === model);
    addFold(out, holdOut(model, samples.length, test));
  }
  return out;
}

function leaveOneOut(samples: readonly Sample[], what: string, keyOf: (s: Sample) => string): SplitResult {
  const out: SplitResult = { folds: [], skipped: [] };
  const byKey = [...indicesBy(samples, keyOf)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, test] of byKey) addFold(out, holdOut(`${what}=${key}`, samples.length, test));
  return out;
}
