/** `fit` through the service: a catalog decoder's memory per format and the GPUs it fits on. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { fitModel } from '../../../../src-main/services/plan/fit-service.js';

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

  it('says which part a family name in --gpus stands for', () => {
    const r = fitModel(openDatabase(':memory:'), { model: 'llama-3.1-8b', mode: 'inference', gpus: ['H100'] });
    expect(r.gpus.map((g) => g.name)).toEqual(['NVIDIA H100 SXM5 80GB']);
    expect(r.notes.some((n) => n.startsWith('"H100" stands for NVIDIA H100 SXM5 80GB'))).toBe(true);
  });
});
