/**
 * How deep a JSON text nests, counted on its bytes before it is parsed. JSON.parse recurses
 * into every array and object and allocates each: a 16 MiB body of 8 million nested arrays held
 * the server's event loop about 2 s and took it near 0.9 GiB. No request of the API nests more
 * than a few levels, so a body past MAX_JSON_DEPTH is refused before it is parsed.
 */

/** The deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * The most values (separators plus one) a request body may hold: no request of the API lists
 * more than a few thousand (a model's bytes travel as one base64 string), while a flat 16 MiB array
 * of 8 million numbers holds the event loop about 2 s in JSON.parse.
 */
export const MAX_JSON_VALUES = 100_000;

const COMMA = 0x2c;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * What makes a JSON text too costly to parse, counted on its bytes in one pass: 'deep' past
 * `maxDepth` levels of arrays and objects, 'wide' past `maxValues` values (commas outside strings,
 * plus one); null when neither.
 */
export function jsonShapeProblem(bytes: Uint8Array, maxDepth: number, maxValues: number): 'deep' | 'wide' | null {
  let depth = 0;
  let separators = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      const end = stringEnd(bytes, i);
      if (end < 0) return null;
      i = end;
    } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > maxDepth) return 'deep';
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
    else if (b === COMMA && ++separators >= maxValues) return 'wide';
  }
  return null;
}

/** The index of the quote that ends the string opened at `start`: the next one after an even run of backslashes; -1 if none. */
function stringEnd(bytes: Uint8Array, start: number): number {
  let j = start;
  for (;;) {
    j = bytes.indexOf(QUOTE, j + 1);
    if (j < 0) return -1;
    let k = j - 1;
    while (k > start && bytes[k] === BACKSLASH) k--;
    if ((j - 1 - k) % 2 === 0) return j;
  }
}
