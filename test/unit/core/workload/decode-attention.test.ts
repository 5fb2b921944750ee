/** One layer's decode attention as a graph, in both dataflows, read back as a workload. */
import { describe, expect, it } from 'vitest';
import { CACHE_INPUT, decodeAttentionModel } from '../../../../src-main/core/workload/decode-attention.js';
import { workloadFromOnnx } from '../../../../src-main/core/workload/from-onnx.js';
import { checkModels } from '../../../helpers/onnx-oracle.js';
import { needOracle } from '../../../helpers/oracle.js';

const dims = { batch: 1, heads: 8, kvHeads: 2, headDim: 64, context: 1000 };
const kernels = (dataflow: 'read-once' | 'concat') =>
  workloadFromOnnx(decodeAttentionModel(dims, dataflow), { name: 'attention' }).nodes.map((n) => ({
    name: n.name,
    op: n.kernel?.op ?? null,
    shape: n.kernel?.shape ?? null,
    cache: n.inputs.filter((t) => CACHE_INPUT.test(t.name)).map((t) => t.dims),
  }));

describe('decodeAttentionModel', () => {
  it('reads the cache in place once: the score and value products over the cache, one query row per head of a group', () => {
    const nodes = kernels('read-once');
    const readers = nodes.filter((n) => n.cache.length > 0);
    expect(readers.map((n) => [n.op, n.shape])).toEqual([
      ['MatMul', { B: 2, M: 4, N: 1000, K: 64 }],
      ['MatMul', { B: 2, M: 4, N: 64, K: 1000 }],
    ]);
    expect(readers.flatMap((n) => n.cache)).toEqual([
      [1, 2, 64, 1000],
      [1, 2, 1000, 64],
    ]);
    expect(nodes.some((n) => n.op === 'Concat' && n.cache.length > 0)).toBe(false);
  });

  it('concatenates: the cache copied with the new token, K transposed, then read by the products', () => {
    const nodes = kernels('concat');
    const copies = nodes.filter((n) => n.cache.length > 0);
    expect(copies.map((n) => n.op)).toEqual(['Concat', 'Concat']);
    expect(nodes.filter((n) => n.op === 'Transpose')).toHaveLength(1);
    expect(nodes.filter((n) => n.op === 'MatMul').map((n) => n.shape)).toEqual([
      { B: 2, M: 4, N: 1001, K: 64 },
      { B: 2, M: 4, N: 64, K: 1001 },
    ]);
  });

  it('holds no cache bytes: the cache and the query are inputs, and batch multiplies the products', () => {
    const model = decodeAttentionModel({ ...dims, batch: 3, context: 100_000 }, 'read-once');
    expect(model.byteLength).toBeLessThan(4096);
    const w = workloadFromOnnx(model, { name: 'attention' });
    expect(w.nodes.find((n) => n.name.endsWith('scores.past'))?.kernel?.shape).toEqual({
      B: 6,
      M: 4,
      N: 100_000,
      K: 64,
    });
  });
});

describe.skipIf(!needOracle('onnx'))('decode attention graphs pass the official ONNX checker', () => {
  it('in both dataflows, in fp32, fp16 and bf16', () => {
    const models = (['read-once', 'concat'] as const).flatMap((flow) =>
      (['fp32', 'fp16', 'bf16'] as const).map((dtype) => ({
        name: `${flow}-${dtype}`,
        bytes: decodeAttentionModel(dims, flow, dtype),
      })),
    );
    const results = checkModels(models);
    for (const m of models)
      expect({ name: m.name, error: results.get(m.name)?.error }).toEqual({ name: m.name, error: null });
  });
});
