/**
 * Megatron-LM (Megatron-Core), as `plan --emit` launches it (megatron.sh: pretrain_gpt.py with
 * megatron-args.txt). Pure.
 */
import { GRAD_BYTES_PER_PARAM } from '../memory/memory.js';
import type { StackRule } from './stack-rule.js';

export const MEGATRON_STACK: StackRule = {
  name: 'megatron',
  title: 'Megatron-LM (Megatron-Core)',
  tensorParallel: true,
  pipelineParallel: true,
  interleaved: true,
  // --optimizer-cpu-offload (Megatron-Core 0.10+, the export writes it).
  optimizerOffload: true,
  sharding: {
    0: 'DDP (no --use-distributed-optimizer)',
    1: 'the distributed optimizer (--use-distributed-optimizer): optimizer state sharded over data-parallel ranks',
    3: 'Megatron FSDP (--use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params), without pipelines',
  },
  pipelineZeroStages: [0, 1],
  recompute: ['selective', 'full'],
  recomputeMemory:
    "selective (--recompute-activations) recomputes the attention core only (Korthikanti et al. 2022): with Transformer Engine's fused attention nothing s² is kept either way; full (--recompute-granularity full --recompute-method uniform) keeps each block's input",
  selective: 'attention-core',
  vocabParallel:
    'VocabParallelEmbedding (megatron/core/tensor_parallel/layers.py:232, built at megatron/core/models/common/embeddings/language_model_embedding.py:59), the output layer a ColumnParallelLinear (megatron/core/models/gpt/gpt_model.py:275) and vocab_parallel_cross_entropy (megatron/core/tensor_parallel/cross_entropy.py:213), NVIDIA/Megatron-LM @d98e8a64; Megatron-DeepSpeed the same (megatron/model/language_model.py:158 VocabParallelEmbedding, :21 parallel_lm_logits, megatron/model/gpt_model.py:314 vocab_parallel_cross_entropy, microsoft/Megatron-DeepSpeed @f4157bea)',
  attention: {
    kernel: 'fused',
    how: "Transformer Engine's fused attention (cuDNN / FlashAttention backends, --attention-backend auto); SC'21-era Megatron ran it unfused (batched QKᵀ and AV GEMMs, fused scale-mask-softmax)",
  },
  gradientSync: {
    overlapped: true,
    // megatron/core/distributed/distributed_data_parallel.py: bucket_size = max(40000000, 1000000 × data_parallel_size) elements.
    bucketBytes: 40_000_000 * GRAD_BYTES_PER_PARAM,
    bucketBytesPerReplica: 1_000_000 * GRAD_BYTES_PER_PARAM,
    how: '--overlap-grad-reduce (the export writes it with data-parallel replicas): reduce-scatter (distributed optimizer) or all-reduce per bucket of max(40M, 1M × DP) parameters as the backward pass fills it; the parameter all-gather after the step is not overlapped (--overlap-param-gather is not written)',
  },
  gatherPrefetch: "Megatron FSDP prefetches the next module's parameters behind this one's compute",
  tensorComm:
    'not overlapped: --tp-comm-overlap (Transformer Engine userbuffers) is not written by the export, so the sequence-parallel all-gathers and reduce-scatters run between the GEMMs',
  hostGapUs: null,
  hostGap:
    'none added: Megatron-Core launches fused Transformer Engine kernels; no first-party figure of its host time per kernel',
  exports: 'megatron',
  sources: [
    'NVIDIA/Megatron-LM megatron/training/arguments.py (--use-distributed-optimizer, --overlap-grad-reduce, --tp-comm-overlap, --recompute-*)',
    'NVIDIA/Megatron-LM megatron/core/distributed/distributed_data_parallel.py (bucket_size default)',
    'Megatron-Core docs, Megatron FSDP (use_megatron_fsdp, data_parallel_sharding_strategy)',
  ],
};
