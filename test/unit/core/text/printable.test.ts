import { describe, expect, it } from 'vitest';
import { printable } from '../../../../src-main/core/text/printable.js';

describe('printable', () => {
  it('shows terminal controls, bidi overrides and line separators as visible escapes', () => {
    expect(printable('a\x1b]0;pwned\x07b')).toBe('a\\u001b]0;pwned\\u0007b');
    expect(printable('x\r\x1b[31my\x9b')).toBe('x\\r\\u001b[31my\\u009b');
    expect(printable('abc\u202edef\u2066\u200f')).toBe('abc\\u202edef\\u2066\\u200f');
    expect(printable('a\u2028b\u2029c\u0085d')).toBe('a\\u2028b\\u2029c\\u0085d');
  });

  it('leaves newlines, tabs and ordinary Unicode alone', () => {
    const text = 'GPU 0\tNVIDIA H100 — 80 GiB, µs, 数据\n';
    expect(printable(text)).toBe(text);
  });

  it('keeps JSON valid and equal: the escape is the same character', () => {
    const json = JSON.stringify({ label: 'lab\u202e\x1b\u2028\u{e0001}' });
    expect(JSON.parse(printable(json))).toEqual({ label: 'lab\u202e\x1b\u2028\u{e0001}' });
  });
});
