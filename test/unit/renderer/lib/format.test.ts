import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatParameterCount,
  formatElapsed,
  formatFlops,
  formatFraction,
  formatGBps,
  formatGflops,
  formatInt,
  formatNumber,
  formatPercent,
  formatTime,
  MISSING,
  plural,
} from '../../../../src-renderer/src/lib/format.js';

describe('renderer number formatting', () => {
  it('keeps three significant digits without exponents or trailing zeros', () => {
    expect(formatNumber(123.456)).toBe('123');
    expect(formatNumber(1.5)).toBe('1.5');
    expect(formatNumber(0.012345)).toBe('0.0123');
    expect(formatNumber(98765)).toBe('98765');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(-2.5)).toBe('-2.5');
  });

  it('prints missing values as a dash', () => {
    for (const v of [null, undefined, NaN, Infinity]) {
      expect(formatNumber(v)).toBe(MISSING);
      expect(formatTime(v)).toBe(MISSING);
      expect(formatBytes(v)).toBe(MISSING);
      expect(formatGflops(v)).toBe(MISSING);
      expect(formatPercent(v)).toBe(MISSING);
    }
  });

  it('picks ns, µs, ms, s and minutes for times given in µs', () => {
    expect(formatTime(0.25)).toBe('250 ns');
    expect(formatTime(12.34)).toBe('12.3 µs');
    expect(formatTime(999)).toBe('999 µs');
    expect(formatTime(1500)).toBe('1.5 ms');
    expect(formatTime(2_340_000)).toBe('2.34 s');
    expect(formatTime(125_000_000)).toBe('2 min 05 s');
    expect(formatTime(0)).toBe('0 µs');
  });

  it('prints compute rates, bandwidths, sizes and counts in their units', () => {
    expect(formatGflops(116.3)).toBe('116 GFLOP/s');
    expect(formatGflops(29_500)).toBe('29.5 TFLOP/s');
    expect(formatGflops(0.5)).toBe('500 MFLOP/s');
    expect(formatGBps(32)).toBe('32 GB/s');
    expect(formatGBps(3350)).toBe('3.35 TB/s');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(24 * 2 ** 30)).toBe('24.0 GiB');
    expect(formatCount(134_000)).toBe('134k');
    expect(formatCount(7.1e9)).toBe('7.1G');
    // Parameters as people say them: "8.03 B parameters", not "8.03G".
    expect(formatParameterCount(8_030_261_248)).toBe('8.03 B');
    expect(formatParameterCount(124_000_000)).toBe('124 M');
    expect(formatFlops(36.2e6)).toBe('36.2 MFLOP');
    expect(formatInt(1234567)).toBe('1\u202f234\u202f567');
  });

  it('prints percentages and fractions, huge errors in exponent form', () => {
    expect(formatPercent(12.345)).toBe('12.3 %');
    expect(formatPercent(150.4)).toBe('150 %');
    expect(formatPercent(1_164_996_530)).toBe('1.2e9 %');
    expect(formatFraction(0.125)).toBe('12.5 %');
  });

  it('says elapsed time between ISO dates and pluralizes', () => {
    expect(formatElapsed('2026-01-01T00:00:00Z', '2026-01-01T00:00:13Z')).toBe('13 s');
    expect(formatElapsed('2026-01-01T00:00:00Z', null)).toBe(MISSING);
    expect(plural(1, 'run')).toBe('1 run');
    expect(plural(3, 'run')).toBe('3 runs');
  });
});
