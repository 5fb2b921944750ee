/**
 * Placement planning vocabulary: devices with their per-layer times and memory,
 * links between them, and the plans the searches produce. Pure.
 */
import type { GradientSyncRule, TensorOverlapRule } from './stacks/stack-rule.js';
import type { WeightFormat } from '../workload/generation.js';
import type { Mode } from '../domain/mode.js';
import type { ServingFigures } from './serving/serving.js';

/** The planner's modes: inference or training (core/domain/mode.ts). */
export type { Mode };

export interface PlanDevice {
  /** e.g. "local/cuda:0", "lab-server/cuda:3", "virtual/H100-SXM". */
  id: string;
  name: string;
  kind: 'cpu' | 'gpu';
  /** Machine the device belongs to (links between machines use the stated network). */
  machine: string;
  /** Memory free for the plan, bytes. */
  memoryBytes: number;
  /** Unprofiled devices (datasheet only) are marked in every output. */
  estimate: 'profiled' | 'datasheet';
}

/** Alpha-beta link: time(bytes) = alphaUs + bytes / (gbps * 1e3) µs. */
export interface PlanLink {
  a: string;
  b: string;
  alphaUs: number;
  /** Bandwidth in GB/s (1e9 bytes per second), one direction. */
  gbps: number;
  kind: string;
  /**
   * Between machines: the rails (NICs) of the nodes, which NCCL's collectives use in parallel
   * (node-networks.ts); a link between two GPUs is what one transfer reaches over its own rails.
   */
  rails?: PlanRails;
  /** Inside a node whose NVLink Switch reduces (NVLS): GB/s per GPU and direction an NVLS all-reduce reaches. */
  nvlsGbps?: number;
  /**
   * A node-level link (like nodes, links.ts): it joins every device of one of these nodes (device
   * ids, a list a node) to every device of another, as one link; a and b are the first devices of
   * the first two. A cluster of N nodes is described in O(N) this way, not by N² device pairs.
   */
  nodes?: readonly (readonly string[])[];
}

/** A node's rails as a collective sees them. */
export interface PlanRails {
  /** NICs of the node. */
  count: number;
  /** Effective GB/s of one NIC, one direction. */
  gbps: number;
  /** NICs per GPU of the node (0.5 where two GPUs share one, 4 where each GPU has four). */
  perGpu: number;
}

export interface PlanLayer {
  name: string;
  /** Forward time per sample of the layer on each device (µs), by device id (or the id whose times it shares: PlanProblem.timesOf). */
  forwardUs: Record<string, number>;
  /** Backward time per sample (µs) by device id, keyed as forwardUs (training; about 2x forward). */
  backwardUs: Record<string, number>;
  /** Trained parameters (fine-tuning with adapters: the adapters only; the base is in frozenBytes). */
  params: number;
  /**
   * Fine-tuning with LoRA/QLoRA adapters: bytes of the frozen base weights the layer holds (bf16,
   * or NF4 under QLoRA), with no gradient or optimizer state. Absent: 0.
   */
  frozenBytes?: number;
  /** Activation bytes per sample sent to the next layer when a cut falls after this layer. */
  outBytesPerSample: number;
  /** Activation bytes per sample kept for backward (training). */
  activationBytesPerSample: number;
  /**
   * Bytes per sample held for the whole step whatever the microbatching: the KV cache of a served
   * decoder (every sequence a device serves keeps its cache there). Absent: 0.
   */
  residentBytesPerSample?: number;
  /**
   * Selective recomputation (Korthikanti et al. 2022) of a transformer block: the activations it
   * keeps when the attention core is recomputed in backward (the s² terms dropped), and that
   * core's forward time per device. Absent: only full recomputation applies to the layer.
   */
  selective?: {
    activationBytesPerSample: number;
    recomputeUs: Record<string, number>;
    /** The block's activations rebuilt while it is recomputed (an op-level policy re-runs the whole block); absent: none counted. */
    peakBytesPerSample?: number;
  };
  /**
   * Full recomputation's memory where it is not Korthikanti's (fine-tuning stacks,
   * memory/finetune-memory.ts): the bytes per sample the layer keeps and the peak while it is
   * recomputed, or 'never' for a layer gradient checkpointing does not wrap (kept whole). Absent:
   * the layer keeps min(activations, output) and its peak is not counted.
   */
  fullRecompute?: { keptBytesPerSample: number; peakBytesPerSample: number } | 'never';
  /** Set by full recomputation from fullRecompute: the stage holds the largest of its layers' once per sample. */
  recomputePeakBytesPerSample?: number;
  /**
   * A mixture-of-experts block: the parameters of its experts (inside `params`), how many experts
   * and how many each token is routed to. A decode step reads only the experts its tokens touch.
   */
  experts?: { params: number; count: number; topK: number };
  /**
   * A transformer block's keys and values of one sample over the whole sequence, bytes (2 x tokens x
   * KV heads x head width x element bytes): what ring attention passes around a context-parallel
   * group (cost/context-parallel.ts). Absent: the layer has no attention to split by sequence.
   */
  kvBytesPerSample?: number;
  /** Megatron-style tensor parallelism of the layer (a transformer block); absent: replicated on every member of a group. */
  tensor?: TensorSplit;
}

/**
 * How a layer splits over a tensor-parallel group of t devices (Megatron-LM: attention by head,
 * by KV head group under GQA, the MLP by columns then rows): its compute, parameters, kept
 * activations (with sequence parallelism) and resident KV cache divide by t; each sample's output
 * (outBytesPerSample) is all-reduced `forwardAllReduces` times forward and `backwardAllReduces`
 * times backward over the group. t must divide every number of `divides` (heads, KV heads).
 */
export interface TensorSplit {
  divides: number[];
  forwardAllReduces: number;
  backwardAllReduces: number;
  /** Bytes per sample each all-reduce moves when not the layer's output (a vocab-parallel LM head reduces its input's gradient). */
  allReduceBytesPerSample?: number;
  /** A mixture-of-experts block: its experts spread over the group (expert parallelism), one per member or more. */
  experts?: number;
  /**
   * A dense block's GEMMs beside its collectives, each a share of the block's forward FLOPs
   * (problem/block-gemms.ts): attention's input projections (after the all-gather) and output
   * projection (before the reduce-scatter), the MLP's the same. Absent: no overlap is priced.
   */
  gemms?: BlockGemms;
}

/** Shares of a block's forward FLOPs (TensorSplit.gemms). */
export interface BlockGemms {
  attnIn: number;
  attnOut: number;
  mlpIn: number;
  mlpOut: number;
}

/** Activation recomputation (training): the attention cores only, or every layer's forward. */
export type Recompute = 'selective' | 'full';

export type Schedule = 'gpipe' | '1f1b';

export interface PlanProblem {
  layers: PlanLayer[];
  devices: PlanDevice[];
  links: PlanLink[];
  mode: Mode;
  /** Global batch (samples per step). */
  batch: number;
  /** Bytes per parameter held by the optimizer state etc.: 16 for mixed-precision Adam; 2 (fp16 weights) for inference. */
  bytesPerParam: number;
  zeroStage: 0 | 1 | 2 | 3;
  /**
   * ZeRO-3 hybrid sharding (HSDP, FSDP's HYBRID_SHARD): the data-parallel replicas one shard group
   * spans (consecutive in the stage's order), the groups replicating each other; absent: all of them.
   */
  shardGroup?: number;
  /** Fixed framework/workspace overhead per device, bytes. */
  overheadBytes: number;
  /**
   * ZeRO-Offload style optimizer offload (training): fp32 master weights and Adam moments live in
   * host memory and the optimizer step runs on the CPU. Devices keep fp16 weights and gradients;
   * each step sends gradients to the host and updated weights back over the device's host link.
   */
  optimizerOffload?: OptimizerOffload;
  /** Activation recomputation the layers' memory and backward times already include. */
  recompute?: Recompute;
  /** Tensor-parallel degrees groups may use (1 is always allowed); absent: [1], no tensor parallelism. */
  tensorDegrees?: number[];
  /**
   * Devices whose layer times are another's (by id: that device's id, the key their times have in
   * every layer's records; problem/time-keys.ts): a cluster's GPUs of one kind are keyed once.
   * Absent for a device: its own id.
   */
  timesOf?: Readonly<Record<string, string>>;
  /** Tokens per sample of a catalog transformer (context parallelism splits them); absent: not a token sequence. */
  sequence?: number;
  /** Serving: the format the weights are stored in (bytesPerParam is its bytes); absent: the model's dtype. */
  weights?: WeightFormat;
  /**
   * Training: how the stack reduces gradients at ZeRO stages 0-2 (stacks/stack-rule.ts); absent:
   * overlapped in torch DDP's 25 MB buckets.
   */
  gradientSync?: Pick<GradientSyncRule, 'overlapped' | 'bucketBytes' | 'bucketBytesPerReplica'>;
  /**
   * Training, ZeRO-3: the devices (by id) whose all-gathers and reduce-scatters wait for the GEMMs
   * (cost/sharded-sync.ts queuedGatherDevices), with full sharding (`sharded`) and with hybrid
   * sharding (`hybrid`): a shard group with one of them hides none. Absent: none.
   */
  queuedGathers?: { devices: readonly string[]; sharded: boolean; hybrid: boolean };
  /**
   * Training without optimizer offload: the optimizer step on the GPUs (cost/optimizer-step.ts): the
   * bytes it moves per parameter of a device's share of the optimizer state (stacks/stack-rule.ts
   * OptimizerStepRule: the stack's, or without one what its export runs, stacks.ts NO_STACK_OPTIMIZER_STEP)
   * and each device's achieved memory bandwidth (GB/s, by id); `gradientPass`: the bytes a parameter of
   * the whole shard its gradient passes beside it move, `split` under pipeline or tensor parallelism,
   * `unsplit` without. Absent: not priced.
   */
  optimizerStep?: {
    bytesPerParam: number;
    deviceGBps: Readonly<Record<string, number>>;
    gradientPass?: { split: number; unsplit: number };
  };
  /**
   * Training: the stack overlaps a block's tensor-parallel collectives with its GEMMs
   * (stacks/stack-rule.ts TensorOverlapRule, priced by cost/tensor-overlap.ts) on the devices of
   * `smCount` (by id, each its SM count); a replica with another device runs them exposed. Absent: exposed.
   */
  tensorOverlap?: Pick<TensorOverlapRule, 'pipelineSplits' | 'commSms'> & { smCount: Record<string, number> };
}

export interface OptimizerOffload {
  /** Host link bandwidth per device id (GB/s, one direction); devices not listed use `defaultHostGBps`. */
  hostGBps: Record<string, number>;
  defaultHostGBps: number;
  /** Memory bandwidth the CPU's Adam step streams at (GB/s). */
  cpuGBps: number;
  /**
   * RAM of each machine's host (by machine label) that holds the offloaded state: the probe's
   * figure, or an assumption for a machine nobody probed. Absent for a machine: not checked.
   */
  hostMemory?: Record<string, HostMemory>;
}

export interface HostMemory {
  bytes: number;
  /** 'probed': the machine's probe; 'assumed': a virtual machine's stated assumption. */
  source: 'probed' | 'assumed';
}

export interface Stage {
  /** Layers [from, to) on this stage. */
  from: number;
  to: number;
  /**
   * Devices of the stage: one, or several in data parallel, tensor parallel or both: with a
   * tensor-parallel degree t, replica r is devices [r·t, (r+1)·t).
   */
  devices: string[];
  /** Tensor-parallel degree (absent: 1). */
  tp?: number;
  /** Transformer blocks the stage holds: a given layout's pipeline stages (absent elsewhere). */
  blocks?: number;
  /** Per-microbatch compute time of the stage (µs). */
  timeUs: number;
  memoryBytes: Record<string, number>;
}

export interface Plan {
  kind: 'single' | 'data-parallel' | 'tensor-parallel' | 'pipeline' | 'hybrid';
  stages: Stage[];
  microbatches: number;
  schedule: Schedule;
  /**
   * Megatron-LM's interleaved 1F1B (Narayanan et al., SC'21 §2.2): each stage (rank) runs this many
   * model chunks, virtual stage j·p + i on rank i; the stages' layer ranges are then the ranks'
   * shares as counted, not the layers they hold. Absent: 1, no interleaving.
   */
  virtualStages?: number;
  /**
   * Context parallelism (Megatron-LM's --context-parallel-size, ring attention): each sample's
   * sequence split over this many GPUs of every stage's replicas (cost/context-parallel.ts). Absent: 1.
   */
  contextParallel?: number;
  /**
   * Expert parallelism (Megatron-LM's --expert-model-parallel-size with experts whole): each
   * mixture-of-experts block's experts spread over this many GPUs, tokens sent to them and back by
   * all-to-alls (cost/expert-parallel.ts). Absent: the experts spread over the tensor-parallel group.
   */
  expertParallel?: number;
  /** Predicted time of one step (training) or one batch (inference), µs. */
  stepUs: number;
  throughputSamplesPerS: number;
  bubbleFraction: number;
  commFraction: number;
  bottleneckStage: number;
  /** Per device: bytes needed and available, and the KV cache's part of the need (serving a decoder). */
  memory: { device: string; neededBytes: number; availableBytes: number; kvCacheBytes?: number }[];
  feasible: boolean;
  reasons: string[];
  /** Set on plans that offload the optimizer to the CPU (training). */
  optimizerOffload?: boolean;
  /** Set on plans that recompute activations in backward (training). */
  recompute?: Recompute;
  /**
   * ZeRO stage of a training plan with data-parallel replicas (0: plain DDP; 1: optimizer state
   * sharded, Megatron's distributed optimizer; 2: and gradients, FSDP SHARD_GRAD_OP; 3: and
   * weights, FSDP FULL_SHARD). Set by the ranking (search/plan-ranking.ts); absent: 0.
   */
  zeroStage?: 0 | 1 | 2 | 3;
  /** ZeRO-3 hybrid sharding (HSDP): the data-parallel replicas a shard group spans (PlanProblem.shardGroup). */
  shardGroup?: number;
}

/**
 * A change to a request that nothing fits, verified: the same search on the changed problem
 * found `plan`, which fits.
 */
export interface PlanSuggestion {
  /** The change in words: "512 tokens instead of 2048". */
  change: string;
  /** How to ask for it: command-line options ("--seq 512"), or what to use instead. */
  option: string;
  /** The best plan the search finds with the change, in the figures its mode is ranked by. */
  plan: SuggestedPlan;
}

/** A suggestion's plan for training (or a model that is not a served decoder): its step and samples/s. */
export type SuggestedStep = Pick<
  Plan,
  'kind' | 'stepUs' | 'throughputSamplesPerS' | 'optimizerOffload' | 'recompute' | 'zeroStage'
>;

/**
 * A suggestion's plan for serving a decoder, in the serving table's figures (no step, no samples/s):
 * the time to first token, the decode step, tokens/s a sequence and at the batch, a whole request,
 * and the engine's band over them (absent: too few independent measurements, or no engine).
 */
export interface SuggestedServing {
  kind: Plan['kind'];
  serving: Pick<
    ServingFigures,
    'ttftUs' | 'decodeStepUs' | 'tokensPerSecondPerSequence' | 'tokensPerSecond' | 'requestUs' | 'band'
  >;
}

export type SuggestedPlan = SuggestedStep | SuggestedServing;
