/**
 * Per-device memory of a pipeline stage and the reason when it does not fit. Pure.
 *
 * needed = parameter state + activations + overhead, where
 * - frozen weights (fine-tuning with adapters), whole, or over the N replicas under ZeRO-3;
 * - parameter state, training with mixed-precision Adam (bytesPerParam k = 16: 2 fp16 weights,
 *   2 fp16 grads, 12 fp32 master/momentum/variance) over the N data-parallel replicas of the stage:
 *   ZeRO-0 kΨ; ZeRO-1 4Ψ + (k−4)Ψ/N; ZeRO-2 2Ψ + (k−2)Ψ/N; ZeRO-3 kΨ/N. Inference: kΨ (weights).
 * - activations = bytes per sample × samples of this device per microbatch × microbatches in
 *   flight: 1F1B keeps min(p−i, m) on stage i of p (0-based), GPipe all m, inference 1.
 * - resident = bytes per sample held for the whole step (a served decoder's KV cache) × every
 *   sample the device serves in a step (its share of a microbatch × microbatches).
 * - gathered = ZeRO-3 (FSDP FULL_SHARD) with more than one replica: the layer in flight's full
 *   weights, all-gathered, and its full gradients before the reduce-scatter, plus the next layer's
 *   weights prefetched (memory/gathered-layer.ts); 0 otherwise.
 * - overhead = problem.overheadBytes (framework, workspace).
 */
import { formatBytes } from '../../text/bytes.js';
import type { Mode, PlanDevice, PlanProblem, Schedule } from '../types.js';

/** fp16 weights and gradients of mixed-precision training. */
export const WEIGHT_BYTES_PER_PARAM = 2;
export const GRAD_BYTES_PER_PARAM = 2;

export type MemorySettings = Pick<PlanProblem, 'mode' | 'bytesPerParam' | 'zeroStage' | 'overheadBytes'> &
  Partial<Pick<PlanProblem, 'optimizerOffload'>>;

/** Bytes per parameter an offloaded Adam step streams on the CPU: fp32 master, m, v read and written (24), fp16 grad in, fp16 weight out. */
export const OFFLOAD_CPU_BYTES_PER_PARAM = 28;

/** Bytes of weights, gradients and optimizer state one replica holds for `params` parameters. */
export function parameterStateBytes(params: number, replicas: number, s: MemorySettings): number {
  // With the optimizer offloaded, only fp16 weights and gradients stay on the device.
  const offloaded = s.mode === 'training' && s.optimizerOffload !== undefined;
  const k = offloaded ? Math.min(s.bytesPerParam, WEIGHT_BYTES_PER_PARAM + GRAD_BYTES_PER_PARAM) : s.bytesPerParam;
  if (s.mode === 'inference') return k * params;
  const n = Math.max(1, replicas);
  const wg = WEIGHT_BYTES_PER_PARAM + GRAD_BYTES_PER_PARAM;
  switch (s.zeroStage) {
    case 0:
      return k * params;
    case 1:
      return Math.min(wg, k) * params + (Math.max(0, k - wg) * params) / n;
    case 2:
      return Math.min(WEIGHT_BYTES_PER_PARAM, k) * params + (Math.max(0, k - WEIGHT_BYTES_PER_PARAM) * params) / n;
    case 3:
      return (k * params) / n;
  }
}

/** Microbatches whose activations stage `stage` (0-based) of `stages` holds at once. */
export function microbatchesInFlight(
  schedule: Schedule,
  mode: Mode,
  stage: number,
  stages: number,
  microbatches: number,
  virtualStages = 1,
): number {
  if (mode === 'inference') return 1;
  if (schedule === 'gpipe') return microbatches;
  if (virtualStages > 1) return interleavedInFlight(stage, stages, microbatches, virtualStages);
  return Math.max(1, Math.min(stages - stage, microbatches));
}

/**
 * Interleaved 1F1B with v chunks a rank: Megatron-LM's warm-up on rank i runs 2(p − i − 1) +
 * (v − 1)·p chunk forwards (at most m·v), and the steady state holds one more
 * (megatron/core/pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving;
 * with m = p it warms up all m·v);
 * each chunk is 1/v of the rank's layers. Rank 0 holds p + (p − 1)/v microbatches' activations:
 * p microbatches times 1 + (p − 1)/(p·v) (Korthikanti et al., MLSys'23 §4.2.3).
 */
function interleavedInFlight(i: number, p: number, m: number, v: number): number {
  // m = p: Megatron runs every chunk's forward first (all warm-up), so every rank holds all m.
  if (m === p) return m;
  const chunks = Math.min(2 * (p - i - 1) + (v - 1) * p + 1, m * v);
  return Math.max(1, chunks / v);
}

export interface MemoryBreakdown {
  parameterBytes: number;
  /** ZeRO-3: the gathered layer in flight and the prefetched next one (0 otherwise). */
  gatheredBytes: number;
  activationBytes: number;
  /** The KV cache of a served decoder (0 otherwise). */
  residentBytes: number;
  overheadBytes: number;
  inFlight: number;
  totalBytes: number;
}

export interface StageMemoryInput {
  params: number;
  /** Data-parallel replicas of the stage (ZeRO shards over them). */
  replicas: number;
  activationBytesPerSample: number;
  /** Samples of one microbatch this device processes. */
  samples: number;
  inFlight: number;
  /** Bytes held for the whole step: resident bytes per sample × samples served per step (0 when absent). */
  residentBytes?: number;
  /** Frozen weights (fine-tuning with adapters): held whole, or sharded over the replicas under ZeRO-3. */
  frozenBytes?: number;
  /** Activations of the one layer being recomputed (full recomputation), held beside the others. */
  recomputeBytes?: number;
  /** memory/gathered-layer.ts: what ZeRO-3 gathers for the stage's largest layer (this device's tensor-parallel share); held under ZeRO-3 only. */
  largestLayerGatherBytes?: number;
}

/** A memory input with every field, all 0: a scratch one, rewritten per fit test (CostTables.deviceNeedBytes). */
export function blankMemoryInput(): Required<StageMemoryInput> {
  return {
    params: 0,
    replicas: 0,
    activationBytesPerSample: 0,
    samples: 0,
    inFlight: 0,
    residentBytes: 0,
    frozenBytes: 0,
    recomputeBytes: 0,
    largestLayerGatherBytes: 0,
  };
}

/** Bytes of frozen weights one replica holds: FSDP FULL_SHARD (ZeRO-3) shards them too. */
function frozenStateBytes(
  frozenBytes: number,
  replicas: number,
  s: Pick<MemorySettings, 'mode' | 'zeroStage'>,
): number {
  return s.mode === 'training' && s.zeroStage === 3 ? frozenBytes / Math.max(1, replicas) : frozenBytes;
}

const heldParameterBytes = (input: StageMemoryInput, s: MemorySettings): number =>
  parameterStateBytes(input.params, input.replicas, s) + frozenStateBytes(input.frozenBytes ?? 0, input.replicas, s);
const heldActivationBytes = (input: StageMemoryInput): number =>
  input.activationBytesPerSample * input.samples * input.inFlight + (input.recomputeBytes ?? 0);
const heldGatheredBytes = (input: StageMemoryInput, s: MemorySettings): number =>
  s.mode === 'training' && s.zeroStage === 3 && input.replicas > 1 ? (input.largestLayerGatherBytes ?? 0) : 0;

/** What one device of a stage needs; totalBytes is computed the same way everywhere (deviceMemoryBytes). */
export function deviceMemory(input: StageMemoryInput, s: MemorySettings): MemoryBreakdown {
  const parameterBytes = heldParameterBytes(input, s);
  const activationBytes = heldActivationBytes(input);
  const residentBytes = input.residentBytes ?? 0;
  const gatheredBytes = heldGatheredBytes(input, s);
  return {
    parameterBytes,
    gatheredBytes,
    activationBytes,
    residentBytes,
    overheadBytes: s.overheadBytes,
    inFlight: input.inFlight,
    totalBytes: parameterBytes + gatheredBytes + activationBytes + residentBytes + s.overheadBytes,
  };
}

/** deviceMemory's totalBytes, the same sums in the same order, without its object (the fit tests ask per range and count in flight). */
export function deviceMemoryBytes(input: StageMemoryInput, s: MemorySettings): number {
  return (
    heldParameterBytes(input, s) +
    heldGatheredBytes(input, s) +
    heldActivationBytes(input) +
    (input.residentBytes ?? 0) +
    s.overheadBytes
  );
}

/**
 * "cuda:1 (RTX 2080 SUPER, 8.0 GiB): needs 11.3 GiB: 6.2 GiB parameters/optimizer,
 * 4.6 GiB activations (4 microbatches in flight), 512 MiB overhead" (ZeRO-3: "..., 1.2 GiB
 * gathered layer (ZeRO-3), ..."); serving, what it holds:
 * "... needs 23.4 GiB: 14.9 GiB weights, 1.9 MiB activations, 8.0 GiB KV cache, 512 MiB overhead".
 */
export function memoryShortfall(
  device: Pick<PlanDevice, 'id' | 'name' | 'memoryBytes'>,
  m: MemoryBreakdown,
  mode: Mode,
): string {
  const flight = `${Number.isInteger(m.inFlight) ? m.inFlight : m.inFlight.toFixed(2)} microbatch${m.inFlight === 1 ? '' : 'es'} in flight`;
  const held =
    mode === 'inference'
      ? `${formatBytes(m.parameterBytes)} weights, ${formatBytes(m.activationBytes)} activations, `
      : `${formatBytes(m.parameterBytes)} parameters/optimizer, ` +
        (m.gatheredBytes > 0 ? `${formatBytes(m.gatheredBytes)} gathered layer (ZeRO-3), ` : '') +
        `${formatBytes(m.activationBytes)} activations (${flight}), `;
  return (
    `${device.id} (${device.name}, ${formatBytes(device.memoryBytes)}): needs ${formatBytes(m.totalBytes)}: ` +
    held +
    (m.residentBytes > 0 ? `${formatBytes(m.residentBytes)} KV cache, ` : '') +
    `${formatBytes(m.overheadBytes)} overhead`
  );
}
