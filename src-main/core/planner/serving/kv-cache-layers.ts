/** A served decoder's blocks with the KV cache each holds per sequence. Pure. */
import { headDimOf } from '../../catalog/block-layout.js';
import { isBlockName } from '../../catalog/block-names.js';
import { kvCacheBytes, type TransformerEntry } from '../../catalog/index.js';
import { count } from '../../text/plural.js';
import type { Workload } from '../../workload/types.js';
import { formatBytes } from '../../text/bytes.js';
import type { ServedDecoder } from './served-decoder.js';
import type { PlanLayer } from '../types.js';

/** What a token caches, in words: "2 x 32 layers x 8 KV heads x 128", or a latent's width under MLA. */
function kvCacheShape(e: TransformerEntry): string {
  const layers = count(e.layers, 'layer');
  if (e.mla) return `${layers} x (${e.mla.kvLoraRank} latent + ${e.mla.qkRopeHeadDim} rotary)`;
  const window = e.window !== undefined ? `, local layers at most ${count(e.window, 'token')}` : '';
  return `2 x ${layers} x ${e.kvHeads ?? e.heads} KV heads x ${headDimOf(e)}${window}`;
}

/**
 * Serving a catalog decoder holds its KV cache: each block keeps 2 x kvHeads x headDim values per
 * token of the context (prompt + output tokens) per sequence, on the device of its stage, for every
 * sequence that device serves (resident bytes: every search's memory check counts them).
 */
export function withKvCache(
  w: Workload,
  decoder: TransformerEntry,
  served: ServedDecoder,
  layers: PlanLayer[],
  batch: number,
  warnings: string[],
): PlanLayer[] {
  const seq = served.prompt + served.tokens;
  const dtype = w.nodes[0]?.dtype ?? 'fp16';
  const perBlock = kvCacheBytes(decoder, { context: seq, batch: 1, dtype }) / decoder.layers;
  const blocks = layers.filter((l) => isBlockName(l.name)).length;
  warnings.push(
    `${w.name}: inference memory holds the KV cache of ${count(seq, 'token')} per sequence (prompt ${served.prompt} + ${served.tokens} output), ${formatBytes(perBlock * blocks * batch)} at batch ${batch} (${kvCacheShape(decoder)} x ${dtype})`,
  );
  return layers.map((l) => (isBlockName(l.name) ? { ...l, residentBytesPerSample: perBlock } : l));
}
