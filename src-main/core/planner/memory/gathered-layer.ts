/**
 * What ZeRO-3 (FSDP FULL_SHARD) holds beyond each replica's shards (issue 59). Pure.
 *
 * A replica keeps 1/N of every parameter's state (memory.ts), but the layer it runs is whole: its
 * fp16 weights are all-gathered before its forward and again before its backward, and its fp16
 * gradients are whole until the reduce-scatter that follows its backward. Meanwhile the next
 * layer's weights are gathered ahead (FSDP's forward and backward prefetch, DeepSpeed's prefetch
 * bucket). At the peak, in a layer's backward, a device holds that layer's weights and gradients
 * and the next layer's weights; the next is taken as large as the largest layer of the stage
 * (exact for equal blocks).
 */
import { GRAD_BYTES_PER_PARAM, WEIGHT_BYTES_PER_PARAM } from './memory.js';
import type { PlanLayer } from '../types.js';

/**
 * Bytes ZeRO-3 gathers for a layer of `params` trained parameters and `frozenBytes` frozen weight
 * bytes (fine-tuning): its weights and gradients, and the prefetched next layer's weights taken as
 * large; frozen weights are gathered with no gradient.
 */
export function gatheredLayerBytes(params: number, frozenBytes: number): number {
  return params * (2 * WEIGHT_BYTES_PER_PARAM + GRAD_BYTES_PER_PARAM) + 2 * frozenBytes;
}

/** gatheredLayerBytes of the largest layer of every range [from, to), replicated and tensor-split layers apart. */
export interface LargestGatherTable {
  layerCount: number;
  whole: Float64Array;
  split: Float64Array;
}

export function largestGatherTable(
  layers: readonly Pick<PlanLayer, 'params' | 'frozenBytes' | 'tensor'>[],
): LargestGatherTable {
  const L = layers.length;
  const table = { layerCount: L, whole: new Float64Array(L * (L + 1)), split: new Float64Array(L * (L + 1)) };
  for (let from = 0; from < L; from++) {
    let whole = 0;
    let split = 0;
    for (let to = from + 1; to <= L; to++) {
      const layer = layers[to - 1];
      if (!layer) continue;
      const bytes = gatheredLayerBytes(layer.params, layer.frozenBytes ?? 0);
      if (layer.tensor) split = Math.max(split, bytes);
      else whole = Math.max(whole, bytes);
      table.whole[from * (L + 1) + to] = whole;
      table.split[from * (L + 1) + to] = split;
    }
  }
  return table;
}

/** What one member of a tensor-parallel group of degree tp gathers for the largest layer of [from, to). */
export function largestGatherBytes(t: LargestGatherTable, from: number, to: number, tp: number): number {
  const i = from * (t.layerCount + 1) + to;
  return Math.max(t.whole[i] as number, (t.split[i] as number) / tp);
}
