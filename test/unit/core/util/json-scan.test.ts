import { describe, expect, it } from 'vitest';
import { JsonScan } from '../../../../src-main/core/util/json-scan.js';

/** Every byte the scan hands over, as a character with the depth after it. */
const scanned = (text: string): string[] => {
  const scan = new JsonScan(new TextEncoder().encode(text));
  const seen: string[] = [];
  for (let b = scan.next(); b >= 0; b = scan.next()) seen.push(`${String.fromCharCode(b)}${scan.depth}`);
  return seen;
};

describe('JsonScan: a JSON text byte by byte outside its strings, with its depth', () => {
  it.each([
    {
      name: 'an opening brace at the depth it opens, a closing one at the depth it returns to',
      text: '{"a":[1]}',
      seen: ['{1', ':1', '[2', '12', ']1', '}0'],
    },
    { name: 'braces, brackets and colons inside strings skipped', text: '{"a:{[":"]}"}', seen: ['{1', ':1', '}0'] },
    {
      name: 'an escaped quote inside a string, and an escaped backslash before its end',
      text: '["a\\"b","c\\\\"]',
      seen: ['[1', ',1', ']0'],
    },
    { name: 'nothing after a string that never ends', text: '[1,"abc', seen: ['[1', '11', ',1'] },
  ])('$name', ({ text, seen }) => {
    expect(scanned(text)).toEqual(seen);
  });

  it('reads -1 again once the bytes have ended', () => {
    const scan = new JsonScan(new TextEncoder().encode('[]'));
    expect([scan.next(), scan.next(), scan.next(), scan.next()]).toEqual([0x5b, 0x5d, -1, -1]);
  });
});
