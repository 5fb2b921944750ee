/**
 * How many keys the objects at one nesting depth of a JSON text hold, counted on its UTF-8 bytes
 * without building a single object: one pass over the bytes, strings skipped whole (escaped quotes
 * and backslashes included), depth moved by braces and brackets, and every ':' outside a string
 * counted as a key at its depth (in JSON a ':' only ever follows a key). The top-level object is
 * depth 1. The text is not validated: a caller parses it after, once the count is within its cap,
 * so a header of a million entries is refused for the cost of a scan, not of a million objects.
 * Pure.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Keys of the objects at `depth` (1: the top-level object's); stops and returns stopAfter + 1 once past it. */
export function countJsonKeys(bytes: Uint8Array, depth: number, stopAfter = Infinity): number {
  let d = 0;
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      // Skip the string: to its closing quote, each escape's next byte skipped with it.
      for (i++; i < bytes.length; i++) {
        const b = bytes[i];
        if (b === BACKSLASH) i++;
        else if (b === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) d++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) d--;
    else if (c === COLON && d === depth && ++n > stopAfter) return n;
  }
  return n;
}
