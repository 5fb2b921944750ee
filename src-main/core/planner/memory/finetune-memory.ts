/**
 * Activation memory of a model fine-tuned with adapters, by the stack that runs it
 * (core/workload/finetune.ts FINETUNE_STACKS). Pure.
 *
 * - Every stack runs fused attention (FlashAttention, SDPA): a block keeps no s² scores.
 * - Gradient checkpointing (full recomputation) wraps the blocks: a block keeps its input (on the
 *   GPU, or offloaded to host memory by Unsloth) and, while it is recomputed in backward, holds
 *   its activations once more: the peak of the one block being recomputed.
 * - The embeddings and the head are not checkpointed. The head holds the loss's logits at the
 *   stack's bytes per logit (tokens x vocabulary), not the model's activations.
 */
import { FINETUNE_STACKS, type FinetuneStack } from '../../workload/finetune.js';
import { isBlockName } from '../../catalog/block-names.js';

export interface TunedLayerShape {
  role: 'block' | 'head' | 'other';
  /** Activations kept without recomputation, as the model counts them (with s² scores), per sample. */
  activationBytesPerSample: number;
  /** The s² score part of that (0 outside blocks), per sample. */
  scoreBytesPerSample: number;
  /** The block's input checkpoint (its predecessor's output), per sample. */
  checkpointBytesPerSample: number;
  /** Head: logits per sample (tokens x vocabulary); 0 elsewhere. */
  logitsPerSample: number;
}

export interface TunedLayerMemory {
  /** Kept for backward without recomputation, per sample. */
  activationBytesPerSample: number;
  /** Full recomputation: kept per sample and the peak while recomputed; 'never' outside the blocks. */
  fullRecompute: { keptBytesPerSample: number; peakBytesPerSample: number } | 'never';
}

export function tunedLayerMemory(l: TunedLayerShape, stack: FinetuneStack): TunedLayerMemory {
  const s = FINETUNE_STACKS[stack];
  if (l.role === 'head') return { activationBytesPerSample: l.logitsPerSample * s.logitBytes, fullRecompute: 'never' };
  if (l.role === 'other') return { activationBytesPerSample: l.activationBytesPerSample, fullRecompute: 'never' };
  const fused = Math.max(0, l.activationBytesPerSample - l.scoreBytesPerSample);
  return {
    activationBytesPerSample: fused,
    fullRecompute: {
      keptBytesPerSample: s.checkpointsOnDevice ? l.checkpointBytesPerSample : 0,
      peakBytesPerSample: fused,
    },
  };
}

/** What the layers need together: without recomputation, and with full recomputation (kept + the largest peak). */
export function tunedActivationBytes(layers: readonly TunedLayerMemory[]): { kept: number; checkpointed: number } {
  let kept = 0;
  let checkpointed = 0;
  let peak = 0;
  for (const l of layers) {
    kept += l.activationBytesPerSample;
    if (l.fullRecompute === 'never') checkpointed += l.activationBytesPerSample;
    else {
      checkpointed += l.fullRecompute.keptBytesPerSample;
      peak = Math.max(peak, l.fullRecompute.peakBytesPerSample);
    }
  }
  return { kept, checkpointed: checkpointed + peak };
}

/** A model's per-layer sizes and what its blocks and head add up from (per sample, or per batch: one unit throughout). */
export interface TunedModelShape {
  /** A block's s² attention scores. */
  scoreBytes: number;
  /** The head's logits (tokens x vocabulary). */
  logits: number;
  /** The head is a language-model head (its loss holds the logits). */
  lmHead: boolean;
}

/** Each layer's memory under the stack; layers named `block.<i>` are the blocks, `head` the head. */
export function tunedLayersMemory(
  layers: readonly { name: string; activationBytes: number; outBytes: number }[],
  m: TunedModelShape,
  stack: FinetuneStack,
): TunedLayerMemory[] {
  return layers.map((l) => {
    const role = isBlockName(l.name) ? 'block' : l.name === 'head' && m.lmHead ? 'head' : 'other';
    return tunedLayerMemory(
      {
        role,
        activationBytesPerSample: l.activationBytes,
        scoreBytesPerSample: role === 'block' ? m.scoreBytes : 0,
        checkpointBytesPerSample: l.outBytes,
        logitsPerSample: role === 'head' ? m.logits : 0,
      },
      stack,
    );
  });
}
