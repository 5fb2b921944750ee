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
import { opPolicyBlock, type SelectiveKind } from './op-checkpoint.js';

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

/** Per prediction (alike devices share one), each node's time by name, indexed once. */
function nodeTimes(): (p: WorkloadPrediction) => Map<string, number> {
  const byPrediction = new Map<WorkloadPrediction, Map<string, number>>();
  return (p) => {
    let index = byPrediction.get(p);
    if (!index) {
      index = new Map(p.nodes.map((n) => [n.name, n.timeUs]));
      byPrediction.set(p, index);
    }
    return index;
  };
}

/** The forward time a block's op-level policy re-runs: its nodes but the attention core, each at its recomputed share. */
function opPolicyRecomputeUs(times: Map<string, number>, layer: string, share: Record<string, number>): number {
  const prefix = `${layer}.`;
  const core = attentionCoreName(layer);
  let us = 0;
  for (const [name, t] of times) {
    if (!name.startsWith(prefix) || name === core) continue;
    us += t * (share[name.slice(prefix.length)] ?? 1);
  }
  return us;
}

/**
 * Each transformer block of a catalog model trained (not fine-tuned) as the stack's attention
 * kernel holds it (`kernel`, TRAINING_STACK_ATTENTION's by default):
 * - kept for backward: the block's count without the s² scores under fused attention, with its
 *   softmax statistics;
 * - full recomputation: the block's input kept, its activations as the peak while recomputed;
 * - selective recomputation as the stack does it (`selective`, memory/op-checkpoint.ts):
 *   attention-core: what a block keeps without the attention core's s² terms (under fused
 *   attention, what it keeps anyway) and that core's predicted forward time per device;
 *   op-policy: what torchtitan's op policy saves, the forward of what it does not, and the block's
 *   whole count as its peak while recomputed (MLA and MoE blocks: attention-core).
 */
export function withTrainingMemory(
  w: Workload,
  e: CatalogEntry | null,
  layers: PlanLayer[],
  candidates: readonly PlanCandidate[],
  predictions: readonly WorkloadPrediction[],
  kernel: AttentionKernel = TRAINING_STACK_ATTENTION.kernel,
  selective: SelectiveKind = 'attention-core',
): PlanLayer[] {
  if (!e || e.kind !== 'transformer') return layers;
  const shape = attentionShape(w, e);
  const policy = selective === 'op-policy' ? opPolicyBlock(e, shape.seq, shape.elementBytes) : null;
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
  const times = nodeTimes();
  const recomputedUs = (p: WorkloadPrediction | undefined, layer: string): number => {
    if (!p) return 0;
    const index = times(p);
    return policy
      ? opPolicyRecomputeUs(index, layer, policy.recomputedShare)
      : (index.get(attentionCoreName(layer)) ?? 0);
  };
  return layers.map((l, i) => {
    const m = memory[i];
    if (!m?.fullRecompute) return l;
    const recomputeUs: Record<string, number> = {};
    candidates.forEach((c, j) => {
      recomputeUs[c.device.id] = recomputedUs(predictions[j], l.name) / batch;
    });
    const kept = policy ? policy.keptBytes : blockActivationBytes(l.activationBytesPerSample, shape, 'fused');
    return {
      ...l,
      activationBytesPerSample: m.activationBytes,
      fullRecompute: { keptBytesPerSample: m.fullRecompute.keptBytes, peakBytesPerSample: m.fullRecompute.peakBytes },
      selective: {
        activationBytesPerSample: Math.min(m.activationBytes, kept),
        recomputeUs,
        ...(policy ? { peakBytesPerSample: m.activationBytes } : {}),
      },
    };
  });
}
