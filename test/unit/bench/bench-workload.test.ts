/**
 * The serving bench's workload as the server sees it (bench/lib/bench-workload.ts): a random-dataset
 * prompt re-encoded by Llama 3's tokenizer, and ShareGPT lengths whose means a run states.
 */
import { describe, expect, it } from 'vitest';
import {
  clampedLognormalMean,
  medianForMean,
  RANDOM_BYTES_PER_TOKEN,
  randomPromptTokens,
} from '../../../bench/lib/bench-workload.js';
import { sampleLengths } from '../../../src-main/core/serving/lengths.js';

describe('bench workload', () => {
  it('a random prompt of N nominal tokens reaches the server as 1.046 N + BOS, at 6.16 bytes a token', () => {
    expect(randomPromptTokens(1000)).toBe(1047);
    expect(randomPromptTokens(5000)).toBe(5231);
    expect(randomPromptTokens(32000)).toBe(33473);
    expect(RANDOM_BYTES_PER_TOKEN).toBeGreaterThan(3.94);
  });

  it('the clamped lognormal mean matches its draws (the header assumption: median 138 -> mean 214)', () => {
    expect(clampedLognormalMean(138, 1, 1024)).toBeCloseTo(214.7, 0);
    const draws = sampleLengths({ kind: 'lognormal', median: 138, sigma: 1, max: 1024 }, 200_000, 7);
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(Math.abs(mean / clampedLognormalMean(138, 1, 1024) - 1)).toBeLessThan(0.01);
    // No clamp in reach: the plain lognormal mean, median x e^(sigma^2/2).
    expect(clampedLognormalMean(10, 0.5, 1e9)).toBeCloseTo(10 * Math.exp(0.125), 6);
  });

  it('solves the median for a stated mean, and refuses a mean the clamp cannot reach', () => {
    const m = medianForMean(229.25, 1, 1024);
    expect(m).not.toBeNull();
    expect(clampedLognormalMean(m as number, 1, 1024)).toBeCloseTo(229.25, 6);
    expect(medianForMean(214, 1, 1024)).toBeCloseTo(137.4, 0);
    expect(medianForMean(1024, 1, 1024)).toBeNull();
    expect(medianForMean(0, 1, 1024)).toBeNull();
    expect(medianForMean(NaN, 1, 1024)).toBeNull();
  });
});
