/**
 * TensorRT-LLM: a compiled TensorRT engine (or, from 0.17, the PyTorch backend) under a C++
 * runtime with in-flight batching. Kernels: cuBLAS/TensorRT GEMMs for float weights, fp8 W8A8 on
 * Ada/Hopper/Blackwell, its CUTLASS mixed-input W4A16 GEMMs for AWQ/GPTQ int4 (priced as Marlin's
 * kind: weights streamed near the bandwidth at few rows, near the fp16 rate at many), W8A8 int8
 * (SmoothQuant). Attention: fused multi-head attention for the context phase, XQA /
 * masked-multihead kernels for generation. More of a block is fused than in Python engines, and
 * the runtime launches from C++. Defaults (docs/source/performance/perf-overview.md,
 * tensorrt_llm/llmapi): the capacity scheduler GUARANTEED_NO_EVICT reserves a request's whole KV
 * cache at admission, kv_cache_free_gpu_memory_fraction 0.9 of what the weights leave, max batch
 * size and tokens per step from the build (trtllm-bench picks them from the GPU's memory). Pure.
 */
import { GiB, type EngineRules } from './engine-rules.js';
import { HF_TOKENIZER_US_PER_TOKEN } from './request-path.js';
import { standardKernel } from './weight-kernels.js';

/**
 * The server these versions are served behind, Triton's tensorrtllm_backend ensemble, tokenizes each
 * request in its `preprocessing` model before the engine sees it: a Python model that loads the Hugging
 * Face tokenizer (`AutoTokenizer.from_pretrained`) and runs `self.tokenizer.encode(...)` on each query
 * in `_create_request` (all_models/inflight_batcher_llm/preprocessing/1/model.py at v0.9.0 and v0.14.0),
 * one instance unless configured otherwise (v0.14.0 README: `INSTANCE_COUNT=1` filled into
 * `preprocessing_instance_count`; zhjunqin's 0.9 server log loads `preprocessing_0_0` alone), so
 * requests are tokenized one after another, at the fast tokenizer's rate (request-path.ts).
 */
const TRITON_PREPROCESSING = { tokenizeUsPerToken: HF_TOKENIZER_US_PER_TOKEN } as const;

const V0_9: EngineRules = {
  name: 'tensorrt-llm',
  since: '0.9.0',
  released: '2024-04-16',
  change: 'in-flight batching with paged KV cache as the default runtime',
  kernel: standardKernel,
  // Generation attention before 0.12: one CTA per query head and sequence over the whole context
  // (masked MHA, decoderMaskedMultiheadAttentionTemplate.h: each block reads its KV head
  // hi / qhead_per_kv), or XQA's one CTA per KV head and sequence with multi_block_mode off (its
  // default until 0.12); either way a grouped-query model's step follows its query heads' work, not
  // its KV bytes. Priced as PagedDecode's floor (engine-rules.ts): the query heads' reads at
  // queryHeadRate x the bandwidth, read token by token (blockTokens 1). queryHeadRate fitted on
  // TensorRT-LLM's own performance documents (bench/engines/calibrate.ts, --only attention.queryHeadRate).
  attention: { prefill: 'flash', prefillShare: 0.8, decodeShare: 1, paged: { queryHeadRate: 2.06, blockTokens: 1 } },
  launches: { perBlock: 7, perStep: 8, gpuUs: 1.2 },
  host: { stepUs: 1560, perSequenceUs: 5, perRankUs: 50, launchUs: 3, graphMaxBatch: 0, ...TRITON_PREPROCESSING },
  batching: {
    kind: 'continuous',
    maxNumSeqs: 256,
    maxBatchedTokens: 8192,
    chunkedPrefill: false,
    admission: 'full',
  },
  split: {
    tensor: true,
    pipeline: 'overlapped',
    customAllReduce: true,
    allReduceUs: 20,
    // The AUTO strategy picks its own one-shot kernel by size, within the workspace (16 MB at 2 GPUs,
    // 8 MB more): at 2 GPUs always, under 1 MB at 3-4 GPUs, under 500 KB beyond; NCCL otherwise
    // (cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp selectImplementation,
    // cpp/tensorrt_llm/common/customAllReduceUtils.h getMaxRequiredWorkspaceSize).
    customAllReduceUpTo: (gpus) => (gpus <= 2 ? 16e6 : gpus <= 4 ? 1e6 : 5e5),
    replicas: true,
  },
  memory: { utilization: 1, kvShareOfFree: 0.9, reservedBytes: 1.5 * GiB, activationBytesPerTokenPerHidden: 5.8 },
  kvBytes: { auto: 2, fp8: 1 },
  // Fitted (bench/engines/calibrate.ts, first-party cells only, 20 per document version): host stepUs,
  // perSequenceUs and perRankUs, the GPU's time per kernel, both attentions' shares, the custom
  // all-reduce's fixed time and the activation reserve; the rest from its documentation.
  from: [
    'trtllm-perf-v0.5',
    'trtllm-perf-v0.6.1',
    'trtllm-perf-v0.8.0',
    'trtllm-perf-v0.9.0',
    'trtllm-perf-v0.10.0',
    'trtllm-perf-v0.11.0',
    'trtllm-perf-v0.12.0',
    'trtllm-perf-v0.13.0',
    'trtllm-perf-v0.14.0',
    'trtllm-perf-v0.15.0',
    'trtllm-perf-v0.17',
    'trtllm-perf-v0.20-a',
    'trtllm-perf-v0.20-b',
    'trtllm-perf-pt-undated',
    'trtllm-perf-v0.21',
    'trtllm-perf-v1.0',
    'trtllm-perf-v1.0-early',
    'trtllm-perf-585c756',
    'trtllm-perf-pergpu-early',
    'trtllm-perf-release-1.2',
  ],
};

/**
 * 0.12: multi_block_mode moved from the build to the runtime, on by default in the executor
 * (docs/source/release-notes.md, 0.12.0 API Changes: "The `multi_block_mode` argument is moved from
 * build stage (`trtllm-build` and builder API) to the runtime"; cpp/include/tensorrt_llm/executor/
 * executor.h: "explicit ExtendedRuntimePerfKnobConfig(bool multiBlockMode = true, bool
 * enableContextFMHAFP32Acc = false)"; the Python LLM API followed in 0.13: "Enabled
 * `multi_block_mode` by default"). Generation attention splits each sequence's context over several
 * CTAs (XQA's mayHavePerfGain counts history / 128 blocks per KV head, decoderXQAImplJIT.cpp), so a
 * grouped-query model's keys and values are read once per KV head at the bandwidth; the first-party
 * documents of 0.12 on agree (the query-head floor prices them 10-45% slow). Released late August
 * 2024 (the day approximate).
 */
const V0_12: EngineRules = {
  ...V0_9,
  since: '0.12.0',
  released: '2024-08-29',
  change:
    'multi_block_mode on by default at run time: decode attention split over the context, KV read once per KV head',
  attention: { prefill: 'flash', prefillShare: 0.8, decodeShare: 1 },
};

/**
 * The PyTorch backend (default from 1.0; trtllm-bench's from 0.20): the model runs in PyTorch with
 * TensorRT-LLM's kernels, decode steps replay CUDA graphs, and the overlap scheduler prepares the
 * next step while the GPU runs this one (tensorrt_llm/_torch/pyexecutor/py_executor.py,
 * _executor_loop_overlap: fetch and schedule batch N+1, launch it, then update batch N's requests
 * and send its responses), so a request arriving during a step joins the step after the next.
 * The C++ executor of 0.9-0.19 does not (executorImpl.cpp executionLoop: forwardSync of the step,
 * its responses, fetchNewRequests, then forwardAsync of the next).
 */
const V0_20: EngineRules = {
  ...V0_12,
  since: '0.20.0',
  released: '2025-06-05',
  change: 'PyTorch backend: CUDA graphs for decode, overlap scheduler, chunked context',
  launches: { ...V0_9.launches, perBlock: 9 },
  host: { stepUs: 940, perSequenceUs: 2.5, perRankUs: 50, launchUs: 10, graphMaxBatch: 1024 },
  batching: { ...V0_9.batching, chunkedPrefill: true, maxNumSeqs: 1024, scheduleAhead: true },
};

/** Newest first. */
export const TENSORRT_LLM_VERSIONS: readonly EngineRules[] = [V0_20, V0_12, V0_9];
