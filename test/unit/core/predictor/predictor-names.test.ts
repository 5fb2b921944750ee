/** The predictor names, one table: the registry builds each, the preference ranks each, the contract takes each. */
import { describe, expect, it } from 'vitest';
import { PREDICTOR_NAMES, PREDICTOR_PREFERENCE } from '../../../../src-main/core/predictor/predictor-names.js';
import { createPredictor } from '../../../../src-main/core/predictor/registry.js';
import { CHANNELS } from '../../../../src-main/api/contract.js';

describe('the predictor names (one definition)', () => {
  it('builds every named predictor, and ranks each once', () => {
    for (const name of PREDICTOR_NAMES) expect(createPredictor(name)).toBeDefined();
    expect([...PREDICTOR_PREFERENCE].sort()).toEqual([...PREDICTOR_NAMES].sort());
  });

  it('is what predictor:train takes, and nothing else', () => {
    const train = CHANNELS['predictor:train'].request;
    expect(train.safeParse({ predictors: [...PREDICTOR_NAMES] }).success).toBe(true);
    expect(train.safeParse({ models: [...PREDICTOR_NAMES] }).success).toBe(true);
    expect(train.safeParse({ predictors: ['gbdt'] }).success).toBe(false);
  });
});
