/**
 * A trained catalog transformer's blocks as the kernels hold them (training, not fine-tuning): the
 * activations a block keeps under the stack's attention (memory/attention-memory.ts), its input and
 * peak under full recomputation, and selective recomputation's inputs. Pure.
 */
import { attentionCoreName, isBlockName } from '../../catalog/block-names.js';
import { activationElementBytes, attentionScoreBytes } from '../../catalog/activation-memory.js';
import type { CatalogEntry, TransformerEntry } from '../../catalog/index.js';
import type { WorkloadPrediction } from '../../workload/predict-workload.js';
import type { Workload } from '../../workload/types.js';
import type { PlanCandidate } from '../search/plan-candidate.js';
import type { PlanLayer } from '../types.js';
import {
  blockActivationBytes,
  TRAINING_STACK_ATTENTION,
  trainedLayersMemory,
  type AttentionKernel,
  type AttentionShape,
} from './attention-memory.js';

/**
 * A catalog transformer's attention as the activation count reads it (sequence, heads, element
 * bytes, dropout): the element bytes of the dtype its GEMMs compute in, as the catalog counts them.
 */
function attentionShape(w: Workload, e: TransformerEntry): AttentionShape {
  const elementBytes = activationElementBytes(w.nodes.find((n) => n.flops > 0)?.dtype ?? 'fp16');
  return { seq: w.bindings.seq ?? 0, heads: e.heads, elementBytes, dropout: e.dropout };
}

/** The attention scores a block keeps per sample (the s² terms of transformerLayerActivationBytes). */
export function scoreBytesPerSample(w: Workload, e: TransformerEntry): number {
  return attentionScoreBytes(attentionShape(w, e));
}

/**
 * Each transformer block of a catalog model trained (not fine-tuned) as the stack's attention
 * kernel holds it (`kernel`, TRAINING_STACK_ATTENTION's by default):
 * - kept for backward: the block's count without the s² scores under fused attention, with its
 *   softmax statistics;
 * - full recomputation: the block's input kept, its activations as the peak while recomputed;
 * - selective recomputation: what a block keeps without the attention core's s² terms (under fused
 *   attention, what it keeps anyway) and that core's predicted forward time per device.
 */
export function withTrainingMemory(
  w: Workload,
  e: CatalogEntry | null,
  layers: PlanLayer[],
  candidates: readonly PlanCandidate[],
  predictions: readonly WorkloadPrediction[],
  kernel: AttentionKernel = TRAINING_STACK_ATTENTION.kernel,
): PlanLayer[] {
  if (!e || e.kind !== 'transformer') return layers;
  const shape = attentionShape(w, e);
  const memory = trainedLayersMemory(
    layers.map((l) => ({
      block: isBlockName(l.name),
      activationBytes: l.activationBytesPerSample,
      outBytes: l.outBytesPerSample,
    })),
    shape,
    kernel,
  );
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
  return layers.map((l, i) => {
    const m = memory[i];
    if (!m?.fullRecompute) return l;
    const recomputeUs: Record<string, number> = {};
    candidates.forEach((c, j) => {
      recomputeUs[c.device.id] = coreUs(predictions[j], l.name) / batch;
    });
    return {
      ...l,
      activationBytesPerSample: m.activationBytes,
      fullRecompute: { keptBytesPerSample: m.fullRecompute.keptBytes, peakBytesPerSample: m.fullRecompute.peakBytes },
      selective: {
        activationBytesPerSample: Math.min(
          m.activationBytes,
          blockActivationBytes(l.activationBytesPerSample, shape, 'fused'),
        ),
        recomputeUs,
      },
    };
  });
}
