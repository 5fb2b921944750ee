/**
 * What context parallelism reads of a catalog transformer: the tokens of a sample and each
 * block's keys and values over them (ring attention passes these around its group). Pure.
 */
import { isBlockName } from '../../catalog/block-names.js';
import { activationElementBytes } from '../../catalog/activation-memory.js';
import { cachedValuesPerToken } from '../../catalog/block-layout.js';
import type { CatalogEntry } from '../../catalog/index.js';
import type { Workload } from '../../workload/types.js';
import type { PlanLayer } from '../types.js';

/**
 * The tokens of a sample (null for a model that is not a catalog transformer) and each block's K
 * and V bytes a sample: 2 x tokens x KV heads x head width x the element bytes of its GEMMs' dtype.
 */
export function withSequence(
  w: Workload,
  e: CatalogEntry | null,
  layers: PlanLayer[],
): { layers: PlanLayer[]; sequence: number | null } {
  const seq = w.bindings.seq ?? 0;
  if (!e || e.kind !== 'transformer' || seq <= 0) return { layers, sequence: null };
  const elementBytes = activationElementBytes(w.nodes.find((n) => n.flops > 0)?.dtype ?? 'fp16');
  const kvBytesPerSample = seq * cachedValuesPerToken(e) * elementBytes;
  return {
    layers: layers.map((l) => (isBlockName(l.name) ? { ...l, kvBytesPerSample } : l)),
    sequence: seq,
  };
}
