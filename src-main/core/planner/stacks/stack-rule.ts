/**
 * What a training stack's rule file states (stacks/*-stack.ts): the parallelisms it runs, how it
 * shards, what it overlaps, its attention kernel, its recomputation and its exports, each with the
 * document or commit it comes from. The search runs only what the rule allows (stack-search.ts),
 * and the gradient synchronization is priced as the rule overlaps it (stage-cost.ts). Pure.
 */
import type { AttentionKernel } from '../memory/attention-memory.js';
import type { FusedAttentionKernel } from '../../predictor/attention-kernels.js';
import type { SelectiveKind } from '../memory/op-checkpoint.js';
import type { Recompute } from '../types.js';
import type { TrainingStack } from './stack-names.js';

export type ZeroStage = 0 | 1 | 2 | 3;

/** The exports a stack runs: Megatron-LM's pretrain_gpt.py, the torchrun script (DDP/FSDP), or DeepSpeed's. */
export type StackLauncher = 'megatron' | 'torch' | 'deepspeed';

/**
 * How data-parallel gradients are reduced at ZeRO stages 0-2, priced by stage-cost.ts:
 * overlapped: reduced in buckets behind the last microbatch's backward pass (exposed = max(AR(G) − B,
 * AR(last bucket))); not overlapped: the whole reduction after the backward pass (exposed = AR(G)).
 * The bucket is max(bucketBytes, bucketBytesPerReplica × replicas).
 */
export interface GradientSyncRule {
  overlapped: boolean;
  bucketBytes: number;
  bucketBytesPerReplica: number;
  /** How the stack does it, and where that is written. */
  how: string;
}

/**
 * Tensor-parallel communication overlapped with the GEMMs (sequence parallelism: an all-gather
 * before each column-parallel GEMM, a reduce-scatter after each row-parallel one), as
 * cost/tensor-overlap.ts prices it: all-gathers by ring exchange beside the GEMM's chunks;
 * forward reduce-scatters pipelined in `pipelineSplits` chunks and backward ones in bulk beside the
 * weight-gradient GEMM, each of those GEMMs on the GPU's SMs less `commSms`.
 */
export interface TensorOverlapRule {
  pipelineSplits: number;
  commSms: number;
  /** The oldest GPU architecture (compute capability major) it is turned on for. */
  minComputeMajor: number;
  /** The flag its export writes. */
  flag: string;
}

/**
 * The optimizer step a stack runs on the GPU (cost/optimizer-step.ts): the bytes of device memory its
 * kernels read and write per parameter of a device's share of the fp32 optimizer state (master
 * weights, Adam moments, gradients), counted from the optimizer's source, gradient clipping by
 * norm where the stack's recipe clips; and where that is written.
 */
/**
 * The optimizer step the torch export's train_pipeline.py runs: torch.optim.AdamW fused (one kernel)
 * or foreach, and torch.nn.utils.clip_grad_norm_ (FSDP's own under FSDP) at a max norm; null: none.
 */
export interface TorchOptimizer {
  fused: boolean;
  clipGradNorm: number | null;
}

export interface OptimizerStepRule {
  bytesPerParam: number;
  /**
   * Passes over the fp32 gradients of a device's whole tensor-parallel shard (not its ZeRO share) that
   * the step runs beside the optimizer, bytes a parameter: `split` under pipeline or tensor parallelism,
   * `fp16` (loss scaling's unscale) without them in fp16; absent: none.
   */
  gradientPass?: { split: number; fp16: number };
  how: string;
  /** A stack whose export is the torch script: the step it writes there, as priced. */
  torch?: TorchOptimizer;
}

export interface StackRule {
  name: TrainingStack;
  title: string;
  /** Parallelisms it runs besides data parallelism. */
  tensorParallel: boolean;
  pipelineParallel: boolean;
  /** Interleaved 1F1B (virtual stages) with pipelines. */
  interleaved: boolean;
  /** ZeRO-Offload style optimizer offload to the CPU. */
  optimizerOffload: boolean;
  /** ZeRO stages it runs, and what each is in the stack's own words. */
  sharding: Partial<Record<ZeroStage, string>>;
  /** ZeRO stages it runs together with a pipeline. */
  pipelineZeroStages: readonly ZeroStage[];
  /** Activation recomputation it offers (besides none), and what its selective form keeps. */
  recompute: readonly Recompute[];
  recomputeMemory: string;
  /** What its selective recomputation keeps (memory/op-checkpoint.ts). */
  selective: SelectiveKind;
  /**
   * How its tensor parallelism splits the token embedding and the LM head over the group (by
   * vocabulary, with a vocab-parallel cross-entropy), and where that is written; null: it keeps
   * them whole (no tensor parallelism).
   */
  vocabParallel: string | null;
  /** Its attention: fused or not, which fused kernel (FlashAttention-2 or the architecture's newest), and where that is written. */
  attention: { kernel: AttentionKernel; fused: FusedAttentionKernel; how: string };
  gradientSync: GradientSyncRule;
  /** Its optimizer step on the GPU (without optimizer offload). */
  optimizerStep: OptimizerStepRule;
  /** ZeRO-3: the next layer's all-gather prefetched behind this layer's compute (stage-cost.ts's formula). */
  gatherPrefetch: string;
  /**
   * The CUDA stream priority its ZeRO-3 all-gathers and reduce-scatters (and their copies) are issued at,
   * and where that is written: 'default' queues them behind the compute stream's kernels, which on GPUs
   * whose GEMMs are persistent hold every SM until they end (cost/sharded-sync.ts); null: not stated.
   * `hybrid`: the priority under hybrid sharding (HSDP), where it differs.
   */
  gatherStream: { priority: 'default' | 'high' | null; hybrid?: 'default' | 'high'; how: string };
  /** How its tensor-parallel collectives run beside the GEMMs, and where that is written. */
  tensorComm: string;
  /** What it overlaps of them (cost/tensor-overlap.ts prices it); null: none, the step adds them whole. */
  tensorOverlap: TensorOverlapRule | null;
  /**
   * Host time per kernel launch beyond the kernel model's launch cost (µs), where the stack runs
   * eager PyTorch; null with why when no first-party measurement gives one.
   */
  hostGapUs: number | null;
  hostGap: string;
  /** The export that runs it (plan --emit writes its files only, and job.sbatch runs it). */
  exports: StackLauncher;
  sources: readonly string[];
}

/** torch DistributedDataParallel's bucket_cap_mb = 25 (PyTorch docs, torch.nn.parallel.DistributedDataParallel). */
export const TORCH_DDP_BUCKET_BYTES = 25 * 2 ** 20;

/** The bucket a stage of `replicas` data-parallel replicas reduces as one message under `rule`. */
export function gradientBucketBytes(
  rule: Pick<GradientSyncRule, 'bucketBytes' | 'bucketBytesPerReplica'>,
  replicas: number,
): number {
  return Math.max(rule.bucketBytes, rule.bucketBytesPerReplica * replicas);
}
