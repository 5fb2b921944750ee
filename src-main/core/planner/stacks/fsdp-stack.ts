/**
 * PyTorch FSDP with data parallelism only (torch FSDP / DDP in a plain training loop: llm-foundry
 * and Composer, the Hugging Face Trainer, the torch export's script). Pure.
 */
import { TORCH_DDP_BUCKET_BYTES, type StackRule } from './stack-rule.js';

export const FSDP_STACK: StackRule = {
  name: 'fsdp',
  title: 'PyTorch FSDP (data parallel only)',
  tensorParallel: false,
  pipelineParallel: false,
  interleaved: false,
  // FSDP's CPUOffload moves parameters and gradients too, not the optimizer step alone.
  optimizerOffload: false,
  sharding: {
    0: 'NO_SHARD / DistributedDataParallel',
    2: 'SHARD_GRAD_OP: gradients and optimizer state sharded, weights gathered once per forward and kept to the backward',
    3: 'FULL_SHARD: weights, gradients and optimizer state sharded (ZeRO-3 semantics); HYBRID_SHARD with --layout shard=N: FULL_SHARD inside groups of N replicas, each reduce-scattered gradient shard all-reduced across the groups',
  },
  pipelineZeroStages: [],
  recompute: ['full'],
  recomputeMemory:
    'full only: activation checkpointing wraps whole blocks (apply_activation_checkpointing, Composer activation_checkpointing); no selective form',
  selective: 'attention-core',
  vocabParallel: null,
  attention: {
    kernel: 'fused',
    fused: 'flash-attention-2',
    how: "PyTorch SDPA's flash backend or the flash-attn 2.x package (llm-foundry attn_impl flash, IBM fms-fsdp SDPA): FlashAttention-2, not FlashAttention-3 or cuDNN (as torchtitan's rule says of SDPA's order)",
  },
  gradientSync: {
    overlapped: true,
    bucketBytes: TORCH_DDP_BUCKET_BYTES,
    bucketBytesPerReplica: 0,
    how: "DDP's 25 MB buckets all-reduced as the backward pass fills them; FSDP reduce-scatters each wrapped block's gradients after its backward",
  },
  optimizerStep: {
    // fp32 elements: mul_ 8, lerp_ 12, mul_ 8, addcmul_ 12, sqrt 8, div_ 8, add_ 8, addcdiv_ 16; clip 4 + 8.
    bytesPerParam: 92,
    how: "torch.optim.AdamW's foreach step (torch 2.x _multi_tensor_adamw: eight passes over fp32 state, 80 bytes a parameter; Composer's DecoupledAdamW loops the same passes per tensor, 88) and clip_grad_norm_ by norm (the gradients read for the norm, then scaled: 12)",
    torch: { fused: false, clipGradNorm: 1.0 },
  },
  gatherPrefetch:
    'backward_prefetch=BACKWARD_PRE and forward_prefetch (the export writes both): the next block gathered behind this one',
  gatherStream: {
    priority: 'default',
    // limit_all_gathers defaults to True from torch 2.1 (FullyShardedDataParallel's signature).
    hybrid: 'high',
    how: 'FSDP1 _init_streams (torch/distributed/fsdp/_runtime_utils.py): the unshard, post-backward and pre-unshard streams at priority 0 ("preserve the default priority of 0 otherwise"; -1 only with hybrid sharding and limit_all_gathers)',
  },
  tensorComm: 'no tensor parallelism',
  tensorOverlap: null,
  hostGapUs: null,
  hostGap:
    'none added: eager PyTorch; no first-party kernel benchmark of its host time per op, and the bench cells run microbatches whose kernels are far longer than it',
  exports: 'torch',
  sources: [
    'PyTorch docs, torch.distributed.fsdp.FullyShardedDataParallel (ShardingStrategy, BackwardPrefetch, CPUOffload)',
    'PyTorch docs, torch.nn.parallel.DistributedDataParallel (bucket_cap_mb = 25)',
  ],
};
