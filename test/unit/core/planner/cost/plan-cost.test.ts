/** The step every search minimizes, plain and interleaved 1F1B (plan-cost.ts stepUsOf). */
import { describe, expect, it } from 'vitest';
import { stepUsOf, type StepTerms } from '../../../../../src-main/core/planner/cost/plan-cost.js';

/** p = 4 equal stages of 10 µs, m = 8, training (cuts both ways). */
const terms = (cutUs: number, virtualStages?: number): StepTerms => ({
  sumStageUs: 40,
  maxStageUs: 10,
  sumCutUs: 3 * cutUs,
  maxCutUs: cutUs,
  sumSyncUs: 0,
  cutFactor: 2,
  microbatches: 8,
  ...(virtualStages ? { virtualStages } : {}),
});

describe('step', () => {
  it('1F1B: Σt + 2Σc + (m − 1)·max(t, c)', () => {
    expect(stepUsOf(terms(0))).toBe(40 + 7 * 10);
    expect(stepUsOf(terms(1))).toBe(40 + 2 * 3 + 7 * 10);
    expect(stepUsOf(terms(1, 1))).toBe(stepUsOf(terms(1)));
  });

  it('interleaved, v = 2, free cuts: m·t + (p − 1)·t/v, a bubble of (p − 1)/(v·m) the ideal', () => {
    const step = stepUsOf(terms(0, 2));
    expect(step).toBe(8 * 10 + (3 * 10) / 2);
    expect((step - 8 * 10) / (8 * 10)).toBeCloseTo(3 / (2 * 8), 12);
  });

  it('interleaved sends v times the messages over each cut', () => {
    // Σt/v + 2·v·Σc + (m − 1/v)·max(t, v·c): 20 + 2·2·3 + 7.5·10.
    expect(stepUsOf(terms(1, 2))).toBe(20 + 12 + 75);
    // A cut of 6 µs paces the steady state at v·c = 12 µs: 20 + 2·2·18 + 7.5·12.
    expect(stepUsOf(terms(6, 2))).toBe(20 + 72 + 90);
  });
});
