/** A plan request's first stages: a described model filled in, and the service's defaults. */
import { describe, expect, it } from 'vitest';
import { getCatalogEntry } from '../../../../src-main/core/catalog/index.js';
import type { PlanRequest } from '../../../../src-main/core/planner/plan-request.js';
import { withDefaults, withDescribedModel } from '../../../../src-main/services/plan/resolve-request.js';

const serve: PlanRequest = { workload: 'model.gguf', mode: 'inference' };
const entry = getCatalogEntry('llama-3.1-8b');

describe('withDefaults', () => {
  it('serves one sequence and trains 8 samples unless a batch is given, on every local device, listing 5 plans', () => {
    expect(withDefaults(serve)).toMatchObject({ batch: 1, devices: 'all', topN: 5, offload: 'auto', kvCache: 'auto' });
    expect(withDefaults({ ...serve, mode: 'training' }).batch).toBe(8);
    expect(withDefaults({ ...serve, batch: 4 }).batch).toBe(4);
    expect(withDefaults({ ...serve, recompute: 'none', zero: 1 })).toMatchObject({ recompute: 'none', zero: 1 });
  });
});

describe('withDescribedModel', () => {
  it('takes the weights asked over the described format; a float format sets the dtype unless one is asked', () => {
    expect(withDescribedModel({ ...serve, weights: 'int4' }, { entry, weights: 'q4_k' })).toMatchObject({
      decoder: entry,
      weights: 'int4',
    });
    expect(withDescribedModel(serve, { entry, weights: 'q4_k' })).toEqual({
      ...serve,
      decoder: entry,
      weights: 'q4_k',
    });
    expect(withDescribedModel(serve, { entry, weights: 'fp16' })).toEqual({
      ...serve,
      decoder: entry,
      weights: 'fp16',
      dtype: 'fp16',
    });
    expect(withDescribedModel({ ...serve, dtype: 'bf16' }, { entry, weights: 'fp16' })).toMatchObject({
      dtype: 'bf16',
    });
    // Training a described decoder: its stored format is not a serving format.
    const training: PlanRequest = { ...serve, mode: 'training' };
    expect(withDescribedModel(training, { entry, weights: 'q4_k' })).toEqual({ ...training, decoder: entry });
    expect(withDescribedModel(serve, { entry, weights: null })).toEqual({ ...serve, decoder: entry });
  });
});
