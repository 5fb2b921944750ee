import { describe, expect, it } from 'vitest';
import {
  gatheredLayerBytes,
  largestGatherBytes,
  largestGatherTable,
} from '../../../../../src-main/core/planner/memory/gathered-layer.js';

describe('ZeRO-3: the gathered layer', () => {
  it("a layer's fp16 weights and gradients, and the next layer's weights prefetched: 6 bytes a parameter", () => {
    // A Llama-3 8B block, 218,112,000 parameters: 1,308,672,000 bytes (1.22 GiB).
    expect(gatheredLayerBytes(218_112_000, 0)).toBe(1_308_672_000);
  });
  it('frozen weights (fine-tuning) are gathered twice, in flight and prefetched, with no gradient', () => {
    expect(gatheredLayerBytes(1e6, 5e8)).toBe(6e6 + 1e9);
  });
  it("a stage counts its largest layer; a tensor-split layer's share is 1/tp", () => {
    const t = largestGatherTable([
      { params: 1e8 },
      { params: 3e8, tensor: { divides: [4], forwardAllReduces: 2, backwardAllReduces: 2 } },
      { params: 2e8 },
    ]);
    expect(largestGatherBytes(t, 0, 1, 1)).toBe(6e8);
    expect(largestGatherBytes(t, 0, 3, 1)).toBe(18e8);
    // Split over 4: 18e8 / 4 = 4.5e8, less than the whole layer [2]'s 12e8.
    expect(largestGatherBytes(t, 0, 3, 4)).toBe(12e8);
    expect(largestGatherBytes(t, 1, 2, 4)).toBe(4.5e8);
  });
});
