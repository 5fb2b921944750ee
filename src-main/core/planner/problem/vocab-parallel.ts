/**
 * A trained decoder's token embedding and LM head split over the tensor-parallel group by
 * vocabulary, as Megatron-LM, Megatron-DeepSpeed and torchtitan run them (stacks/*: vocabParallel).
 * Pure.
 *
 * - embeddings: each member holds vocab/t rows of the table (its weights, gradients and optimizer
 *   state 1/t, its lookup 1/t) and the partial outputs are all-reduced once forward (the block's
 *   input, s·h); nothing backward (its input is token ids).
 * - head: the output projection by column, each member computing vocab/t of the logits (the GEMM,
 *   weights and the logits kept for backward 1/t); the vocab-parallel cross-entropy reduces only a
 *   few floats per token forward (max, sum of exponentials, target logit: not priced), and backward
 *   all-reduces the gradient of the head's input (s·h) once.
 * The vocabulary is padded to a multiple of t by the stacks, so any degree splits it. A served
 * decoder (inference) is left as it is.
 */
import type { CatalogEntry } from '../../catalog/index.js';
import type { PlanLayer, TensorSplit } from '../types.js';

const EMBEDDINGS = 'embeddings';
const HEAD = 'head';

/** A catalog decoder's layers with its token embedding and LM head split by vocabulary, where its blocks split (some layer has `tensor`). */
export function withVocabParallel(e: CatalogEntry | null, layers: PlanLayer[]): PlanLayer[] {
  if (e?.kind !== 'transformer' || e.head !== 'lm' || !layers.some((l) => l.tensor)) return layers;
  const head = layers.findIndex((l) => l.name === HEAD);
  const headInput = head > 0 ? layers[head - 1]?.outBytesPerSample : undefined;
  return layers.map((l): PlanLayer => {
    if (l.name === EMBEDDINGS) return { ...l, tensor: { divides: [], forwardAllReduces: 1, backwardAllReduces: 0 } };
    if (l.name !== HEAD || headInput === undefined) return l;
    const tensor: TensorSplit = {
      divides: [],
      forwardAllReduces: 0,
      backwardAllReduces: 1,
      allReduceBytesPerSample: headInput,
    };
    return { ...l, tensor };
  });
}
