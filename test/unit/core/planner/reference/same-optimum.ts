/** The assertion the exact-search tests share: the DP's best plan is the brute force's (both null, or equal step times). */
import { expect } from 'vitest';
import type { Plan, Schedule } from '../../../../../src-main/core/planner/types.js';

export function expectSameOptimum(dp: Plan | null, brute: Plan | null): void {
  expect(dp === null).toBe(brute === null);
  if (!dp || !brute) return;
  expect(dp.feasible).toBe(true);
  expect(Math.abs(dp.stepUs - brute.stepUs)).toBeLessThanOrEqual(1e-9 * brute.stepUs);
}

export const SCHEDULES: readonly Schedule[] = ['1f1b', 'gpipe'];
