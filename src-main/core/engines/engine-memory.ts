/**
 * What an engine holds on each GPU of a deployment, and the KV cache left for sequences: the
 * engine takes its utilization share of each GPU, keeps its reserve (CUDA context, workspaces,
 * graph pools) and the activations of its largest step, holds its share of the weights, and gives
 * the rest to the KV cache. A replica holds as many tokens as its tightest stage allows. Pure.
 */
import type { EngineMemory, EngineRules } from './engine-rules.js';
import type { EngineDeployment, EngineStage } from './engine-step.js';

export interface StageMemory {
  /** Per GPU of the stage (bytes). */
  weightBytes: number;
  reservedBytes: number;
  activationBytes: number;
  kvBytes: number;
  /** Cached tokens (all sequences together) the stage's GPUs hold. */
  kvTokens: number;
}

/** Weight bytes one member of the stage holds: its blocks' share, and the embedding (unless the engine keeps it on the host) or the head. */
function stageWeightBytes(dep: EngineDeployment, index: number, stage: EngineStage): number {
  const d = dep.decoder;
  const tp = stage.members.length;
  const perBlock = d.blocks.reduce(
    (a, k) => a + (k.count / d.layers) * k.gemms.reduce((s, g) => s + g.n * g.k * (g.experts?.count ?? 1), 0),
    0,
  );
  let bytes = (stage.blocks * perBlock * dep.bytesPerWeight) / tp;
  if (index === 0 && dep.engine.memory.inputEmbedding !== 'host')
    bytes += (d.vocab * d.hidden * dep.headBytesPerWeight) / tp;
  if (index === dep.stages.length - 1) bytes += (d.vocab * d.hidden * dep.headBytesPerWeight) / tp;
  return bytes;
}

/** Bytes one cached token takes on a member of the stage (all its blocks). */
function stageKvBytesPerToken(dep: EngineDeployment, stage: EngineStage): number {
  const d = dep.decoder;
  const tp = stage.members.length;
  return stage.blocks * d.kvValuesPerLayer * Math.max(1 / tp, 1 / d.kvHeads) * dep.kvBytesPerValue;
}

/** The share of each GPU an engine takes in a tensor-parallel group of `tp` GPUs. */
export function memoryUtilization(m: EngineMemory, tp: number): number {
  return m.utilizationByTp?.find(([least]) => tp >= least)?.[1] ?? m.utilization;
}

export function stageMemory(dep: EngineDeployment, index: number): StageMemory {
  const stage = dep.stages[index] as EngineStage;
  const m = dep.engine.memory;
  const weightBytes = stageWeightBytes(dep, index, stage);
  const tokens = m.activationTokens ?? dep.engine.batching.maxBatchedTokens;
  const activationBytes = tokens * dep.decoder.hidden * m.activationBytesPerTokenPerHidden;
  const alone = dep.stages.length === 1 && stage.members.length === 1;
  const reservedBytes = alone ? (m.reservedBytesAlone ?? m.reservedBytes) : m.reservedBytes;
  const free = stage.gpu.memoryBytes - reservedBytes - activationBytes - weightBytes;
  const kvBytes =
    m.kvShareOfFree !== undefined
      ? free * m.kvShareOfFree
      : free - stage.gpu.memoryBytes * (1 - memoryUtilization(m, stage.members.length));
  const perToken = stageKvBytesPerToken(dep, stage);
  return {
    weightBytes,
    reservedBytes,
    activationBytes,
    kvBytes,
    kvTokens: kvBytes > 0 && perToken > 0 ? Math.floor(kvBytes / perToken) : 0,
  };
}

/** Cached tokens one replica holds (its tightest stage); 0 when the weights do not fit. */
export function replicaKvTokens(dep: EngineDeployment): number {
  return Math.min(...dep.stages.map((_, i) => stageMemory(dep, i).kvTokens));
}

/**
 * What the engine leaves a GPU for weights and KV cache: its utilization share (or all of it when
 * it sizes the KV cache from what is free), less its reserve and the activations of its largest
 * step. The planner's memory check uses it, so a plan fits only where the engine would run it
 * (with the reserve of a split: one GPU alone may hold up to `reservedBytes - reservedBytesAlone` more).
 * The share is the one-GPU `utilization`; a share that falls with the TP degree (SGLang) is applied per
 * stage by stageMemory, which then holds fewer tokens.
 */
export function engineUsableBytes(engine: EngineRules, memoryBytes: number, hidden: number): number {
  const m = engine.memory;
  const tokens = m.activationTokens ?? engine.batching.maxBatchedTokens;
  const share = m.kvShareOfFree !== undefined ? 1 : m.utilization;
  return Math.max(0, memoryBytes * share - m.reservedBytes - tokens * hidden * m.activationBytesPerTokenPerHidden);
}

/**
 * One layer's attention scores an engine with unfused attention holds in its compute buffer when it
 * reserves it over a full KV cache (EngineMemory.scoreBuffer, llama.cpp without -fa): KQ in f32,
 * n_kv x n_tokens x heads x 4 bytes, and its f32 mask, n_kv x n_tokens x 4, with n_kv the context
 * (`contextTokens`: every sequence's, one cache) and n_tokens the step's, at most the context. The
 * allocator frees them before the next layer (the scores' buffer is reused across layers). 0 otherwise.
 */
export function unfusedScoreBytes(engine: EngineRules, heads: number, contextTokens: number): number {
  const m = engine.memory;
  if (m.scoreBuffer !== 'full-cache' || engine.attention.prefill !== 'unfused' || contextTokens <= 0) return 0;
  const tokens = Math.min(contextTokens, m.activationTokens ?? engine.batching.maxBatchedTokens);
  return contextTokens * tokens * (heads + 1) * 4;
}
