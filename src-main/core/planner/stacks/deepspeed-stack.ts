/** DeepSpeed (ZeRO stages, PipelineModule), as the DeepSpeed export configures it (ds_config.json). Pure. */
import { GRAD_BYTES_PER_PARAM } from '../memory/memory.js';
import type { StackRule } from './stack-rule.js';

export const DEEPSPEED_STACK: StackRule = {
  name: 'deepspeed',
  title: 'DeepSpeed (ZeRO)',
  // Megatron-DeepSpeed aside, DeepSpeed's own engine does not split layers (AutoTP training is recent and not exported).
  tensorParallel: false,
  pipelineParallel: true,
  interleaved: false,
  optimizerOffload: true,
  sharding: {
    0: 'no ZeRO: the engine all-reduces gradients after the backward pass',
    1: 'ZeRO-1: optimizer state partitioned',
    2: 'ZeRO-2: optimizer state and gradients partitioned',
    3: 'ZeRO-3: parameters too, gathered per module before its forward and backward',
  },
  pipelineZeroStages: [0, 1],
  recompute: ['full'],
  recomputeMemory:
    'full only: deepspeed.checkpointing checkpoints whole layers (activation_checkpointing in the config)',
  selective: 'attention-core',
  vocabParallel: null,
  attention: {
    kernel: 'fused',
    fused: 'flash-attention-2',
    how: "the model's own attention (PyTorch SDPA's flash backend, FlashAttention-2, in a Hugging Face model)",
  },
  gradientSync: {
    // zero_optimization.overlap_comm defaults to false below stage 3 (deepspeed/runtime/zero/config.py), and the export leaves it unset.
    overlapped: false,
    bucketBytes: 500_000_000 * GRAD_BYTES_PER_PARAM,
    bucketBytesPerReplica: 0,
    how: 'overlap_comm unset (false below stage 3): gradients reduced in reduce_bucket_size (5e8 elements) buckets without overlapping the backward pass',
  },
  optimizerStep: {
    // FusedAdam 28; fp32 partition copied to the fp16/bf16 weights 4 + 2; gradient_clipping defaults to 0.
    bytesPerParam: 34,
    how: 'DeepSpeed FusedAdam over the fp32 partition (one multi-tensor pass, 28 bytes a parameter) and the partition copied to the fp16/bf16 weights (6); gradient_clipping defaults to 0 (off)',
  },
  gatherPrefetch:
    'stage 3 sets overlap_comm and prefetches parameters (stage3_prefetch_bucket_size 5e7) behind compute',
  gatherStream: { priority: null, how: 'not stated: priced as overlapped' },
  tensorComm: 'no tensor parallelism',
  tensorOverlap: null,
  hostGapUs: null,
  hostGap: 'none added: eager PyTorch; no first-party kernel benchmark of its host time per op',
  exports: 'deepspeed',
  sources: [
    'DeepSpeed docs, config-json (zero_optimization: stage, overlap_comm, reduce_bucket_size, stage3_prefetch_bucket_size, offload_optimizer)',
    'deepspeedai/DeepSpeed deepspeed/runtime/zero/config.py (overlap_comm default: stage 3 only)',
    'DeepSpeed docs, pipeline parallelism (PipelineModule with ZeRO-1 at most)',
  ],
};
