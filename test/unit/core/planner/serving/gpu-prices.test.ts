import { describe, expect, it } from 'vitest';
import priceFile from '../../../../../models/gpu-prices.json' with { type: 'json' };
import { GPU_DATASHEETS, resolveGpuName } from '../../../../../src-main/core/planner/cost/datasheets.js';
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

  it('reads every entry of the shipped file, each GPU a datasheet id and each price from a named page', () => {
    expect(DEFAULT_GPU_PRICES).toHaveLength(priceFile.prices.length);
    for (const p of DEFAULT_GPU_PRICES) {
      expect(GPU_DATASHEETS.map((g) => g.id)).toContain(p.gpu);
      expect(p.source.name.length).toBeGreaterThan(0);
      expect(p.offer.length).toBeGreaterThan(0);
      if (p.via !== undefined) expect(p.via).toMatch(/^https:\/\//);
    }
  });

  it('prices the inference GPUs people rent (L40S, L4, T4, A100 PCIe 80GB), each from its page and date', () => {
    for (const name of ['L40S', 'L4', 'T4', 'A100 PCIe 80GB']) {
      const p = priceOf(resolveGpuName(name), new Map());
      expect(p, name).toMatchObject({ given: false, source: { url: expect.stringMatching(/^https:/) } });
      expect(p?.perHour, name).toBeGreaterThan(0);
    }
  });

  it('gives a per-second price per hour and names the per-second figure in its offer', () => {
    for (const p of DEFAULT_GPU_PRICES) {
      const perSecond = /\$([0-9.]+) a second/.exec(p.offer);
      if (perSecond) expect(p.perHour).toBeCloseTo(Number(perSecond[1]) * 3600, 6);
    }
    expect(DEFAULT_GPU_PRICES.some((p) => / a second/.test(p.offer))).toBe(true);
  });

  it("says a price of the GPU alone where the output names its source, so it is not read as a machine's", () => {
    const gpuAlone = DEFAULT_GPU_PRICES.filter((p) => /the GPU alone/.test(p.offer));
    expect(gpuAlone.length).toBeGreaterThan(0);
    for (const p of gpuAlone) expect(priceOf(resolveGpuName(p.gpu), new Map())?.source?.name).toMatch(/the GPU alone/);
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
