/**
 * llama.cpp (llama-server, llama-bench): a C++ graph of small kernels, launched one by one from
 * the host; its own quantised kernels for GGUF blocks (MMVQ GEMVs up to 8 rows, MMQ on int8
 * tensor cores beyond), cuBLAS for float weights with many rows. Each layer runs its Q, K, V and
 * gate/up projections as separate matrix products and about twenty kernels in all. Attention
 * without -fa is unfused: KQ, a masked softmax and KQV through memory. CUDA graphs replay one-token
 * steps (a decode, or a prompt's token at -b 1) on one GPU from build b2946 (May 2024). Sampling and
 * logits are handled on the CPU per sequence. Multi-GPU: layer split (-sm layer, the default), the GPUs
 * working one after the other, or row split (-sm row), each matrix cut over the GPUs and gathered
 * on the main GPU; a layer split pipelines a step's ubatches over its GPUs (from b2413). The server
 * runs -np slots of -c / -np context each, in continuous batching with -b 2048 tokens per step,
 * computed in -ub 512 ubatches. Memory: exactly the weights but the input token embedding (kept in
 * host memory), the KV cache of -c tokens, and a compute buffer. Pure.
 */
import type { WeightFormat } from '../workload/generation.js';
import { GiB, type EngineRules } from './engine-rules.js';
import type { WeightKernelName } from './weight-kernels.js';

const GGUF: readonly WeightFormat[] = ['q8_0', 'q4_k', 'q4_0'];

/**
 * From June 2024 (b3140): MMQ on int8 tensor cores for GGUF blocks with many rows. f16 weights: its
 * own GEMV for one row (dequantize_mul_mat_vec), cuBLAS beyond.
 */
function kernel(format: WeightFormat): WeightKernelName {
  if (GGUF.includes(format)) return 'ggml';
  if (format === 'fp16') return 'ggml-f16';
  return format === 'fp32' ? 'cublas-fp32' : 'cublas';
}

/** Before: GGUF blocks with many rows dequantised to fp16 for cuBLAS. */
function kernelBefore3140(format: WeightFormat): WeightKernelName {
  return GGUF.includes(format) ? 'ggml-cublas' : kernel(format);
}

const B3140: EngineRules = {
  name: 'llama.cpp',
  since: 'b3140',
  released: '2024-06-12',
  change: 'MMQ on int8 tensor cores (mma) for GGUF blocks, used over cuBLAS by default',
  kernel,
  // prefillShare refit 1 -> 0.8 (bench/runs/h63-llama.md): the unfused KQ and KQV GEMMs' share of the GEMM rate.
  attention: { prefill: 'unfused', prefillShare: 0.8, decodeShare: 0.3 },
  flashAttention: { prefill: 'flash', prefillShare: 0.3, decodeShare: 1 },
  // ggml-cuda fattn.cu: kernels for K = V heads of 64, 80, 96, 112, 128 and 256 (b3140's switch, and at
  // 145b6280, the launch line's version, on any NVIDIA GPU: mma kernels from Turing, tile kernels without
  // tensor cores). Other heads under -fa on: the scheduler runs the op on the CPU.
  flashAttentionHeadDims: [64, 80, 96, 112, 128, 256],
  // streamGapUs: the GPU-side gap per kernel that CUDA graphs remove (PR #6766's author: the host already
  // launches a token's kernels ahead of the GPU; graphs shorten the gaps between them).
  launches: { perBlock: 22, perStep: 6, gpuUs: 1.5, streamGapUs: 0.55 },
  // A graph for any one-token step, a prompt's token at -b 1 too (ggml-cuda.cu checks the batch's width, not its kind).
  host: { stepUs: 60, perSequenceUs: 24, perRankUs: 0, launchUs: 5, graphMaxBatch: 1, graphBy: 'tokens' },
  batching: {
    kind: 'continuous',
    maxNumSeqs: 1,
    maxBatchedTokens: 2048,
    ubatchTokens: 512,
    chunkedPrefill: true,
    admission: 'full',
  },
  split: {
    tensor: true,
    pipeline: 'sequential',
    pipelinesUbatches: true,
    customAllReduce: false,
    allReduceUs: 8,
    syncsPerBlock: 7,
    replicas: false,
  },
  memory: {
    utilization: 1,
    reservedBytes: 0.6 * GiB,
    activationBytesPerTokenPerHidden: 40,
    activationTokens: 512,
    // llm_load_tensors: "there is very little benefit to offloading the input layer, so always keep it
    // on the CPU" (model.buft_input = llama_default_buffer_type_cpu(true); tok_embd created in ctx_input),
    // at any -ngl; the output layer goes to the last GPU when -ngl exceeds the blocks (llama.cpp @0028010d).
    inputEmbedding: 'host',
    // llama_new_context_with_model reserves the worst-case graph: min(n_ctx, n_ubatch) tokens over a full
    // cache (llm_build_context: n_kv = kv_self.size when worst_case; at 145b6280 llama_context's graph_reserve
    // over memory->init_full(), n_kv = kv->get_size()). Without -fa, build_attn's kq = ggml_mul_mat(k, q) is
    // f32 (GGML_PREC_F32), soft_max_ext runs in place (ggml-alloc: GGML_OP_SOFT_MAX can reuse its parent) with
    // an f32 KQ_mask of n_kv x n_tokens (f16 only under flash attention).
    scoreBuffer: 'full-cache',
  },
  kvBytes: { auto: 2, fp8: 1.0625 },
  // Fitted (bench/engines/calibrate.ts, first-party cells only): host stepUs, perSequenceUs, the GPU's
  // time per kernel, both attentions' shares, ggml's GEMM share, and the f16 and MMVQ GEMVs' bytes per SM
  // cycle (weight-kernels.ts); the rest from llama.cpp's source.
  from: [
    'lcpp-benches-dgx-spark',
    'lcpp-pr7676',
    'lcpp-pr7860',
    'lcpp-pr7921',
    'lcpp-pr7824',
    'lcpp-pr15131',
    'lcpp-pr15802',
    'lcpp-pr17505',
    'lcpp-pr6646',
    'lcpp-pr4766',
    'lcpp-pr4812',
    'lcpp-pr6766',
    'lcpp-issue6763',
    'lcpp-pr7302',
  ],
};

/** CUDA graphs for single-sequence decode on one GPU; GGUF prompts through dequantise-then-cuBLAS. */
const B2946: EngineRules = {
  ...B3140,
  since: 'b2946',
  released: '2024-05-21',
  change: 'CUDA graphs for single-sequence decode on one GPU',
  kernel: kernelBefore3140,
};

/**
 * Before CUDA graphs: every kernel launched from the host. From PR #6017 (b2413, commit f30ea47a):
 * llama_decode takes a batch of up to -b 2048 tokens and computes it in -ub 512 ubatches; over a
 * layer split (all layers offloaded, more than one GPU) the ubatches are pipelined over the GPUs
 * (up to GGML_SCHED_MAX_COPIES = 4 in flight, as many as 2048 / 512), and the batch ends before
 * the next starts (llama-bench and llama-server ask for its logits).
 */
const B2413: EngineRules = {
  ...B2946,
  since: 'b2413',
  released: '2024-03-13',
  change: 'batches of -b 2048 in -ub 512 ubatches, pipelined over a layer split (pipeline parallelism)',
  host: { ...B3140.host, graphMaxBatch: 0 },
};

/** Before: each step one batch of at most -b 512 tokens, the layer split's GPUs one after the other. */
const B1500: EngineRules = {
  ...B2413,
  since: 'b1500',
  released: '2023-11-13',
  change: 'every kernel launched from the host (no CUDA graphs); -b 512 steps, no pipelining',
  batching: { kind: 'continuous', maxNumSeqs: 1, maxBatchedTokens: 512, chunkedPrefill: true, admission: 'full' },
  split: { ...B3140.split, pipelinesUbatches: false },
  memory: { ...B3140.memory, activationTokens: 512 },
};

/** Newest first. */
export const LLAMA_CPP_VERSIONS: readonly EngineRules[] = [B3140, B2946, B2413, B1500];
