import { describe, expect, it } from 'vitest';
import { getCatalogEntry } from '../../../../../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../../../../../src-main/core/catalog/schema.js';
import { withHostEmbedding } from '../../../../../src-main/core/planner/serving/host-embedding.js';
import type { PlanLayer } from '../../../../../src-main/core/planner/types.js';

const layer = (name: string, params: number): PlanLayer => ({
  name,
  forwardUs: { gpu: 1 },
  backwardUs: {},
  params,
  outBytesPerSample: 8,
  activationBytesPerSample: 8,
});

describe('withHostEmbedding', () => {
  const llama = getCatalogEntry('llama-3.1-8b') as TransformerEntry;
  const table = (llama.vocab ?? 0) * llama.hidden;

  it('holds none of the token table on the GPUs; blocks and an untied head keep theirs', () => {
    const layers = [layer('embeddings', table), layer('block.0', 218e6), layer('head', table + 4096)];
    const placed = withHostEmbedding(llama, layers);
    expect(placed.map((l) => l.params)).toEqual([0, 218e6, table + 4096]);
    expect(placed[1]).toBe(layers[1]);
  });

  it("gives a tied head the table's copy (llama.cpp builds `output` from token_embd in the output layer's buffer)", () => {
    const tied: TransformerEntry = { ...llama, tiedEmbeddings: true };
    const placed = withHostEmbedding(tied, [layer('embeddings', table), layer('block.0', 1), layer('head', 4096)]);
    expect(placed.map((l) => l.params)).toEqual([0, 1, 4096 + table]);
  });

  it('leaves layers without embedding weights as they are', () => {
    const layers = [layer('block.0', 1), layer('head', 2)];
    expect(withHostEmbedding(llama, layers)).toBe(layers);
  });
});
