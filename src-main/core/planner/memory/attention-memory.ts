/**
 * What a trained transformer block keeps for its backward pass as the attention kernels hold it,
 * and its memory under full recomputation (issue 59). Pure.
 *
 * - Unfused attention keeps Korthikanti et al.'s sbh(34 + 5as/h) per block (16-bit, GELU, dropout;
 *   core/catalog/activation-memory.ts generalises it): the 5as/h term is the s² softmax output,
 *   its dropout mask and the dropped-out copy.
 * - Fused attention (FlashAttention, cuDNN SDPA, PyTorch's memory-efficient SDPA) never writes the
 *   s² scores: it keeps each query row's softmax statistics (the fp32 log-sum-exp, 4 bytes per head
 *   and token), recomputes the scores in its backward kernel and the dropout mask from its seed.
 *   A fused block keeps sbh·34 + 4as bytes: what Korthikanti's selective recomputation keeps.
 * - Full recomputation keeps each block's input (its predecessor's output, sbh·2) and, while one
 *   block is recomputed and back-propagated, that block's activations once more: the peak is the
 *   stored inputs plus one block's activations.
 *
 * Which attention is assumed comes from the training stack (TRAINING_STACK_ATTENTION).
 */
import { attentionScoreBytes, type TransformerLayerShape } from '../../catalog/activation-memory.js';

export const ATTENTION_KERNELS = {
  fused: { title: 'fused attention (no s² scores kept)', keepsScores: false },
  unfused: { title: 'unfused attention (the s² scores kept)', keepsScores: true },
} as const;

export type AttentionKernel = keyof typeof ATTENTION_KERNELS;

/**
 * The attention the default training stack runs, and where that comes from: Megatron-Core
 * (Transformer Engine), PyTorch FSDP/torchtitan (SDPA), DeepSpeed and the Hugging Face Trainer all
 * run fused attention on GPUs since PyTorch 2.0 (SDPA picks FlashAttention-2 on Ampere and later,
 * its memory-efficient kernel before); the fine-tuning stacks too (memory/finetune-memory.ts).
 */
export const TRAINING_STACK_ATTENTION: { kernel: AttentionKernel; source: string } = {
  kernel: 'fused',
  source: 'Megatron-Core (Transformer Engine), PyTorch SDPA (FSDP, torchtitan, DeepSpeed, Trainer)',
};

/** "training activations: fused attention (no s² scores kept), as Megatron-Core ..., PyTorch SDPA ... run it". */
export function trainingAttentionNote(): string {
  const { kernel, source } = TRAINING_STACK_ATTENTION;
  return `training activations: ${ATTENTION_KERNELS[kernel].title}, as ${source} run it`;
}

/** Bytes of a block's s² terms and softmax statistics, per sequence. */
export type AttentionShape = Pick<TransformerLayerShape, 'seq' | 'heads' | 'elementBytes' | 'dropout'>;

/** The softmax statistics a fused kernel keeps for backward per sequence: one fp32 log-sum-exp per head and token. */
export function softmaxStatsBytes(p: Pick<AttentionShape, 'seq' | 'heads'>): number {
  return 4 * p.heads * p.seq;
}

/**
 * A block's kept activations under `kernel`, from its unfused count (per sequence, or per batch
 * with `sequences` the batch): the unfused count less its s² terms plus the softmax statistics.
 */
export function blockActivationBytes(
  unfusedBytes: number,
  p: AttentionShape,
  kernel: AttentionKernel,
  sequences = 1,
): number {
  if (ATTENTION_KERNELS[kernel].keepsScores) return unfusedBytes;
  return Math.max(0, unfusedBytes - sequences * attentionScoreBytes(p)) + sequences * softmaxStatsBytes(p);
}

/** A trained layer as the memory counts it: blocks and what they keep under full recomputation. */
export interface TrainedLayerMemory {
  /** Kept for backward without recomputation. */
  activationBytes: number;
  /** A block under full recomputation: its kept input and its peak while recomputed; absent elsewhere. */
  fullRecompute?: { keptBytes: number; peakBytes: number };
}

/**
 * Each layer's memory under the stack's attention: blocks (`isBlock`) keep their fused (or unfused)
 * activations, and under full recomputation their input (`outBytes` of a block, the next block's
 * input, is the same size) with their activations as the peak; other layers keep what they count.
 */
export function trainedLayersMemory(
  layers: readonly { block: boolean; activationBytes: number; outBytes: number }[],
  p: AttentionShape,
  kernel: AttentionKernel,
  sequences = 1,
): TrainedLayerMemory[] {
  return layers.map((l) => {
    if (!l.block) return { activationBytes: l.activationBytes };
    const kept = blockActivationBytes(l.activationBytes, p, kernel, sequences);
    return { activationBytes: kept, fullRecompute: { keptBytes: l.outBytes, peakBytes: kept } };
  });
}

/**
 * What the layers need together: without recomputation (all kept), and with full recomputation
 * (the blocks' inputs, the other layers' min(activations, output) as recompute.ts keeps them, and
 * the largest block's activations while it is recomputed).
 */
export function trainedActivationTotals(
  layers: readonly TrainedLayerMemory[],
  outBytes: readonly number[],
): { kept: number; checkpointed: number } {
  let kept = 0;
  let checkpointed = 0;
  let peak = 0;
  layers.forEach((l, i) => {
    kept += l.activationBytes;
    if (l.fullRecompute) {
      checkpointed += l.fullRecompute.keptBytes;
      peak = Math.max(peak, l.fullRecompute.peakBytes);
    } else checkpointed += Math.min(l.activationBytes, outBytes[i] ?? l.activationBytes);
  });
  return { kept, checkpointed: checkpointed + peak };
}
