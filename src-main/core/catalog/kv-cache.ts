/**
 * The key/value cache an autoregressive transformer keeps while it generates: for every layer, a
 * key and a value vector per cached token per key/value head,
 *
 *   bytes = 2 x layers x kvHeads x headDim x context x batch x bytes per element,
 *
 * so grouped-query attention (8 key/value heads instead of 64 in Llama 3.1 70B) shrinks it by
 * heads / kvHeads. Pure.
 */
import type { Dtype } from '../domain/measurement.js';
import { DTYPE_BYTES } from '../kernels/cost.js';
import type { TransformerEntry } from './schema.js';
import { kvWidth } from './transformer.js';

export interface KvCacheShape {
  /** Tokens held per sequence (prompt plus generated). */
  context: number;
  /** Sequences generated at once. */
  batch: number;
  dtype: Dtype;
}

/** Bytes of the key/value cache of a decoder for `context` tokens of `batch` sequences. */
export function kvCacheBytes(e: TransformerEntry, p: KvCacheShape): number {
  return 2 * e.layers * kvWidth(e) * p.context * p.batch * DTYPE_BYTES[p.dtype];
}

/** Bytes one more cached token adds, per sequence: what each decode step appends and later reads. */
export function kvBytesPerToken(e: TransformerEntry, dtype: Dtype): number {
  return kvCacheBytes(e, { context: 1, batch: 1, dtype });
}
