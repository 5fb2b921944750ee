/**
 * What varies from block to block of a transformer entry: whether block i routes its MLP through
 * experts (dense first layers, a sparse step, listed dense layers) and whether its attention is
 * local (sliding window) or global; and the attention widths every block shares. Pure.
 */
import type { TransformerEntry } from './schema.js';

/** Width of one attention head: headDim, or hidden / heads. */
export function headDimOf(e: TransformerEntry): number {
  return e.headDim ?? e.hidden / e.heads;
}

/** Width of the query projection (and of the attention output before `out`): heads x headDim. */
export function queryWidth(e: TransformerEntry): number {
  return e.heads * headDimOf(e);
}

/** Block i's MLP goes through the routed experts (the entry has experts and the block is not dense). */
export function isMoeBlock(e: TransformerEntry, i: number): boolean {
  if (e.experts === undefined) return false;
  if (i < (e.denseLayers ?? 0)) return false;
  if ((i + 1) % (e.moeEvery ?? 1) !== 0) return false;
  return !(e.denseLayerList ?? []).includes(i);
}

/** Block i attends over a sliding window of e.window tokens (else over the whole context). */
export function isLocalBlock(e: TransformerEntry, i: number): boolean {
  if (e.window === undefined) return false;
  if (e.layerTypes !== undefined) return e.layerTypes[i] === 'local';
  if (e.localPattern !== undefined) return (i + 1) % e.localPattern !== 0;
  return true;
}

/** Values one block caches per token: a key and a value per KV head, or MLA's latent plus rotary key. */
export function cachedValuesPerToken(e: TransformerEntry): number {
  if (e.mla) return e.mla.kvLoraRank + e.mla.qkRopeHeadDim;
  return 2 * (e.kvHeads ?? e.heads) * headDimOf(e);
}
