import { describe, expect, it } from 'vitest';
import { catalogWorkload } from '../../../../../src-main/core/catalog/index.js';
import { blockGemms, withBlockGemms } from '../../../../../src-main/core/planner/problem/block-gemms.js';
import type { PlanLayer } from '../../../../../src-main/core/planner/types.js';

describe('blockGemms', () => {
  it("reads each projection's share of the block's forward FLOPs off the first block", () => {
    const g = blockGemms(catalogWorkload('llama-3.1-70b', { seq: 4096 }));
    expect(g).not.toBeNull();
    // qkv: 64 query heads and 2 x 8 KV heads of 128 over the 64-head output projection; SwiGLU: gate and up over down.
    expect((g?.attnIn ?? 0) / (g?.attnOut ?? 1)).toBeCloseTo(80 / 64, 9);
    expect((g?.mlpIn ?? 0) / (g?.mlpOut ?? 1)).toBeCloseTo(2, 9);
    const sum = (g?.attnIn ?? 0) + (g?.attnOut ?? 0) + (g?.mlpIn ?? 0) + (g?.mlpOut ?? 0);
    // The attention core, norms and activations take the rest.
    expect(sum).toBeLessThan(1);
    expect(sum).toBeGreaterThan(0.8);
  });

  it('gives a mixture-of-experts block none, and leaves its layers as they are', () => {
    const w = catalogWorkload('mixtral-8x7b', { seq: 512 });
    expect(blockGemms(w)).toBeNull();
    const layers: PlanLayer[] = [
      {
        name: 'block.0',
        forwardUs: {},
        backwardUs: {},
        params: 1,
        outBytesPerSample: 1,
        activationBytesPerSample: 1,
        tensor: { divides: [8], forwardAllReduces: 3, backwardAllReduces: 3, experts: 8 },
      },
    ];
    expect(withBlockGemms(w, layers)).toBe(layers);
  });
});
