import { describe, expect, it } from 'vitest';
import { QUOTED_MAX_CHARS, cut, quoted, shown, visibleName } from '../../../../src-main/core/text/shown.js';

describe('shown', () => {
  const cases: [string, string, string][] = [
    ['newline', 'a\nb', 'a\\nb'],
    ['carriage return', 'a\rb', 'a\\rb'],
    ['tab', 'a\tb', 'a\\tb'],
    ['CRLF', 'a\r\nb', 'a\\r\\nb'],
    ['line separator', 'a\u2028b', 'a\\u2028b'],
    ['paragraph separator', 'a\u2029b', 'a\\u2029b'],
    ['next line (C1)', 'a\u0085b', 'a\\u0085b'],
    ['ESC sequence', '\x1b[31mred\x1b[0m', '\\u001b[31mred\\u001b[0m'],
    ['OSC title', '\x1b]0;pwned\x07', '\\u001b]0;pwned\\u0007'],
    ['bidi override', 'abc\u202edef', 'abc\\u202edef'],
    ['NUL', 'a\0b', 'a\\u0000b'],
    ['astral format character', 'a\u{e0001}b', 'a\\udb40\\udc01b'],
    ['lone surrogate', 'a\ud800b', 'a\\ud800b'],
    ['ordinary Unicode', 'NVIDIA H100 — 80 GiB, µs, 数据', 'NVIDIA H100 — 80 GiB, µs, 数据'],
  ];
  it.each(cases)('%s: one line with visible escapes', (_name, text, want) => {
    expect(shown(text)).toBe(want);
    expect(shown(text)).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u);
    expect(shown(shown(text))).toBe(want);
  });
});

describe('quoted', () => {
  it('quotes a short value whole', () => {
    expect(quoted('pp=2')).toBe('"pp=2"');
    expect(quoted(7)).toBe('"7"');
  });

  it('cuts a long value to 40 characters with an ellipsis', () => {
    const q = quoted('x'.repeat(10_000));
    expect(q).toBe(`"${'x'.repeat(QUOTED_MAX_CHARS)}..."`);
  });

  it('keeps a multi-line value on one line', () => {
    expect(quoted('a\nb\u2028c\x1b[2J')).toBe('"a\\nb\\u2028c\\u001b[2J"');
  });

  it('cuts by characters, never inside a surrogate pair', () => {
    expect(cut('😀'.repeat(50), 40)).toBe(`${'😀'.repeat(40)}...`);
    expect(cut('abc', 40)).toBe('abc');
  });

  it('visibleName cuts at 80 characters', () => {
    expect(visibleName('y'.repeat(100))).toBe(`${'y'.repeat(80)}...`);
  });
});
