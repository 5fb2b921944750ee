/**
 * Activation memory a transformer layer keeps for its backward pass when training without
 * recomputation, after Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
 * Transformer Models" (arXiv:2205.05198), Section 4.1. Pure.
 *
 * Their count, for a GPT layer in 16-bit precision with a 4h MLP and dropout (1-byte masks), no
 * tensor or sequence parallelism, s = sequence, b = batch, h = hidden, a = heads:
 *
 *   attention  11sbh + 5as^2b   (QKV input 2sbh, Q and K 4sbh, softmax output 2as^2b, its dropout
 *                                mask as^2b and output 2as^2b, V 2sbh, projection input 2sbh,
 *                                dropout mask sbh)
 *   MLP        19sbh            (fc input 2sbh, GELU input 8sbh, proj input 8sbh, dropout mask sbh)
 *   LayerNorms  4sbh            (two inputs of 2sbh)
 *   total      sbh(34 + 5as/h)
 *
 * Generalised here term by term to an element size of e bytes, an MLP width f, SwiGLU MLPs and
 * models trained without dropout (Llama, ViT):
 *
 *   attention  (5e + m)sbh + (2e + m)as^2b  with dropout (m = 1), else 5e·sbh + e·as^2b
 *   MLP, GELU  e·sbh + 2e·sbf + m·sbh       (fc input, GELU input, proj input, dropout mask)
 *   MLP, SwiGLU e·sbh + 4e·sbf + m·sbh      (gate/up input, gate and up outputs, silu output, down input)
 *   norms      2e·sbh
 *
 * which gives exactly sbh(34 + 5as/h) for e = 2, f = 4h, GELU, dropout.
 */
import { DTYPE_BYTES, type Dtype } from '../domain/dtypes.js';

/**
 * Bytes per activation element a block keeps when its GEMMs compute in `dtype`: fp8 training
 * (Transformer Engine, torchao) casts GEMM inputs to fp8 on the fly and keeps its activations,
 * norms and softmax in 16 bits, so fp8 counts as 2; other dtypes as their size.
 */
export function activationElementBytes(dtype: Dtype): number {
  return dtype === 'fp8' ? 2 : DTYPE_BYTES[dtype];
}

export interface TransformerLayerShape {
  seq: number;
  batch: number;
  hidden: number;
  heads: number;
  /** MLP inner width (per branch for SwiGLU). */
  ffn: number;
  /** Bytes per activation element (2 for fp16/bf16). */
  elementBytes: number;
  mlp: 'gelu' | 'swiglu';
  dropout: boolean;
}

export function transformerLayerActivationBytes(p: TransformerLayerShape): number {
  const e = p.elementBytes;
  const m = p.dropout ? 1 : 0;
  const sbh = p.seq * p.batch * p.hidden;
  const sbf = p.seq * p.batch * p.ffn;
  const as2b = p.heads * p.seq * p.seq * p.batch;
  // softmax output (e), and with dropout its mask (1) and dropped-out copy (e)
  const attention = (5 * e + m) * sbh + (p.dropout ? 2 * e + 1 : e) * as2b;
  const mlp = e * sbh + (p.mlp === 'swiglu' ? 4 : 2) * e * sbf + m * sbh;
  const norms = 2 * e * sbh;
  return attention + mlp + norms;
}

/** The attention scores a block keeps per sequence (the s² part of the count above): softmax output, and with dropout its mask and dropped-out copy. */
export function attentionScoreBytes(
  p: Pick<TransformerLayerShape, 'seq' | 'heads' | 'elementBytes' | 'dropout'>,
): number {
  return (p.dropout ? 2 * p.elementBytes + 1 : p.elementBytes) * p.heads * p.seq * p.seq;
}
