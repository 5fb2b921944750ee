/**
 * Attention as frameworks ran it before fused kernels (Megatron-LM in SC'21, Narayanan et al.,
 * Sec. 4.2: QKᵀ and AV as batched GEMMs, a fused scale-mask-softmax kernel over the s² scores;
 * FlashAttention dates from 2022), for a datasheet GPU. Per {batch, heads, seq, headDim}:
 * - forward: QKᵀ {B: b·a, M: s, N: s, K: d} and AV {B: b·a, M: s, N: d, K: s} through the GEMM
 *   model; every score is computed (the causal mask is applied by the softmax, not skipped); the
 *   softmax reads and writes each 16-bit score (4 bytes); with dropout (training), the
 *   probabilities' dropout reads and writes them and stores a 1-byte mask (5 bytes);
 * - backward (training): dP, dV, dQ, dK GEMMs (twice the forward's), the dropout's backward (read
 *   the gradient and the mask, write: 5 bytes a score) and the softmax's (read the probabilities and
 *   their gradient, write: 6 bytes a score).
 * Each kernel is one launch (the caller's `bytesUs` and `gemmUs` include it). Pure.
 */

export interface UnfusedAttentionShape {
  batch: number;
  heads: number;
  seq: number;
  headDim: number;
}

/** What the predictor prices the parts with: a batched GEMM's time and a memory-bound kernel's (µs, launch included). */
export interface UnfusedAttentionPricing {
  gemmUs: (shape: { B: number; M: number; N: number; K: number }) => number;
  bytesUs: (bytes: number) => number;
}

/** Bytes moved per score by each memory-bound kernel (16-bit scores, 1-byte dropout mask). */
export const SCORE_BYTES = {
  softmax: 4,
  dropout: 5,
  dropoutBackward: 5,
  softmaxBackward: 6,
} as const;

/** The attention scores of one pass: batch x heads x seq x seq. */
const scoreCount = (s: UnfusedAttentionShape): number => s.batch * s.heads * s.seq * s.seq;

/** The two batched GEMMs of a forward pass: Q K^T (seq x seq scores) and the scores times V. */
function attentionGemmsUs(s: UnfusedAttentionShape, price: UnfusedAttentionPricing): number {
  const B = s.batch * s.heads;
  return price.gemmUs({ B, M: s.seq, N: s.seq, K: s.headDim }) + price.gemmUs({ B, M: s.seq, N: s.headDim, K: s.seq });
}

/** Forward time of unfused attention (µs); `dropout`: the probabilities are dropped out (training with dropout). */
export function unfusedAttentionForwardUs(
  s: UnfusedAttentionShape,
  dropout: boolean,
  price: UnfusedAttentionPricing,
): number {
  const scores = scoreCount(s);
  const memory =
    price.bytesUs(scores * SCORE_BYTES.softmax) + (dropout ? price.bytesUs(scores * SCORE_BYTES.dropout) : 0);
  return attentionGemmsUs(s, price) + memory;
}

/** Backward time of unfused attention (µs): its four GEMMs and the softmax's (and dropout's) backward. */
export function unfusedAttentionBackwardUs(
  s: UnfusedAttentionShape,
  dropout: boolean,
  price: UnfusedAttentionPricing,
): number {
  const scores = scoreCount(s);
  const memory =
    price.bytesUs(scores * SCORE_BYTES.softmaxBackward) +
    (dropout ? price.bytesUs(scores * SCORE_BYTES.dropoutBackward) : 0);
  return 2 * attentionGemmsUs(s, price) + memory;
}
