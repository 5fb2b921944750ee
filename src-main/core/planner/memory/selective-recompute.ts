/**
 * Selective recomputation's inputs for a catalog transformer's blocks (training): what a block
 * keeps without its attention scores, and the time to compute them again. Pure.
 */
import { attentionCoreName, isBlockName } from '../../catalog/block-names.js';
import { attentionScoreBytes } from '../../catalog/activation-memory.js';
import type { CatalogEntry, TransformerEntry } from '../../catalog/index.js';
import { DTYPE_BYTES } from '../../domain/dtypes.js';
import type { WorkloadPrediction } from '../../workload/predict-workload.js';
import type { Workload } from '../../workload/types.js';
import type { PlanCandidate } from '../search/plan-candidate.js';
import type { PlanLayer } from '../types.js';

/** The attention scores a block keeps per sample (the s² terms of transformerLayerActivationBytes). */
export function scoreBytesPerSample(w: Workload, e: TransformerEntry): number {
  const elementBytes = DTYPE_BYTES[w.nodes[0]?.dtype ?? 'fp16'];
  return attentionScoreBytes({ seq: w.bindings.seq ?? 0, heads: e.heads, elementBytes, dropout: e.dropout });
}

/**
 * Selective recomputation's inputs for each transformer block of a catalog model (training): the
 * activations it keeps without the attention core's s² terms (the as²b part of
 * transformerLayerActivationBytes, per sample) and that core's predicted forward time per device.
 */
export function withSelectiveRecompute(
  w: Workload,
  e: CatalogEntry | null,
  layers: PlanLayer[],
  candidates: readonly PlanCandidate[],
  predictions: readonly WorkloadPrediction[],
): PlanLayer[] {
  if (!e || e.kind !== 'transformer') return layers;
  const scoreBytes = scoreBytesPerSample(w, e);
  const batch = w.bindings.batch ?? 1;
  // Alike devices share one prediction object: index each once.
  const byName = new Map<WorkloadPrediction, Map<string, number>>();
  const coreUs = (p: WorkloadPrediction | undefined, layer: string): number => {
    if (!p) return 0;
    let index = byName.get(p);
    if (!index) {
      index = new Map(p.nodes.map((n) => [n.name, n.timeUs]));
      byName.set(p, index);
    }
    return index.get(attentionCoreName(layer)) ?? 0;
  };
  return layers.map((l) => {
    if (!isBlockName(l.name)) return l;
    const recomputeUs: Record<string, number> = {};
    candidates.forEach((c, j) => {
      recomputeUs[c.device.id] = coreUs(predictions[j], l.name) / batch;
    });
    return {
      ...l,
      selective: { activationBytesPerSample: Math.max(0, l.activationBytesPerSample - scoreBytes), recomputeUs },
    };
  });
}
