/** torchtitan (PyTorch's FSDP2 + DTensor TP + pipelining, one TOML config), as the torch export launches it. Pure. */
import { TORCH_DDP_BUCKET_BYTES, type StackRule } from './stack-rule.js';

export const TORCHTITAN_STACK: StackRule = {
  name: 'torchtitan',
  title: 'torchtitan (FSDP2, TP, PP)',
  tensorParallel: true,
  pipelineParallel: true,
  interleaved: true,
  // training.enable_cpu_offload offloads parameters, gradients and optimizer state (FSDP2 CPUOffloadPolicy), not the optimizer alone.
  optimizerOffload: false,
  sharding: {
    0: 'DDP (data_parallel_replicate_degree, torch DistributedDataParallel)',
    2: 'FSDP2 with reshard_after_forward=False (its default under pipelining): gradients and optimizer state sharded, weights kept gathered from forward to backward',
    3: 'FSDP2 fully_shard (data_parallel_shard_degree): weights, gradients and optimizer state sharded; HSDP with --layout shard=N: data_parallel_shard_degree N, data_parallel_replicate_degree dp / N',
  },
  pipelineZeroStages: [0, 2, 3],
  recompute: ['selective', 'full'],
  recomputeMemory:
    'activation_checkpoint.mode selective: op policy (saves the outputs of its save list: aten.mm except every second one, SDPA, reduce-scatter; torchtitan/parallelisms/parallelize_llama.py @157a12c5 lines 36-60, torchtitan/distributed/activation_checkpoint.py @b5bcd76c _get_default_save_ops) priced as memory/op-checkpoint.ts keeps it, or per-layer every Nth block (priced as the op policy, not per layer); and full',
  selective: 'op-policy',
  vocabParallel:
    "tok_embeddings sharded by row (vocabulary) and lm_head by column with loss_parallel's sharded cross-entropy (torchtitan/models/common/decoder_sharding.py @b5bcd76c lines 360-376: weight Shard(0) for both; torchtitan/parallelisms/parallelize_llama.py @157a12c5 RowwiseParallel/ColwiseParallel)",
  attention: {
    kernel: 'fused',
    fused: 'flash-attention-2',
    how: "PyTorch SDPA (flex attention optional): its flash backend, FlashAttention-2, on Ampere and later; cuDNN's kernel comes last in SDPA's order from 2.5.1 (pytorch/pytorch#138522) until builds whose cuDNN passes 9.15 prefer it on sm90/sm100 (sdp_utils.cpp check_prefer_cudnn_attention)",
  },
  gradientSync: {
    overlapped: true,
    bucketBytes: TORCH_DDP_BUCKET_BYTES,
    bucketBytesPerReplica: 0,
    how: "DDP's 25 MB buckets all-reduced as the backward pass fills them; FSDP2 reduce-scatters each block's gradients as its backward ends",
  },
  optimizerStep: {
    // fused AdamW: reads param, grad, exp_avg, exp_avg_sq (16), writes three (12); clip 4 + 8.
    bytesPerParam: 40,
    how: "torch.optim.AdamW fused (torchtitan's optimizer.implementation defaults to 'fused': one pass, 28 bytes a parameter) and clip_grad_norm_ at max_norm 1.0 (12)",
    torch: { fused: true, clipGradNorm: 1.0 },
  },
  gatherPrefetch: "FSDP2's implicit prefetch: the next block's all-gather is issued before this block's compute",
  gatherStream: {
    priority: 'high',
    how: 'FSDP2 FSDPCommContext.lazy_init (torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py): all-gather copy-in, all-gather and reduce-scatter streams at priority -1 ("can help avoid some issues where their copies in/out are delayed and block computation")',
  },
  tensorComm:
    'not overlapped: async TP (experimental.enable_async_tensor_parallel) needs torch.compile, which the export does not turn on',
  tensorOverlap: null,
  hostGapUs: null,
  hostGap:
    'none added: eager PyTorch dispatches each op from Python; no first-party kernel benchmark of that gap per op was found, and the bench cells run microbatches whose kernels are far longer than it',
  exports: 'torch',
  sources: [
    'pytorch/torchtitan docs/fsdp.md (FSDP2, reshard_after_forward, implicit prefetch)',
    'pytorch/torchtitan torchtitan/config/job_config.py (activation_checkpoint.mode, selective_ac_option, enable_async_tensor_parallel, enable_cpu_offload)',
    'PyTorch docs, torch.nn.parallel.DistributedDataParallel (bucket_cap_mb = 25)',
  ],
};
