/** Memory per way of holding a model, and where it fits, against hand computations. */
import { describe, expect, it } from 'vitest';
import {
  fitOrder,
  fitRows,
  placeRow,
  plannerHolds,
  SERVING_FORMATS,
} from '../../../../../src-main/core/planner/memory/fit.js';

const GiB = 2 ** 30;
const model = {
  params: 8e9,
  kvBytesPerToken: 131072,
  stepActivationBytes: 1e8,
  trainingActivationBytes: 40e9,
  checkpointedActivationBytes: 2e9,
};

describe('fitRows', () => {
  it('serves each format at its bytes per weight with a 16-bit KV cache of context x batch', () => {
    const rows = fitRows(model, 'inference', 8192, 2);
    expect(rows.map((r) => r.label)).toEqual(SERVING_FORMATS.map((f) => f.label));
    const bf16 = rows[0];
    expect(bf16?.weightsBytes).toBe(16e9);
    expect(bf16?.kvCacheBytes).toBe(131072 * 8192 * 2);
    expect(bf16?.totalBytes).toBe(16e9 + 131072 * 8192 * 2 + 1e8);
    expect(rows.find((r) => r.label === 'fp8')?.weightsBytes).toBe(8e9);
  });

  it('trains with 16 bytes a parameter and the activations with and without recomputation', () => {
    const [plain, full] = fitRows(model, 'training', 4096, 1);
    expect((plain?.weightsBytes ?? 0) + (plain?.gradientBytes ?? 0) + (plain?.optimizerBytes ?? 0)).toBe(16 * 8e9);
    expect(plain?.activationBytes).toBe(40e9);
    expect(full?.activationBytes).toBe(2e9);
    expect(full?.kvCacheBytes).toBe(0);
  });
});

describe('placeRow', () => {
  const gpus = [
    { name: 'small', memoryBytes: 23 * GiB },
    { name: 'big', memoryBytes: 79 * GiB },
  ];
  it('names the GPUs that hold a row alone, with the overhead counted', () => {
    const r = { ...fitRows(model, 'inference', 1, 1)[0]!, totalBytes: 22.6 * GiB };
    expect(placeRow(gpus, plannerHolds(r, 0.5 * GiB))).toEqual({ alone: ['big'], split: null, consumerSplit: null });
  });
  it('splits over the fewest of the largest GPU when none holds it alone', () => {
    const r = { ...fitRows(model, 'training', 1, 1)[0]!, totalBytes: 200 * GiB };
    // 200 GiB over 78.5 GiB of room each: 3.
    expect(placeRow(gpus, plannerHolds(r, 0.5 * GiB))).toEqual({
      alone: [],
      split: { gpu: 'big', count: 3 },
      consumerSplit: null,
    });
  });
  it('splits over the fewest of the smallest consumer card when no consumer card holds it alone', () => {
    const cards = [
      { name: 'NVIDIA GeForce RTX 5090', memoryBytes: 32 * GiB },
      { name: 'NVIDIA GeForce RTX 4090', memoryBytes: 24 * GiB },
      { name: 'NVIDIA RTX A6000', memoryBytes: 48 * GiB },
    ];
    // 40 GiB: two of either consumer card (23.5 or 31.5 GiB of room each); the smaller is named.
    const r = { ...fitRows(model, 'inference', 1, 1)[0]!, totalBytes: 40 * GiB };
    expect(placeRow(cards, plannerHolds(r, 0.5 * GiB))).toEqual({
      alone: ['NVIDIA RTX A6000'],
      split: null,
      consumerSplit: { gpu: 'NVIDIA GeForce RTX 4090', count: 2 },
    });
    // More than eight consumer cards: none offered.
    expect(placeRow(cards, plannerHolds({ ...r, totalBytes: 300 * GiB }, 0.5 * GiB)).consumerSplit).toBeNull();
  });
  it('lists only where the check given holds: a GPU the check refuses alone is split over, with the count it accepts', () => {
    // A check stricter than the planner's (an engine's), accepting the big GPU only as 2 or more.
    const holds = (g: { name: string }, n: number): boolean => g.name === 'big' && n >= 2;
    expect(placeRow(gpus, holds)).toEqual({ alone: [], split: { gpu: 'big', count: 2 }, consumerSplit: null });
    expect(placeRow(gpus, () => false)).toEqual({ alone: [], split: null, consumerSplit: null });
  });
});

describe('fitOrder', () => {
  it('lists the smallest memory first, and of equal memory consumer, workstation, then datacenter cards', () => {
    const order = fitOrder([
      { name: 'NVIDIA H100 SXM5 80GB', memoryBytes: 80 * GiB },
      { name: 'NVIDIA L4', memoryBytes: 24 * GiB },
      { name: 'NVIDIA RTX A5000', memoryBytes: 24 * GiB },
      { name: 'NVIDIA GeForce RTX 4090', memoryBytes: 24 * GiB },
      { name: 'NVIDIA GeForce RTX 3060', memoryBytes: 12 * GiB },
    ]).map((g) => g.name);
    expect(order).toEqual([
      'NVIDIA GeForce RTX 3060',
      'NVIDIA GeForce RTX 4090',
      'NVIDIA RTX A5000',
      'NVIDIA L4',
      'NVIDIA H100 SXM5 80GB',
    ]);
  });
});
