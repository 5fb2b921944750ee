import { describe, expect, it } from 'vitest';
import { catalogWorkload, getCatalogEntry } from '../../../../../src-main/core/catalog/index.js';
import { withTensorSplit } from '../../../../../src-main/core/planner/search/tensor-split.js';
import type { PlanLayer } from '../../../../../src-main/core/planner/types.js';

const layersOf = (names: string[]): PlanLayer[] =>
  names.map((name) => ({
    name,
    forwardUs: {},
    backwardUs: {},
    params: 1,
    outBytesPerSample: 1,
    activationBytesPerSample: 1,
  }));

describe('withTensorSplit', () => {
  const w = catalogWorkload('llama-3.1-70b', { seq: 16 });
  const e = getCatalogEntry('llama-3.1-70b');
  const layers = layersOf(['embed', 'block.0', 'block.1', 'head']);

  it('splits only the blocks, with two all-reduces each way, at the degrees dividing heads and KV heads', () => {
    const warnings: string[] = [];
    const split = withTensorSplit(w, e, layers, undefined, warnings);
    expect(split.tensorDegrees).toEqual([1, 2, 4, 8]);
    expect(split.layers.map((l) => l.tensor !== undefined)).toEqual([false, true, true, false]);
    expect(split.layers[1]?.tensor).toEqual({ divides: [64, 8], forwardAllReduces: 2, backwardAllReduces: 2 });
    expect(warnings).toEqual([]);
  });

  it('refuses a degree that does not divide the KV heads, naming those that do', () => {
    expect(() => withTensorSplit(w, e, layers, [16], [])).toThrow(
      "--tp 16: a tensor-parallel degree must divide llama-3.1-70b's 64 attention heads and 8 KV heads (degrees that do: 1, 2, 4, 8)",
    );
  });

  it('leaves a workload without a catalog description whole, and says --tp is ignored', () => {
    const warnings: string[] = [];
    const split = withTensorSplit(w, null, layers, [2], warnings);
    expect(split).toEqual({ layers, tensorDegrees: [1] });
    expect(warnings).toEqual([
      `${w.name}: tensor parallelism is planned for catalog transformers and GGUF decoders only; --tp ignored`,
    ]);
  });
});
