/**
 * The key/value cache an autoregressive transformer keeps while it generates: for every layer, a
 * key and a value vector per cached token per key/value head,
 *
 *   bytes = 2 x layers x kvHeads x headDim x context x batch x bytes per element,
 *
 * so grouped-query attention (8 key/value heads instead of 64 in Llama 3.1 70B) shrinks it by
 * heads / kvHeads. Two refinements:
 * - multi-head latent attention (DeepSeek-V2/V3) caches one latent of kvLoraRank values plus the
 *   shared rotary key of qkRopeHeadDim per layer per token, whatever the heads;
 * - a local (sliding-window) layer (Gemma 2/3) holds at most `window` tokens: min(context, window).
 * Pure.
 */
import type { Dtype } from '../domain/measurement.js';
import { DTYPE_BYTES } from '../domain/dtypes.js';
import { cachedValuesPerToken, isLocalBlock } from './block-layout.js';
import type { TransformerEntry } from './schema.js';

export interface KvCacheShape {
  /** Tokens held per sequence (prompt plus generated). */
  context: number;
  /** Sequences generated at once. */
  batch: number;
  dtype: Dtype;
}

/** Bytes of the key/value cache of a decoder for `context` tokens of `batch` sequences. */
export function kvCacheBytes(e: TransformerEntry, p: KvCacheShape): number {
  const window = e.window ?? p.context;
  let tokens = 0;
  for (let i = 0; i < e.layers; i++) tokens += isLocalBlock(e, i) ? Math.min(p.context, window) : p.context;
  return cachedValuesPerToken(e) * tokens * p.batch * DTYPE_BYTES[p.dtype];
}

/**
 * Bytes one more cached token adds, per sequence, while the context is within every window: what
 * each decode step appends and later reads, in all layers. Beyond a sliding window the local
 * layers stop growing, so for sliding-window models this is an upper bound: kvCacheBytes gives the
 * exact cache at a context.
 */
export function kvBytesPerToken(e: TransformerEntry, dtype: Dtype): number {
  return kvCacheBytes(e, { context: 1, batch: 1, dtype });
}
