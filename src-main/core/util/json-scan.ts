/**
 * One pass over a JSON text's UTF-8 bytes without building a single value: strings skipped whole
 * (escaped quotes and backslashes included), the nesting depth moved by braces and brackets, and
 * every other byte handed to the caller. What is counted on it: the keys at one depth
 * (json-keys.ts), how deep and how wide a request body is (http/json-depth.ts). The text is not
 * validated: a caller parses it after, once the counts are within its caps. Pure.
 */

/** The bytes of JSON's structure. */
export const JSON_BYTE = {
  quote: 0x22,
  backslash: 0x5c,
  colon: 0x3a,
  comma: 0x2c,
  openObject: 0x7b,
  closeObject: 0x7d,
  openArray: 0x5b,
  closeArray: 0x5d,
} as const;

/** A JSON text read byte by byte outside its strings. */
export class JsonScan {
  /**
   * The nesting depth after the last byte read: an opening brace or bracket is at the depth it
   * opens (the top-level object's keys are at depth 1), a closing one at the depth it returns to.
   */
  depth = 0;
  private at = -1;

  constructor(private readonly bytes: Uint8Array) {}

  /** The next byte outside strings; -1 when the bytes end, or a string never ends. */
  next(): number {
    const bytes = this.bytes;
    for (let i = this.at + 1; i < bytes.length; i++) {
      const b = bytes[i] as number;
      if (b === JSON_BYTE.quote) {
        i = stringEnd(bytes, i);
        if (i < 0) break;
        continue;
      }
      if (b === JSON_BYTE.openObject || b === JSON_BYTE.openArray) this.depth++;
      else if (b === JSON_BYTE.closeObject || b === JSON_BYTE.closeArray) this.depth--;
      this.at = i;
      return b;
    }
    this.at = bytes.length;
    return -1;
  }
}

/** The index of the quote that ends the string opened at `start`: the next one after an even run of backslashes; -1 if none. */
function stringEnd(bytes: Uint8Array, start: number): number {
  let j = start;
  for (;;) {
    j = bytes.indexOf(JSON_BYTE.quote, j + 1);
    if (j < 0) return -1;
    let k = j - 1;
    while (k > start && bytes[k] === JSON_BYTE.backslash) k--;
    if ((j - 1 - k) % 2 === 0) return j;
  }
}
