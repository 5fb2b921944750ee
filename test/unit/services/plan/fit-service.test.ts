/** `fit` through the service: a catalog decoder's memory per format and the GPUs it fits on. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { fitModel } from '../../../../src-main/services/plan/fit-service.js';
import { getCatalogEntry } from '../../../../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../../../../src-main/core/catalog/schema.js';
import { engineHolds } from '../../../../src-main/core/engines/engine-fit.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { replicaKvTokens } from '../../../../src-main/core/engines/engine-memory.js';
import { deployment } from '../../core/engines/engine-fixtures.js';
import { resolveGpuName } from '../../../../src-main/core/planner/cost/datasheets.js';

describe('fitModel', () => {
  it('serves Llama 3.1 8B in bf16 on an RTX 4090 but not a 3060, and in 4 bits on both', () => {
    const r = fitModel(openDatabase(':memory:'), {
      model: 'llama-3.1-8b',
      mode: 'inference',
      context: 8192,
      gpus: ['RTX 4090', 'RTX 3060'],
    });
    expect(r.params).toBe(8_030_261_248);
    const bf16 = r.rows.find((x) => x.label === 'bf16/fp16');
    // 32 layers x 8 KV heads x 128 x 2 (K and V) x 2 bytes = 128 KiB a token.
    expect(bf16?.kvCacheBytes).toBe(131072 * 8192);
    expect(bf16?.alone).toEqual(['NVIDIA GeForce RTX 4090']);
    expect(r.rows.find((x) => x.label === 'q4_k')?.alone).toEqual([
      'NVIDIA GeForce RTX 4090',
      'NVIDIA GeForce RTX 3060',
    ]);
  });

  it('lists a 16 GB RTX 4080 for Llama 3 8B f16 on llama.cpp at 512 tokens (its token table stays on the host), as plan finds', () => {
    const db = openDatabase(':memory:');
    const on = (engine: 'llama.cpp' | 'vllm') =>
      fitModel(db, { model: 'llama-3.1-8b', mode: 'inference', context: 512, gpus: ['RTX 4080'], engine }).rows.find(
        (x) => x.label === 'bf16/fp16',
      )?.alone;
    expect(on('llama.cpp')).toEqual(['NVIDIA GeForce RTX 4080']);
    // vLLM holds the table on the GPU, at 90% of the card less its 1.5 GiB reserve.
    expect(on('vllm')).toEqual([]);
  });

  it('trains a 7B model at 16 bytes a parameter plus activations, split over H100s', () => {
    const r = fitModel(openDatabase(':memory:'), {
      model: 'llama-7b',
      mode: 'training',
      context: 2048,
      gpus: ['H100 SXM5'],
    });
    const [plain, full] = r.rows;
    expect((plain?.weightsBytes ?? 0) + (plain?.gradientBytes ?? 0) + (plain?.optimizerBytes ?? 0)).toBe(16 * r.params);
    expect(full?.activationBytes).toBeLessThan(plain?.activationBytes ?? 0);
    expect(plain?.alone).toEqual([]);
    expect(plain?.split?.count).toBeGreaterThanOrEqual(2);
  });

  it('without --gpus, lists the GPUs people own first and says that 70B in q4_k splits over two RTX 4090s', () => {
    const db = openDatabase(':memory:');
    const small = fitModel(db, { model: 'llama-3.1-8b', mode: 'inference', context: 8192 });
    expect(small.rows[0]?.alone.slice(0, 2)).toEqual(['NVIDIA GeForce RTX 4090', 'NVIDIA GeForce RTX 3090']);
    expect(small.notes.some((n) => n.startsWith('GPUs listed smallest memory first'))).toBe(true);
    const large = fitModel(db, { model: 'llama-3.1-70b', mode: 'inference', context: 8192 });
    const q4 = large.rows.find((x) => x.label === 'q4_k');
    expect(q4?.consumerSplit).toEqual({ gpu: 'NVIDIA GeForce RTX 4090', count: 2 });
    expect(q4?.time?.serving?.decodeTokensPerSecond).toBeGreaterThan(0);
  });

  describe('a served row is listed only where its engine holds it with the context', () => {
    const entry = getCatalogEntry('llama-3.1-70b') as TransformerEntry;
    const int4 = { engine: engineRules('vllm'), entry, format: 'int4' as const, kvCache: 'auto' as const };
    const held = (gpu: string, n: number, tokens: number): boolean => engineHolds(int4, resolveGpuName(gpu), n, tokens);

    it('70B in int4 at 8,192 tokens: no 48 GB card, and the time is on the first GPU listed', () => {
      const r = fitModel(openDatabase(':memory:'), { model: 'llama-3.1-70b', mode: 'inference' });
      const row = r.rows.find((x) => x.how.format === 'int4');
      expect(r.context).toBe(8192);
      expect(row?.alone.length).toBeGreaterThan(0);
      for (const gpu of row?.alone ?? []) expect(held(gpu, 1, 8192)).toBe(true);
      expect(row?.alone).not.toContain('NVIDIA RTX 6000 Ada Generation');
      expect(row?.alone).not.toContain('NVIDIA L40S');
      expect(row?.time?.gpu).toBe(row?.alone[0]);
      for (const s of [row?.split, row?.consumerSplit])
        if (s) {
          expect(held(s.gpu, s.count, 8192)).toBe(true);
          expect(held(s.gpu, s.count - 1, 8192)).toBe(false);
        }
    });

    it('a card just big enough: listed at the most tokens its engine caches, not at one more', () => {
      const gpu = 'NVIDIA RTX 6000 Ada Generation';
      const room = replicaKvTokens(deployment({ model: 'llama-3.1-70b', gpu, format: 'int4' }));
      const at = (context: number) =>
        fitModel(openDatabase(':memory:'), {
          model: 'llama-3.1-70b',
          mode: 'inference',
          context,
          gpus: [gpu],
        }).rows.find((x) => x.how.format === 'int4');
      expect(at(room)?.alone).toEqual([gpu]);
      expect(at(room)?.time?.gpu).toBe(gpu);
      expect(at(room + 1)?.alone).toEqual([]);
      expect(at(room + 1)?.split).toEqual({ gpu, count: 2 });
    });
  });

  it('says which part a family name in --gpus stands for', () => {
    const r = fitModel(openDatabase(':memory:'), { model: 'llama-3.1-8b', mode: 'inference', gpus: ['H100'] });
    expect(r.gpus.map((g) => g.name)).toEqual(['NVIDIA H100 SXM5 80GB']);
    expect(r.notes.some((n) => n.startsWith('"H100" stands for NVIDIA H100 SXM5 80GB'))).toBe(true);
  });
});
