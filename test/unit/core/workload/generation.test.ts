/** The decode model: bytes and FLOPs of a step against hand counts, experts touched, what fits. */
import { describe, expect, it } from 'vitest';
import {
  decodeStep,
  expertsTouched,
  kvBytesPerTokenOf,
  largestFit,
  type DecoderShape,
} from '../../../../src-main/core/workload/generation.js';

// A Llama 3.1 8B-shaped decoder (8,030,261,248 parameters, GQA 32/8 heads).
const llama8b: DecoderShape = {
  layers: 32,
  hidden: 4096,
  heads: 32,
  kvHeads: 8,
  params: 8_030_261_248,
  expertParams: 0,
  gatheredParams: 0,
  experts: 0,
  topK: 0,
  nodesPerStep: 500,
};
const dev = { bandwidthGBps: 1000, peakGflops: 500_000, nodeUs: 0.01, runUs: 5 };

describe('kvBytesPerTokenOf', () => {
  it('takes the values a layer caches per token when the shape gives them (head_dim, latent attention)', () => {
    // Qwen3-0.6B: 8 KV heads of head_dim 128 (not hidden 1024 / 16 heads = 64).
    expect(
      kvBytesPerTokenOf({ ...llama8b, layers: 28, hidden: 1024, heads: 16, kvValuesPerLayer: 2 * 8 * 128 }, 2),
    ).toBe(28 * 2 * 8 * 128 * 2);
  });
});

describe('decodeStep', () => {
  it('reads every weight and the whole KV cache once per step: memory-bound on a GPU', () => {
    const s = decodeStep(llama8b, { batch: 1, context: 8192, elementBytes: 2 }, dev);
    const kv = 2 * 32 * 8 * 128 * 2; // 131,072 B per token
    expect(kvBytesPerTokenOf(llama8b, 2)).toBe(kv);
    expect(s.bytes).toBe(8_030_261_248 * 2 + kv * 8192 + kv);
    expect(s.flops).toBe(2 * 8_030_261_248 + 4 * 32 * 4096 * 8192);
    expect(s.bound).toBe('memory');
    expect(s.memoryUs).toBeCloseTo(s.bytes / 1e6, 6);
    expect(s.overheadUs).toBeCloseTo(500 * 0.01 + 5, 9);
    expect(s.stepUs).toBeCloseTo(s.memoryUs + s.overheadUs, 6);
  });

  it('with the attention priced apart, streams the weights alone and adds the attention beside them', () => {
    const at = { batch: 1, context: 8192, elementBytes: 2 };
    const streamed = decodeStep(llama8b, at, dev);
    const apart = decodeStep(llama8b, { ...at, attentionUs: 700 }, dev);
    const kv = kvBytesPerTokenOf(llama8b, 2);
    expect(apart.bytes).toBe(streamed.bytes);
    expect(apart.memoryUs).toBeCloseTo((streamed.bytes - kv * 8192) / 1e6, 9);
    expect(apart.attentionUs).toBe(700);
    expect(streamed.attentionUs).toBe(0);
    expect(apart.stepUs).toBeCloseTo(Math.max(apart.memoryUs, apart.computeUs) + 700 + apart.overheadUs, 9);
  });

  it('turns compute-bound at a large batch, where the weights are shared by every sequence', () => {
    const s = decodeStep(llama8b, { batch: 1024, context: 16, elementBytes: 2 }, dev);
    expect(s.bound).toBe('compute');
    expect(s.stepUs).toBeCloseTo(s.computeUs + s.overheadUs, 6);
  });

  it('mixture of experts: one token reads topK experts, many tokens read nearly all of them', () => {
    const moe: DecoderShape = { ...llama8b, params: 1000, expertParams: 800, experts: 8, topK: 2 };
    expect(expertsTouched(moe, 1)).toBeCloseTo(2, 9);
    expect(expertsTouched(moe, 64)).toBeCloseTo(8, 3);
    const one = decodeStep(moe, { batch: 1, context: 0, elementBytes: 1 }, { ...dev, bandwidthGBps: 1 });
    expect(one.bytes - 2 * kvBytesPerTokenOf(moe, 1) * 0 - kvBytesPerTokenOf(moe, 1)).toBeCloseTo(200 + 2 * 100, 6);
  });
});

describe('embedding tables', () => {
  it('are gathered a row per sequence, not read whole (untied LM head)', () => {
    const table = 128_256 * 4096;
    const untied = { ...llama8b, gatheredParams: table };
    const a = decodeStep(untied, { batch: 2, context: 0, elementBytes: 2 }, dev);
    const b = decodeStep(llama8b, { batch: 2, context: 0, elementBytes: 2 }, dev);
    expect(b.bytes - a.bytes).toBe((table - 2 * 4096) * 2);
  });
});

describe('largestFit', () => {
  it('fills what the weights leave with KV cache', () => {
    const free = 80 * 2 ** 30 - 8_030_261_248 * 2;
    const fit = largestFit(llama8b, {
      batch: 1,
      context: 8192,
      elementBytes: 2,
      memoryBytes: 80 * 2 ** 30,
      maxContext: 131_072,
    });
    expect(fit.batch).toBe(Math.floor(free / (131_072 * 8192)));
    expect(fit.context).toBe(131_072);
    expect(
      largestFit(llama8b, { batch: 1, context: 1, elementBytes: 2, memoryBytes: 2 ** 30, maxContext: 10 }),
    ).toEqual({ batch: 0, context: 0 });
  });
});
