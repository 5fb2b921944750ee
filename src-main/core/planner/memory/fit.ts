/**
 * `pipedejavu fit`: how much memory a model needs per way of holding it, and which GPUs hold it
 * alone or split. Pure.
 *
 * Serving (per weight format): weights at the format's bytes per parameter, the KV cache of
 * `context` tokens per sequence for `batch` sequences at 16 bits, and one step's activations.
 * Training (mixed-precision Adam): 2 bytes of bf16 weights, 2 of gradients and 12 of fp32 master
 * weights, momentum and variance per parameter, and the activations kept for the backward pass,
 * without recomputation or with full recomputation (only each layer's input kept).
 * A GPU holds a row alone when total + overhead fits its memory; split, when total / n + overhead
 * fits each of n of them (weights and cache divide; the overhead does not). A served decoder's rows
 * on an engine are placed by the engine's own check instead (core/engines/engine-fit.ts).
 */

import { WEIGHT_FORMATS, type WeightFormat } from '../../workload/generation.js';
import type { AdapterKind } from '../../workload/finetune.js';
import { GPU_CLASSES, gpuClass } from '../cost/gpu-class.js';

export type FitMode = 'inference' | 'training' | 'finetune';

/**
 * Fine-tuning with adapters, one way of holding the base (LoRA: its dtype; QLoRA: NF4): the
 * frozen weights' bytes, the trained adapter parameters, and the activations kept without and
 * with full recomputation.
 */
export interface FitAdapterModel {
  label: string;
  adapter: AdapterKind;
  frozenBytes: number;
  /** The adapters' weights, gradients and optimizer state, at the stack's bytes. */
  adapterBytes: { weights: number; gradients: number; optimizer: number };
  trainingActivationBytes: number;
  checkpointedActivationBytes: number;
}

export interface FitModel {
  params: number;
  /** KV cache bytes per token per sequence at 16 bits (0: no KV cache, e.g. an encoder). */
  kvBytesPerToken: number;
  /** Inference: the largest activation one step holds at the batch and context. */
  stepActivationBytes: number;
  /** Training: activations kept for backward without recomputation, and with full recomputation. */
  trainingActivationBytes: number;
  checkpointedActivationBytes: number;
  /** Fine-tuning: one entry per adapter kind. */
  adapters?: FitAdapterModel[];
}

export interface FitRow {
  /** "bf16", "q4_k", "bf16 + Adam, full recompute"... */
  label: string;
  /** What the row holds: a served weight format (absent: the dtype), or recomputation and an adapter. */
  how: { format?: WeightFormat; recompute?: 'none' | 'full'; adapter?: AdapterKind };
  weightsBytes: number;
  gradientBytes: number;
  optimizerBytes: number;
  activationBytes: number;
  kvCacheBytes: number;
  totalBytes: number;
}

export interface FitGpu {
  name: string;
  memoryBytes: number;
}

export interface FitPlacement {
  /** GPUs that hold the row alone, in the order given. */
  alone: string[];
  /** The fewest of the largest GPU that hold it split, when none holds it alone (null: more than `maxSplit`). */
  split: { gpu: string; count: number } | null;
  /**
   * When no consumer card of the list holds it alone: the fewest of one consumer card that hold it
   * split, the smallest such card (null: no consumer card, or more than MAX_CONSUMER_SPLIT).
   */
  consumerSplit: { gpu: string; count: number } | null;
}

/** The most consumer cards `fit` offers to split a row over (a box of them). */
const MAX_CONSUMER_SPLIT = 8;

/** The rule `fit` lists GPUs by when the user names none (FIT_ORDER_TEXT says it). */
export const FIT_ORDER_TEXT = 'smallest memory first; of equal memory, consumer, then workstation, then datacenter';

/** GPUs in FIT_ORDER_TEXT's order (stable: equals keep the order given). */
export function fitOrder<G extends FitGpu>(gpus: readonly G[]): G[] {
  const rank = (g: FitGpu): number => GPU_CLASSES.indexOf(gpuClass(g.name));
  return [...gpus].sort((a, b) => a.memoryBytes - b.memoryBytes || rank(a) - rank(b));
}

/** Bytes per weight of the serving formats `fit` lists (WEIGHT_FORMATS' figures). */
export const SERVING_FORMATS: readonly { label: string; bytes: number; format?: WeightFormat }[] = [
  { label: 'bf16/fp16', bytes: WEIGHT_FORMATS.bf16 },
  { label: 'fp8', bytes: WEIGHT_FORMATS.fp8, format: 'fp8' },
  { label: 'int8', bytes: WEIGHT_FORMATS.int8, format: 'int8' },
  { label: 'q8_0', bytes: WEIGHT_FORMATS.q8_0, format: 'q8_0' },
  { label: 'int4 (AWQ/GPTQ)', bytes: WEIGHT_FORMATS.int4, format: 'int4' },
  { label: 'q4_k', bytes: WEIGHT_FORMATS.q4_k, format: 'q4_k' },
];

const row = (label: string, how: FitRow['how'], parts: Omit<FitRow, 'label' | 'how' | 'totalBytes'>): FitRow => ({
  label,
  how,
  ...parts,
  totalBytes:
    parts.weightsBytes + parts.gradientBytes + parts.optimizerBytes + parts.activationBytes + parts.kvCacheBytes,
});

export function fitRows(m: FitModel, mode: FitMode, context: number, batch: number): FitRow[] {
  if (mode === 'finetune') return finetuneRows(m.adapters ?? []);
  if (mode === 'inference') {
    const kv = m.kvBytesPerToken * context * batch;
    return SERVING_FORMATS.map((f) =>
      row(f.label, f.format ? { format: f.format } : {}, {
        weightsBytes: m.params * f.bytes,
        gradientBytes: 0,
        optimizerBytes: 0,
        activationBytes: m.stepActivationBytes,
        kvCacheBytes: kv,
      }),
    );
  }
  const state = {
    weightsBytes: 2 * m.params,
    gradientBytes: 2 * m.params,
    optimizerBytes: 12 * m.params,
    kvCacheBytes: 0,
  };
  return [
    row('bf16 + Adam, no recompute', { recompute: 'none' }, { ...state, activationBytes: m.trainingActivationBytes }),
    row(
      'bf16 + Adam, full recompute',
      { recompute: 'full' },
      { ...state, activationBytes: m.checkpointedActivationBytes },
    ),
  ];
}

/** Frozen weights with the adapters' (weights column), the adapters' gradients and optimizer state. */
function finetuneRows(adapters: readonly FitAdapterModel[]): FitRow[] {
  return adapters.flatMap((a) => {
    const state = {
      weightsBytes: a.frozenBytes + a.adapterBytes.weights,
      gradientBytes: a.adapterBytes.gradients,
      optimizerBytes: a.adapterBytes.optimizer,
      kvCacheBytes: 0,
    };
    return [
      row(
        `${a.label}, no recompute`,
        { recompute: 'none', adapter: a.adapter },
        { ...state, activationBytes: a.trainingActivationBytes },
      ),
      row(
        `${a.label}, full recompute`,
        { recompute: 'full', adapter: a.adapter },
        { ...state, activationBytes: a.checkpointedActivationBytes },
      ),
    ];
  });
}

/** Whether n of one GPU hold a row (n = 1: alone). */
export type FitHolds = (gpu: FitGpu, n: number) => boolean;

/** The planner's check: total / n + overhead fits each of n of the GPU (weights and cache divide; the overhead does not). */
export function plannerHolds(r: FitRow, overheadBytes: number): FitHolds {
  return (g, n) => r.totalBytes / n + overheadBytes <= g.memoryBytes;
}

/** The fewest of one GPU (2 up to `most`) that hold the row split; Infinity when more would be needed. */
function splitCount(g: FitGpu, holds: FitHolds, most: number): number {
  for (let n = 2; n <= most; n++) if (holds(g, n)) return n;
  return Infinity;
}

/**
 * Where a row fits, by `holds` (the planner's check, or an engine's): alone on each GPU that holds
 * it, else split over the fewest of the largest GPU; and, when no consumer card holds it alone,
 * over the fewest of the smallest consumer card.
 */
export function placeRow(gpus: readonly FitGpu[], holds: FitHolds, maxSplit = 64): FitPlacement {
  const aloneOn = (g: FitGpu): boolean => holds(g, 1);
  const alone = gpus.filter(aloneOn).map((g) => g.name);
  const consumer = gpus.filter((g) => gpuClass(g.name) === 'consumer');
  const consumerSplit = consumer.some(aloneOn) ? null : fewest(consumer, holds, MAX_CONSUMER_SPLIT);
  const largest = [...gpus].sort((a, b) => b.memoryBytes - a.memoryBytes)[0];
  if (alone.length > 0 || !largest) return { alone, split: null, consumerSplit };
  const count = splitCount(largest, holds, maxSplit);
  return { alone, split: Number.isFinite(count) ? { gpu: largest.name, count } : null, consumerSplit };
}

/** The GPU of the list that holds the row in the fewest copies (of those, the smallest), up to `most`. */
function fewest(gpus: readonly FitGpu[], holds: FitHolds, most: number): FitPlacement['split'] {
  const best = gpus
    .map((g) => ({ g, count: splitCount(g, holds, most) }))
    .filter((x) => Number.isFinite(x.count))
    .sort((a, b) => a.count - b.count || a.g.memoryBytes - b.g.memoryBytes)[0];
  return best ? { gpu: best.g.name, count: best.count } : null;
}

/**
 * A row's time on the first GPU that holds it alone (its datasheet): one training step, or the
 * prefill of the context for a served format; with the datasheet's published error band.
 */
export interface FitTime {
  gpu: string;
  what: 'step' | 'prefill';
  us: number;
  lowUs: number;
  highUs: number;
  /**
   * Serving a decoder: the engine that runs the row's format (--engine, auto by format) and what it
   * gives on that GPU alone: the prefill of the context (`us`), and decode tokens/s per sequence at
   * the batch; the range is the engine's held-out band.
   */
  serving?: { engine: string; title: string; decodeTokensPerSecond: number };
}

/** `fit`'s answer: the model, the rows with where each fits, and the GPUs placed on. */
export interface FitAnswer {
  model: string;
  mode: FitMode;
  params: number;
  /** Tokens per sequence the rows hold: --context, else the model's default (core/catalog/default-sequence.ts). */
  context: number;
  /** The model's own context, the most tokens it takes; null for a model without one. */
  modelContext: number | null;
  batch: number;
  rows: (FitRow & FitPlacement & { time: FitTime | null; engineNote?: string })[];
  gpus: { name: string; memoryBytes: number }[];
  overheadBytes: number;
  notes: string[];
}
