import { describe, expect, it } from 'vitest';
import { printable, printableLine } from '../../../../src-main/core/text/printable.js';

describe('printable', () => {
  it('shows terminal controls and bidi overrides as visible escapes', () => {
    expect(printable('a\x1b]0;pwned\x07b')).toBe('a\\u001b]0;pwned\\u0007b');
    expect(printable('x\r\x1b[31my\x9b')).toBe('x\\u000d\\u001b[31my\\u009b');
    expect(printable('abc\u202edef\u2066\u200f')).toBe('abc\\u202edef\\u2066\\u200f');
  });

  it('leaves newlines, tabs and ordinary Unicode alone', () => {
    const text = 'GPU 0\tNVIDIA H100 — 80 GiB, µs, 数据\n';
    expect(printable(text)).toBe(text);
  });

  it('keeps JSON valid and equal: the escape is the same character', () => {
    const json = JSON.stringify({ label: 'lab\u202e\x1b' });
    expect(JSON.parse(printable(json))).toEqual({ label: 'lab\u202e\x1b' });
  });

  it('printableLine escapes newlines and tabs too, for a table cell or a one-line message', () => {
    expect(printableLine('a\nb\tc\x1b\u202e 数据')).toBe('a\\u000ab\\u0009c\\u001b\\u202e 数据');
  });
});
