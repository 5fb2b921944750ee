import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../../src-main/core/text/bytes.js';

describe('formatBytes', () => {
  it('writes sizes in binary units, one decimal under 100 and none from 100 up', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(0.5 * 2 ** 30)).toBe('512 MiB');
    expect(formatBytes(11.3 * 2 ** 30)).toBe('11.3 GiB');
    expect(formatBytes(24 * 2 ** 30)).toBe('24.0 GiB');
    expect(formatBytes(150 * 2 ** 30)).toBe('150 GiB');
    expect(formatBytes(3 * 2 ** 50)).toBe('3.0 PiB');
  });

  it('keeps the sign of a negative size', () => {
    expect(formatBytes(-1536)).toBe('-1.5 KiB');
  });

  it('says a missing size with the placeholder given ("-" by default)', () => {
    for (const v of [null, undefined, NaN, Infinity]) expect(formatBytes(v)).toBe('-');
    expect(formatBytes(null, '—')).toBe('—');
  });
});
