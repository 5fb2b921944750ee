/** A trained decoder's embedding and LM head split by vocabulary over the tensor-parallel group. */
import { describe, expect, it } from 'vitest';
import { getCatalogEntry } from '../../../../../src-main/core/catalog/index.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { withVocabParallel } from '../../../../../src-main/core/planner/problem/vocab-parallel.js';
import type { PlanLayer, PlanProblem } from '../../../../../src-main/core/planner/types.js';

const decoder = getCatalogEntry('llama-3.1-8b');
const split = { divides: [32, 8], forwardAllReduces: 2, backwardAllReduces: 2 };
const layer = (name: string, extra: Partial<PlanLayer> = {}): PlanLayer => ({
  name,
  forwardUs: { d0: 80, d1: 80 },
  backwardUs: { d0: 160, d1: 160 },
  params: 8000,
  outBytesPerSample: 100,
  activationBytesPerSample: 800,
  ...extra,
});
const layers = [layer('embeddings'), layer('block.0', { tensor: split }), layer('head', { outBytesPerSample: 4 })];

const problem = (ls: PlanLayer[]): PlanProblem => ({
  layers: ls,
  devices: ['d0', 'd1'].map((id) => ({
    id,
    name: 'gpu',
    kind: 'gpu' as const,
    machine: 'm',
    memoryBytes: 1e12,
    estimate: 'datasheet' as const,
  })),
  links: [],
  mode: 'training',
  batch: 1,
  bytesPerParam: 16,
  zeroStage: 0,
  overheadBytes: 0,
  tensorDegrees: [1, 2],
});

describe('withVocabParallel', () => {
  it('splits the embedding (one all-reduce forward) and the head (its input gradient reduced backward)', () => {
    const [embeddings, , head] = withVocabParallel(decoder, layers);
    expect(embeddings?.tensor).toEqual({ divides: [], forwardAllReduces: 1, backwardAllReduces: 0 });
    expect(head?.tensor).toEqual({
      divides: [],
      forwardAllReduces: 0,
      backwardAllReduces: 1,
      allReduceBytesPerSample: 100,
    });
  });

  it('leaves models whose blocks do not split, and heads that are not an LM head, as they are', () => {
    const whole = layers.map((l) => ({ ...l, tensor: undefined }));
    expect(withVocabParallel(decoder, whole)).toEqual(whole);
    expect(withVocabParallel(getCatalogEntry('vit-b16'), layers)).toEqual(layers);
  });

  it('a member of a tensor-parallel group of 2 holds half the embedding and head weights and kept activations', () => {
    const load = { from: 0, to: 3, tp: 2, replicas: 1, samples: 1, inFlight: 1, microbatches: 1 };
    const before = plannerContext(problem(layers)).tables.deviceNeed(load);
    const after = plannerContext(problem(withVocabParallel(decoder, layers))).tables.deviceNeed(load);
    expect(before.parameterBytes).toBe(16 * (8000 + 4000 + 8000));
    expect(after.parameterBytes).toBe(16 * (4000 + 4000 + 4000));
    expect(after.activationBytes).toBe(400 * 3);
  });
});
