/** Prompt and answer lengths: the CLI's spec, and draws that keep to their distribution. */
import { describe, expect, it } from 'vitest';
import { parseLengthSpec, sampleLengths } from '../../../../src-main/core/serving/lengths.js';

const sorted = (xs: Int32Array): number[] => [...xs].sort((a, b) => a - b);

describe('parseLengthSpec', () => {
  it('reads a count, a range and a lognormal', () => {
    expect(parseLengthSpec('2000')).toEqual({ kind: 'fixed', tokens: 2000 });
    expect(parseLengthSpec('1000-3000')).toEqual({ kind: 'uniform', lo: 1000, hi: 3000 });
    expect(parseLengthSpec(' 500 - 500 ')).toEqual({ kind: 'fixed', tokens: 500 });
    expect(parseLengthSpec('lognormal:2000:0.6')).toEqual({ kind: 'lognormal', median: 2000, sigma: 0.6 });
  });

  it.each([
    ['', /--output length: "" is not a whole number/],
    ['0', /not a whole number of tokens from 1/],
    ['2.5', /not a whole number/],
    ['3000-1000', /high end is below its low end/],
    ['lognormal:2000', /write lognormal:MEDIAN:SIGMA/],
    ['lognormal:2000:9', /sigma "9" must be a number from 0 to 3/],
    ['lognormal:x:0.5', /median: "x" is not a whole number/],
    ['gamma:3', /write a count \(2000\), a range \(1000-3000\) or lognormal/],
    ['99999999999', /not a whole number of tokens from 1 to 10000000/],
  ])('refuses %j in one line naming the flag', (spec, message) => {
    expect(() => parseLengthSpec(spec, '--output')).toThrow(message);
    expect(() => parseLengthSpec(spec, '--output')).toThrow(/^--output /);
  });
});

describe('sampleLengths', () => {
  it('draws a lognormal around its median (within 5% over 20,000 draws), whole, within [1, max]', () => {
    const xs = sampleLengths({ kind: 'lognormal', median: 2000, sigma: 0.6, max: 8000 }, 20_000, 9);
    const s = sorted(xs);
    expect(Math.abs((s[10_000] as number) / 2000 - 1)).toBeLessThan(0.05);
    expect(s[0]).toBeGreaterThanOrEqual(1);
    expect(s[s.length - 1]).toBe(8000);
    // ln x is normal with sigma 0.6: its 84th percentile is median x e^0.6.
    expect(Math.abs((s[Math.round(0.8413 * 20_000)] as number) / (2000 * Math.exp(0.6)) - 1)).toBeLessThan(0.05);
  });

  it('draws a uniform range with both ends, and cycles a trace', () => {
    const u = sorted(sampleLengths({ kind: 'uniform', lo: 10, hi: 12 }, 3000, 1));
    expect(new Set(u)).toEqual(new Set([10, 11, 12]));
    expect([...sampleLengths({ kind: 'trace', tokens: [5, 7] }, 5, 1)]).toEqual([5, 7, 5, 7, 5]);
    expect([...sampleLengths(300, 2, 1)]).toEqual([300, 300]);
  });

  it('gives the same draws for the same seed and others for another', () => {
    const d = { kind: 'lognormal', median: 300, sigma: 0.8 } as const;
    expect(sampleLengths(d, 50, 4)).toEqual(sampleLengths(d, 50, 4));
    expect(sampleLengths(d, 50, 5)).not.toEqual(sampleLengths(d, 50, 4));
  });
});
