/**
 * How deep a JSON text nests, counted on its bytes before it is parsed. JSON.parse recurses
 * into every array and object and allocates each: a 16 MiB body of 8 million nested arrays held
 * the server's event loop about 2 s and took it near 0.9 GiB. No request of the API nests more
 * than a few levels, so a body past MAX_JSON_DEPTH is refused before it is parsed.
 */
import { JSON_BYTE, JsonScan } from '../core/util/json-scan.js';

/** The deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * The most values (separators plus one) a request body may hold: no request of the API lists
 * more than a few thousand (a model's bytes travel as one base64 string), while a flat 16 MiB array
 * of 8 million numbers holds the event loop about 2 s in JSON.parse.
 */
export const MAX_JSON_VALUES = 100_000;

/**
 * What makes a JSON text too costly to parse, counted on its bytes in one pass (JsonScan): 'deep'
 * past `maxDepth` levels of arrays and objects, 'wide' past `maxValues` values (commas outside
 * strings, plus one); null when neither.
 */
export function jsonShapeRefusal(bytes: Uint8Array, maxDepth: number, maxValues: number): 'deep' | 'wide' | null {
  const scan = new JsonScan(bytes);
  let separators = 0;
  for (let b = scan.next(); b >= 0; b = scan.next()) {
    if (scan.depth > maxDepth) return 'deep';
    if (b === JSON_BYTE.comma && ++separators >= maxValues) return 'wide';
  }
  return null;
}
