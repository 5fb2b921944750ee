/**
 * vLLM: PagedAttention and continuous batching in a Python engine, CUDA graphs for decode steps.
 * Two behaviours: before 0.6.0 a step's scheduling, input preparation and output processing ran
 * in Python between GPU steps, per sequence, and prefills ran alone (no chunking by default); from
 * 0.6.0 output processing overlaps the GPU and scheduling got cheaper; from 0.8 (V1) prompts are
 * chunked into decode steps by default. Kernels: cuBLAS for float weights; Marlin for AWQ/GPTQ int4
 * (awq_marlin, gptq_marlin) and for fp8 on GPUs without fp8 units; CUTLASS fp8 W8A8 on Ada and
 * Hopper; llama.cpp's own kernels for GGUF files. Attention: FlashAttention / FlashInfer for
 * prefill, paged decode kernels. Tensor parallelism with a custom one-shot all-reduce over NVLink
 * or P2P; pipeline stages overlap microbatches. Defaults from vllm/config.py and
 * vllm/engine/arg_utils.py at each version: gpu_memory_utilization 0.9, max_num_seqs 256,
 * max_num_batched_tokens max(max_model_len, 2048) without chunked prefill, 8192 with it (V1
 * server), CUDA graph sizes up to 256 (V1: 512). Pure.
 */
import { GiB, type EngineRules, type PagedDecode } from './engine-rules.js';
import { HF_TOKENIZER_US_PER_TOKEN } from './request-path.js';
import { standardKernel } from './weight-kernels.js';

/**
 * vLLM's own PagedAttention decode kernel (csrc/attention/attention_kernels.cu): one thread block per
 * query head, reading its KV head's cache whole: "vLLM's current paged attention kernel also does not
 * leverage the benefits of MQA/GQA" (WoosukKwon, vllm-project/vllm issue #1880). Its K loads are
 * unconditional and masked after, so each sequence's last 16-token block (block_size's default) is
 * read whole. queryHeadRate fitted on the kernel table in that issue (benchmark_paged_attention.py,
 * A100-40GB PCIe, 56 query and 8 KV heads, bf16, context 4096; batch 16, 64, 256: 552, 2,505 and
 * 7,878 µs, the kernel vLLM picks at each): the query heads' reads take 2.58x (2.28x-2.89x) the time
 * of the memory's achieved bandwidth (bench/runs/h61-decode.md). Batch 1 and 4 (one partitioned V2
 * launch of few blocks) are slower than this prices: not fitted.
 */
const PAGED_ATTENTION: PagedDecode = { queryHeadRate: 2.58, blockTokens: 16 };

/**
 * The OpenAI API server tokenizes each prompt with the model's Hugging Face fast tokenizer in its own
 * process, one request after another, before the engine's scheduler sees it (request-path.ts). Read on
 * two copies of vllm/entrypoints/openai/serving_engine.py: the 0.5-era OpenAIServing
 * (`_validate_prompt_and_tokenize`: `input_ids = self.tokenizer(prompt, **tokenizer_kwargs).input_ids`,
 * called in the server's event loop) and the 0.7/0.8-era one (`self._tokenizer_executor =
 * ThreadPoolExecutor(max_workers=1)`; `_preprocess_completion` awaits
 * `_tokenize_prompt_input_or_inputs_async`, made with `make_async(..., executor=self._tokenizer_executor)`,
 * then hands TokensPrompt(prompt_token_ids=...) to the engine client). The 0.6 file was not read; both
 * sides of it tokenize one prompt at a time in the API server, so every version here states it.
 */
const API_SERVER_TOKENIZER = { tokenizeUsPerToken: HF_TOKENIZER_US_PER_TOKEN } as const;

/**
 * V0's CUDA graphs are captured for batches 1, 2, 4, 8, 16, ..., 256 and a decode step replays the
 * smallest that holds it, its inputs padded (vllm/worker/model_runner.py, 0.4 to 0.7:
 * `_BATCH_SIZES_TO_CAPTURE = [1, 2, 4] + [_BATCH_SIZE_ALIGNMENT * i for i in range(1, 33)]`,
 * `_BATCH_SIZE_ALIGNMENT = 8`, `_get_graph_batch_size`: `(batch_size + 7) // 8 * 8` past 4; the pad's
 * sequences get `seq_lens` 1 and the pad slot, and `compute_logits` keeps the real rows only).
 */
const V0_GRAPH_BATCH_ALIGN = 8;

/** vLLM 0.6 to 0.7 (V0 engine, async output processing). */
const V0_6: EngineRules = {
  name: 'vllm',
  since: '0.6.0',
  released: '2024-09-05',
  change: 'output processing overlaps the GPU (async), cheaper scheduling; prefill still alone by default',
  kernel: standardKernel,
  // Prefill through flash_attn_varlen_func of vLLM's FlashAttention-2 fork (vllm-flash-attn) over the
  // chunk and its cached prefix; FlashAttention-3 on Hopper came with fa_utils.get_flash_attn_version
  // ("fa_version = 3 if device_capability.major == 9 and is_fa_version_supported(3) else 2"), read on a
  // 2025 fork's copy: 0.7.x's V0 may already run it (not read), priced here as FlashAttention-2.
  attention: {
    prefill: 'flash',
    prefillShare: 1,
    decodeShare: 0.8,
    prefillKernels: { chunk: 'fa2', prefix: 'fa2' },
    // An fp8 KV cache on any GPU: vllm/attention/selector.py which_attn_to_use (0.4.3 to 0.7's V0),
    // "Cannot use FlashAttention-2 backend for FP8 KV cache." then selected_backend = _Backend.XFORMERS,
    // whose decode is PagedAttention (vllm/attention/ops/paged_attn.py). The kernel's software fp8
    // conversion on GPUs without fp8 units is not priced: no first-party figure (bench/runs/h64-fp8kv.md).
    fp8CachePaged: PAGED_ATTENTION,
  },
  // W8A8 fp8: apply_fp8_linear runs ops.scaled_fp8_quant on the input, then cutlass_scaled_mm
  // (vllm/model_executor/layers/quantization/utils/w8a8_utils.py): a quantisation kernel before each GEMM.
  // (int8's scaled_int8_quant is the same, but the int8 kernel's share already stands for it.)
  launches: { perBlock: 10, perStep: 12, gpuUs: 3, activationQuant: 'separate' },
  host: {
    stepUs: 900,
    perSequenceUs: 10,
    perRankUs: 150,
    launchUs: 12,
    graphMaxBatch: 256,
    graphBatchAlign: V0_GRAPH_BATCH_ALIGN,
    ...API_SERVER_TOKENIZER,
  },
  batching: {
    kind: 'continuous',
    maxNumSeqs: 256,
    maxBatchedTokens: 8192,
    chunkedPrefill: false,
    admission: 'on-demand',
  },
  split: {
    tensor: true,
    pipeline: 'overlapped',
    customAllReduce: true,
    allReduceUs: 8,
    // should_custom_ar: messages under max_size (8192 * 1024 bytes) when 2 GPUs or all over NVLink; NCCL
    // above (vllm/distributed/device_communicators/custom_all_reduce.py).
    customAllReduceUpTo: () => 8192 * 1024,
    replicas: true,
  },
  memory: { utilization: 0.9, reservedBytes: 1.5 * GiB, activationBytesPerTokenPerHidden: 24 },
  kvBytes: { auto: 2, fp8: 1 },
  from: [],
};

/** vLLM 0.4.3 to 0.5 (V0 engine, synchronous Python output processing per sequence). */
const V0_5: EngineRules = {
  ...V0_6,
  since: '0.4.3',
  released: '2024-06-01',
  change: 'decode attention through FlashAttention over the paged cache (grouped-query heads read once)',
  host: { ...V0_6.host, stepUs: 2500, perSequenceUs: 45, perRankUs: 300 },
  // The KV cache is what gpu_memory_utilization leaves of the profile run's peak, counted from the
  // free memory read after the CUDA context is made and before the distributed environment
  // (vllm/worker/worker.py init_device: init_gpu_memory = torch.cuda.mem_get_info()[0], then
  // init_worker_distributed_environment; determine_num_available_blocks: peak_memory =
  // self.init_gpu_memory - free_gpu_memory), and CUDA graphs are captured after the cache
  // (_warm_up_model), in the share left over: on one GPU nothing beside weights and activations is
  // counted; with NCCL communicators (tensor or pipeline parallel) the reserve stays.
  memory: { ...V0_6.memory, reservedBytesAlone: 0 },
};

/**
 * vLLM before 0.4.3: the same V0 engine, but decode attention in its own PagedAttention kernel
 * (PAGED_ATTENTION above; XFormers and FlashAttention backends alike; FlashAttention decodes from
 * vllm-project/vllm PR #4907, 2024-05-19, in the first release after it).
 */
const V0_4: EngineRules = {
  ...V0_5,
  since: '0.4.0',
  released: '2024-04-02',
  change: 'scheduling and output processing in Python between GPU steps, per sequence',
  attention: { ...V0_5.attention, paged: PAGED_ATTENTION },
};

/** vLLM 0.8 and later (V1 engine): chunked prefill on by default, scheduling in a separate process. */
const V1: EngineRules = {
  ...V0_6,
  since: '0.8.0',
  released: '2025-03-18',
  change: 'V1 engine: chunked prefill always on, scheduler and detokenizer off the GPU process',
  host: { stepUs: 2000, perSequenceUs: 4, perRankUs: 250, launchUs: 12, graphMaxBatch: 512, ...API_SERVER_TOKENIZER },
  batching: { ...V0_6.batching, chunkedPrefill: true },
  // FlashAttention-3 on Hopper (get_flash_attn_version above), FlashAttention-2 elsewhere. V1's
  // backends with an fp8 cache are not read here: priced as with a 16-bit one (no fallback kernel).
  attention: { ...V0_6.attention, prefillKernels: { chunk: 'fa3', prefix: 'fa3' }, fp8CachePaged: undefined },
  // Fitted (bench/engines/calibrate.ts) on the three expressible cells of vLLM's own performance CI
  // (H200, tensor parallel 1, 2, 4; version unstated, so priced as the newest): host stepUs and
  // perRankUs. The older versions' numbers are from the source and the v0.6.0 post, not fitted.
  from: ['vllm-perf-ci-build-9515'],
};

/** Newest first. */
export const VLLM_VERSIONS: readonly EngineRules[] = [V1, V0_6, V0_5, V0_4];
