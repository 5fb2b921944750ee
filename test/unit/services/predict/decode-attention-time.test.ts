/** A decode step's attention priced node by node (services/predict/decode-attention-time.ts). */
import { describe, expect, it } from 'vitest';
import { CACHE_INPUT, decodeAttentionModel } from '../../../../src-main/core/workload/decode-attention.js';
import { workloadFromOnnx } from '../../../../src-main/core/workload/from-onnx.js';
import { profiledAttentionUs } from '../../../../src-main/services/predict/decode-attention-time.js';
import { pickDevice, predictOnDevice } from '../../../../src-main/services/workload/workload-service.js';
import { trainedStore } from '../service-stores.js';

describe('decode attention on a profiled CPU', () => {
  it("prices a concatenating step's K transpose as folded into the scores product and its copies at their read", () => {
    const db = trainedStore();
    const device = pickDevice(db, 'cpu', 1);
    const dims = { batch: 1, heads: 8, kvHeads: 8, headDim: 64, context: 3000 };
    const w = workloadFromOnnx(decodeAttentionModel(dims, 'concat', 'fp32'), { name: 'a' });
    const p = predictOnDevice(db, w, device, { mode: 'inference' });
    const transpose = p.nodes.find((n) => n.opType === 'Transpose');
    // The transpose moves the whole cache once more: priced on its own it costs something.
    expect(transpose?.timeUs).toBeGreaterThan(0);
    const bandwidthGBps = 20;
    const expected = p.nodes.reduce((a, n) => {
      if (n.how === 'free' || n.opType === 'Transpose') return a;
      const cacheBytes = (w.nodes[n.index]?.inputs ?? [])
        .filter((t) => CACHE_INPUT.test(t.name))
        .reduce((x, t) => x + t.dims.reduce((u, v) => u * v, 1) * 4, 0);
      const coldUs = cacheBytes / (bandwidthGBps * 1e3);
      // A copy of the cache (Concat) pays its read from memory on top of its profiled time.
      return a + (n.opType === 'Concat' ? n.timeUs + coldUs : Math.max(n.timeUs, coldUs));
    }, 0);
    const decoder = { layers: 3, hidden: 512, heads: 8, kvHeads: 8, params: 1e8, expertParams: 0 };
    const shape = { ...decoder, gatheredParams: 0, experts: 0, topK: 0, nodesPerStep: 100 };
    const at = { batch: 1, dataflow: 'concat' as const, dtype: 'fp32' as const, bandwidthGBps };
    expect(profiledAttentionUs(db, device, shape, 3000, at)).toBeCloseTo(3 * expected, 6);
  });
});
