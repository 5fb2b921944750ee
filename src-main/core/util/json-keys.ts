/**
 * How many keys the objects at one nesting depth of a JSON text hold, counted on its UTF-8 bytes
 * without building a single object (JsonScan): every ':' outside a string counted as a key at its
 * depth (in JSON a ':' only ever follows a key). The top-level object is depth 1. The text is not
 * validated: a caller parses it after, once the count is within its cap, so a header of a million
 * entries is refused for the cost of a scan, not of a million objects. Pure.
 */
import { JSON_BYTE, JsonScan } from './json-scan.js';

/** Keys of the objects at `depth` (1: the top-level object's); stops and returns stopAfter + 1 once past it. */
export function countJsonKeys(bytes: Uint8Array, depth: number, stopAfter = Infinity): number {
  const scan = new JsonScan(bytes);
  let n = 0;
  for (let b = scan.next(); b >= 0; b = scan.next())
    if (b === JSON_BYTE.colon && scan.depth === depth && ++n > stopAfter) break;
  return n;
}
