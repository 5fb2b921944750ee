import { describe, expect, it } from 'vitest';
import { roundLabel } from '../../../../src-main/services/profile/profile-rounds.js';

describe('roundLabel: combining timing rounds', () => {
  it('keeps the lower median of a timed kernel (slow phases only slow it down)', () => {
    expect(roundLabel(10, 8, 2, false)).toBe(8);
    expect(roundLabel(10, 12, 2, false)).toBeNull();
  });

  it('averages a chained difference over the rounds: its noise goes both ways, so the minimum would keep the luckiest', () => {
    expect(roundLabel(10, 0.05, 2, true)).toBeCloseTo(5.025, 9);
    expect(roundLabel(6, 12, 3, true)).toBeCloseTo(8, 9);
  });
});
