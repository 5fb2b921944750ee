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
    fused: 'newest',
    how: "Transformer Engine's fused attention (cuDNN / FlashAttention backends, --attention-backend auto); SC'21-era Megatron ran it unfused (batched QKᵀ and AV GEMMs, fused scale-mask-softmax)",
  },
  gradientSync: {
    overlapped: true,
    // megatron/core/distributed/distributed_data_parallel.py: bucket_size = max(40000000, 1000000 × data_parallel_size) elements.
    bucketBytes: 40_000_000 * GRAD_BYTES_PER_PARAM,
    bucketBytesPerReplica: 1_000_000 * GRAD_BYTES_PER_PARAM,
    how: '--overlap-grad-reduce (the export writes it with data-parallel replicas): reduce-scatter (distributed optimizer) or all-reduce per bucket of max(40M, 1M × DP) parameters as the backward pass fills it; the parameter all-gather after the step is not overlapped (--overlap-param-gather is not written)',
  },
  optimizerStep: {
    // FusedAdam 28; fp32 main params copied to the bf16 model params 4 + 2; clip 4 + 8.
    bytesPerParam: 46,
    how: 'Apex / Transformer Engine FusedAdam over the fp32 main params and grads (one multi-tensor pass, 28 bytes a parameter), the main params copied to the bf16 model params (6), and --clip-grad 1.0 by norm (12)',
  },
  gatherPrefetch: "Megatron FSDP prefetches the next module's parameters behind this one's compute",
  gatherStream: { priority: null, how: 'not stated: priced as overlapped' },
  tensorComm:
    "--tp-comm-overlap (the export writes it with --sequence-parallel on Hopper and later, as NVIDIA's NeMo and Megatron-Bridge performance recipes turn it on for H100 and B200): Transformer Engine's userbuffers with its defaults (no --tp-comm-overlap-cfg; megatron/training/initialize.py:211-264 @d98e8a64): the all-gathers before qkv and fc1 (forward) and of the output gradient before proj and fc2 dgrad by ring exchange (tp chunks, copy engine, the local chunk first); the reduce-scatters after proj and fc2 pipelined in 4 splits and after qkv and fc1 dgrad in bulk beside their wgrad GEMM, those GEMMs on the SMs less 16 (transformer_engine/pytorch/module/base.py:336-396 @d0067d0d: num_sm 16, set_sm_margin). Not priced: the bulk re-gather of the input beside the dgrad GEMM (not counted without overlap either). NeMo's own configs give some GEMMs 2-24 SMs (userbuffers_bf16_h100_h8192_tp4_mbs1_seqlen8192); priced at the defaults. Ampere: not written, collectives between the GEMMs",
  tensorOverlap: { pipelineSplits: 4, commSms: 16, minComputeMajor: 9, flag: '--tp-comm-overlap' },
  hostGapUs: null,
  hostGap:
    'none added: Megatron-Core launches fused Transformer Engine kernels; no first-party figure of its host time per kernel',
  exports: 'megatron',
  sources: [
    'NVIDIA/Megatron-LM megatron/training/arguments.py (--use-distributed-optimizer, --overlap-grad-reduce, --tp-comm-overlap, --recompute-*; :1441 --tp-comm-overlap needs --sequence-parallel, @d98e8a64)',
    'NVIDIA/TransformerEngine transformer_engine/pytorch/module/base.py initialize_ub (default overlap method, num_sm, num_splits per GEMM, @d0067d0d)',
    'NVIDIA/Megatron-LM megatron/core/distributed/distributed_data_parallel.py (bucket_size default)',
    'Megatron-Core docs, Megatron FSDP (use_megatron_fsdp, data_parallel_sharding_strategy)',
  ],
};
