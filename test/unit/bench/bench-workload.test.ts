/**
 * The serving bench's workload as the server sees it (bench/lib/bench-workload.ts): a random-dataset
 * prompt re-encoded by Llama 3's or Qwen's tokenizer, and ShareGPT lengths whose means a run states.
 */
import { describe, expect, it } from 'vitest';
import {
  clampedLognormalMean,
  medianForMean,
  randomPromptOf,
  randomPromptTokens,
} from '../../../bench/lib/bench-workload.js';
import { sampleLengths } from '../../../src-main/core/serving/lengths.js';

describe('bench workload', () => {
  it('a random prompt of N nominal tokens reaches the server as 1.046 N + BOS, at 6.16 bytes a token', () => {
    expect(randomPromptTokens(1000)).toBe(1047);
    expect(randomPromptTokens(5000)).toBe(5231);
    expect(randomPromptTokens(32000)).toBe(33473);
    const llama3 = randomPromptOf(128_256);
    expect(llama3?.bytesPerToken).toBe(6.16);
    expect(randomPromptTokens(1000, llama3)).toBe(1047);
  });

  it("Qwen's tokenizer (QwQ-32B's 152,064 rows) re-encodes 1.051 N, adds no BOS, at 5.99 bytes a token", () => {
    const qwen = randomPromptOf(152_064);
    expect(qwen).toBeDefined();
    expect(randomPromptTokens(1000, qwen)).toBe(1051);
    expect(randomPromptTokens(5000, qwen)).toBe(5255);
    expect(randomPromptTokens(32000, qwen)).toBe(33632);
    expect(qwen?.bytesPerToken).toBe(5.99);
    // Denser than English text (3.94 bytes a token), so its tokenizer takes longer a token.
    expect(qwen?.bytesPerToken).toBeGreaterThan(3.94);
  });

  it('a vocabulary no tokenizer was measured on has no rule: its prompts stay as stated', () => {
    expect(randomPromptOf(32_000)).toBeUndefined();
    expect(randomPromptOf(151_936)).toBeUndefined();
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
