/** What context parallelism reads of a catalog transformer: its tokens and each block's K and V (sequence-layers.ts). */
import { describe, expect, it } from 'vitest';
import { catalogWorkload, getCatalogEntry } from '../../../../../src-main/core/catalog/index.js';
import { withSequence } from '../../../../../src-main/core/planner/problem/sequence-layers.js';
import type { PlanLayer } from '../../../../../src-main/core/planner/types.js';

const layer = (name: string): PlanLayer => ({
  name,
  forwardUs: {},
  backwardUs: {},
  params: 0,
  outBytesPerSample: 0,
  activationBytesPerSample: 0,
});

describe('withSequence', () => {
  it('gives Llama 3.1 8B at 16k tokens bf16 2 x 16384 x 8 KV heads x 128 x 2 bytes of K and V a block, none to the embeddings', () => {
    const w = catalogWorkload('llama-3.1-8b', { seq: 16384, dtype: 'bf16', mode: 'training' });
    const { layers, sequence } = withSequence(w, getCatalogEntry('llama-3.1-8b'), [
      layer('embeddings'),
      layer('block.0'),
    ]);
    expect(sequence).toBe(16384);
    expect(layers[0]?.kvBytesPerSample).toBeUndefined();
    expect(layers[1]?.kvBytesPerSample).toBe(2 * 16384 * 8 * 128 * 2);
  });

  it('leaves a model that is not a catalog transformer as it is', () => {
    const w = catalogWorkload('resnet50', { batch: 1 });
    const layers = [layer('block.0')];
    expect(withSequence(w, getCatalogEntry('resnet50'), layers)).toEqual({ layers, sequence: null });
    expect(withSequence(w, null, layers).sequence).toBeNull();
  });
});
