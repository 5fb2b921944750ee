import { describe, expect, it } from 'vitest';
import { countJsonKeys } from '../../../../src-main/core/util/json-keys.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const count = (v: unknown, depth: number, stopAfter?: number): number =>
  countJsonKeys(bytes(typeof v === 'string' ? v : JSON.stringify(v)), depth, stopAfter);

describe('countJsonKeys: the keys at one depth of a JSON text, without parsing it', () => {
  it('counts the keys of the top-level object and of the objects one level down', () => {
    const header = {
      __metadata__: { format: 'pt', note: 'x' },
      a: { dtype: 'F16', shape: [2, 3], data_offsets: [0, 12] },
      b: { dtype: 'F16', shape: [], data_offsets: [12, 14] },
    };
    expect(count(header, 1)).toBe(3);
    expect(count(header, 2)).toBe(8);
    expect(count({ weight_map: { x: 'a', y: 'b' }, metadata: {} }, 2)).toBe(2);
    expect(count({}, 1)).toBe(0);
    expect(count([{ a: 1 }, { b: 2 }], 2)).toBe(2);
  });

  it('ignores colons, braces and brackets inside strings, escaped quotes and backslashes included', () => {
    const tricky = { 'a:{"b":[1]}': 1, 'c\\': { 'd"e': '}]:{' }, 'f\\"g': ':' };
    expect(count(tricky, 1)).toBe(3);
    expect(count(tricky, 2)).toBe(1);
    expect(count('{"a":"\\\\", "b": "\\"", "c": "\\\\\\":"}', 1)).toBe(3);
    // Multi-byte UTF-8 inside keys and values.
    expect(count({ 'é:ü': 'ß{', ключ: '值:' }, 1)).toBe(2);
  });

  it('stops counting past stopAfter', () => {
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    expect(count(many, 1)).toBe(1000);
    expect(count(many, 1, 10)).toBe(11);
  });

  it('does not hang or throw on text that is not JSON (the parser refuses it after)', () => {
    expect(count('{"a": 1, "unterminated', 1)).toBe(1);
    expect(count('}}}]]]:::', 1)).toBe(0);
    expect(count('"\\', 1)).toBe(0);
  });
});
