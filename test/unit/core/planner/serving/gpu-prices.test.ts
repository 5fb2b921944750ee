import { describe, expect, it } from 'vitest';
import { resolveGpuName } from '../../../../../src-main/core/planner/cost/datasheets.js';
import {
  DEFAULT_GPU_PRICES,
  givenPrices,
  parsePrices,
  priceOf,
} from '../../../../../src-main/core/planner/serving/gpu-prices.js';

describe('GPU prices', () => {
  it('ships one cited price per datasheet GPU, each with its page and date', () => {
    expect(DEFAULT_GPU_PRICES.length).toBeGreaterThanOrEqual(5);
    for (const p of DEFAULT_GPU_PRICES) {
      expect(p.source.url).toMatch(/^https:\/\//);
      expect(p.source.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(p.perHour).toBeGreaterThan(0);
    }
    expect(new Set(DEFAULT_GPU_PRICES.map((p) => p.gpu)).size).toBe(DEFAULT_GPU_PRICES.length);
  });

  it('reads --price and puts a given price over the default, saying which is which', () => {
    const given = givenPrices(parsePrices('H100 SXM5=2.5/h, 4090=0.4'));
    const h100 = resolveGpuName('H100 SXM5');
    expect(priceOf(h100, given)).toEqual({ perHour: 2.5, given: true, source: null });
    expect(priceOf(resolveGpuName('RTX 4090'), given)?.perHour).toBe(0.4);
    const a100 = priceOf(resolveGpuName('A100 SXM4 80GB'), given);
    expect(a100).toMatchObject({ given: false, source: { url: expect.stringMatching(/^https:/) } });
    expect(priceOf(resolveGpuName('RTX 3060'), given)).toBeNull();
  });

  it('refuses a bad price in one line naming it', () => {
    expect(() => parsePrices('H100=free')).toThrow(/^--price H100=free: give GPU=DOLLARS\/h/);
    expect(() => parsePrices('H100=0/h')).toThrow(/above 0/);
    expect(() => givenPrices(parsePrices('Z9000=1/h'))).toThrow(/Z9000/);
  });
});
