/**
 * Autoregressive generation with a KV cache, predicted in its two phases. Pure.
 *
 * Prefill runs the prompt through the model once (a normal forward pass; its time is the time to
 * first token, predicted node by node like any workload, with the LM head on the last position
 * only, as servers do). Decode then produces one token per
 * sequence per step; a step reads every weight it uses once and the whole KV cache, and does
 * little arithmetic per byte, so it is bound by the bytes it moves:
 *
 *   bytes = weight bytes of the step (every weight but the embedding tables, of which a step
 *           gathers `batch` rows; a tied LM head reads the token table whole anyway)
 *           + KV cache read (kvBytesPerToken x context x batch)
 *           + KV appended (kvBytesPerToken x batch)
 *   flops = 2 x parameters used per token x batch + 4 x layers x heads x headDim x context x batch
 *   step  = max(bytes / bandwidth, flops / peak) + nodes x per-node cost + per-run cost
 *
 * or, where the attention is priced node by node (decode-attention.ts: its kernels at their
 * shapes, the cache read at no less than the streaming rate), the weights alone stream and the
 * attention adds:  step = max(weight bytes / bandwidth, weight flops / peak) + attention + overheads.
 *
 * with the device's measured bandwidth, peak and overheads. Under mixture of experts a step reads
 * the weights of the experts its tokens were routed to: with uniform routing of `batch` tokens to
 * topK of E experts, E x (1 - (1 - topK/E)^batch) distinct experts per layer.
 */

/**
 * Bytes per weight of the formats generation is served in: the float dtypes, int8 with a scale
 * per channel, fp8 (E4M3, one byte; its per-tensor or per-channel scale is negligible), int4 as
 * AWQ/GPTQ kernels hold it (groups of 128 weights: 128 x 4 bits = 64 bytes, plus an fp16 scale and
 * an fp16 zero point: 68 bytes per 128), and llama.cpp's block formats (Q8_0: 32 weights in 34
 * bytes; Q4_0: 32 in 18; Q4_K: 256 in 144). The KV cache and activations stay at the model's dtype.
 */
export const WEIGHT_FORMATS = {
  fp32: 4,
  fp16: 2,
  bf16: 2,
  int8: 1,
  fp8: 1,
  q8_0: 34 / 32,
  int4: (128 / 2 + 2 + 2) / 128,
  q4_k: 144 / 256,
  q4_0: 18 / 32,
} as const;
export type WeightFormat = keyof typeof WEIGHT_FORMATS;

/**
 * Why a model computing in `dtype` (of `elementBytes`) cannot take weights stored as `format`, in
 * one line naming the formats it takes; null when it can: the dtype itself, or any format
 * narrower than it (quantized formats are dequantized to it, a narrower float is upcast). Others
 * are refused: bf16 weights lose range in fp16, fp32 weights are wider than the arithmetic.
 */
export function weightFormatRefusal(format: WeightFormat, dtype: string, elementBytes: number): string | null {
  if (format === dtype) return null;
  if (WEIGHT_FORMATS[format] < elementBytes) return null;
  const takes = (Object.keys(WEIGHT_FORMATS) as WeightFormat[]).filter(
    (f) => f === dtype || WEIGHT_FORMATS[f] < elementBytes,
  );
  return `--weights ${format}: the model computes in ${dtype}, which takes weights as ${takes.join(', ')}`;
}

export interface DecoderShape {
  layers: number;
  hidden: number;
  heads: number;
  kvHeads: number;
  /**
   * Values one layer caches per token, when they are not 2 x kvHeads x hidden / heads: a head
   * width other than hidden / heads (Qwen3, Gemma), or latent attention's kv_lora_rank +
   * qk_rope_head_dim (DeepSeek). Sliding windows are not taken off: an upper bound for Gemma.
   */
  kvValuesPerLayer?: number;
  /** Parameters in total, and those of the expert MLPs (0 for a dense model). */
  params: number;
  expertParams: number;
  /** Parameters of embedding tables a step only gathers rows from (0 when the LM head reads them whole). */
  gatheredParams: number;
  experts: number;
  topK: number;
  /** Nodes one decode step runs (the per-node overhead is paid for each). */
  nodesPerStep: number;
  /** Mean parameters of the weight matrices a step reads (the size its streaming rate is read at). */
  meanMatrixParams?: number;
}

export interface DecodeDevice {
  /** Measured memory bandwidth (GB/s) and peak at the model's dtype (GFLOP/s). */
  bandwidthGBps: number;
  peakGflops: number;
  nodeUs: number;
  runUs: number;
}

export interface DecodeStep {
  stepUs: number;
  memoryUs: number;
  computeUs: number;
  /** The attention priced node by node, beside the weights' streaming (0 when the cache is streamed as bytes). */
  attentionUs: number;
  overheadUs: number;
  bytes: number;
  flops: number;
  bound: 'memory' | 'compute';
}

/** Bytes of KV cache per cached token per sequence: a key and a value per layer per KV head. */
export function kvBytesPerTokenOf(d: DecoderShape, elementBytes: number): number {
  return d.layers * (d.kvValuesPerLayer ?? 2 * d.kvHeads * (d.hidden / d.heads)) * elementBytes;
}

/** Distinct experts per layer that `batch` tokens, each routed to topK of them, touch (uniform routing). */
export function expertsTouched(d: DecoderShape, batch: number): number {
  if (d.experts === 0) return 0;
  return d.experts * (1 - (1 - d.topK / d.experts) ** batch);
}

/** One decode step at `context` cached tokens for `batch` sequences. */
export function decodeStep(
  d: DecoderShape,
  p: {
    batch: number;
    context: number;
    elementBytes: number;
    weightBytes?: number;
    /**
     * The step's attention priced node by node (every layer, per-node cost left out:
     * decode-attention.ts): the cache read and the attention FLOPs are then in it, not in the
     * bytes and FLOPs streamed. Absent: the cache streamed as bytes.
     */
    attentionUs?: number;
  },
  dev: DecodeDevice,
): DecodeStep {
  const dense = d.params - d.expertParams - d.gatheredParams;
  const perExpert = d.experts > 0 ? d.expertParams / d.experts : 0;
  const gathered = Math.min(d.gatheredParams, p.batch * d.hidden);
  const weightBytes = (dense + gathered + perExpert * expertsTouched(d, p.batch)) * (p.weightBytes ?? p.elementBytes);
  const kv = kvBytesPerTokenOf(d, p.elementBytes);
  const cacheBytes = kv * p.context * p.batch;
  const bytes = weightBytes + cacheBytes + kv * p.batch;
  const paramsPerToken = dense + perExpert * d.topK;
  const attentionFlops = 4 * d.layers * d.hidden * p.context * p.batch;
  const flops = 2 * paramsPerToken * p.batch + attentionFlops;
  const apart = p.attentionUs !== undefined;
  const memoryUs = (apart ? bytes - cacheBytes : bytes) / (dev.bandwidthGBps * 1e3);
  const computeUs = (apart ? flops - attentionFlops : flops) / (dev.peakGflops * 1e3);
  const overheadUs = d.nodesPerStep * dev.nodeUs + dev.runUs;
  return {
    stepUs: Math.max(memoryUs, computeUs) + (p.attentionUs ?? 0) + overheadUs,
    memoryUs,
    computeUs,
    attentionUs: p.attentionUs ?? 0,
    overheadUs,
    bytes,
    flops,
    bound: memoryUs >= computeUs ? 'memory' : 'compute',
  };
}

/** Memory generation holds: the weights, the KV cache of `context` tokens per sequence, and a step's activations. */
export function generationBytes(
  d: DecoderShape,
  p: { batch: number; context: number; elementBytes: number; weightBytes?: number; activationBytes: number },
): number {
  const weights = d.params * (p.weightBytes ?? p.elementBytes);
  return weights + kvBytesPerTokenOf(d, p.elementBytes) * p.context * p.batch + p.activationBytes;
}

/**
 * The largest batch at `context`, and the largest context at `batch`, whose weights and KV cache
 * fit `memoryBytes` (activations of one step left aside: a few MB); 0 when even one does not fit.
 */
export function largestFit(
  d: DecoderShape,
  p: {
    batch: number;
    context: number;
    elementBytes: number;
    weightBytes?: number;
    memoryBytes: number;
    maxContext: number;
  },
): { batch: number; context: number } {
  const free = p.memoryBytes - d.params * (p.weightBytes ?? p.elementBytes);
  const kv = kvBytesPerTokenOf(d, p.elementBytes);
  if (free <= 0) return { batch: 0, context: 0 };
  return {
    batch: Math.floor(free / (kv * p.context)),
    context: Math.min(p.maxContext, Math.floor(free / (kv * p.batch))),
  };
}
