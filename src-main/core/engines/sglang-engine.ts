/**
 * SGLang: RadixAttention (a prefix-sharing paged KV cache) and a zero-overhead (overlapped)
 * scheduler in Python, FlashInfer attention, CUDA graphs for decode steps, chunked prefill.
 * Kernels as vLLM's for each format (it imports vLLM's and sgl-kernel's Marlin, fp8 and int8
 * GEMMs). Defaults (python/sglang/srt/server_args.py): mem_fraction_static 0.88 alone, less from
 * TP2 on (below), chunked_prefill_size 8192 on large GPUs, cuda_graph_max_bs 160, max_running_requests from
 * the KV cache. Tensor parallelism with a custom all-reduce; data parallelism by --dp-size.
 * Scheduling (python/sglang/srt/managers/scheduler.py, server_args.py): get_next_batch_to_run runs a
 * prefill batch when one can be formed and a decode batch otherwise, so prompt steps run alone
 * unless --enable-mixed-chunk (default False); from 0.4.0 the overlap scheduler is on by default
 * (--disable-overlap-schedule, default False): event_loop_overlap forms and launches batch N+1
 * before it processes batch N's results, so the step after the running one is already formed. Its
 * TokenizerManager tokenizes each prompt before the scheduler sees it (request-path.ts). Pure.
 */
import { GiB, type EngineRules, type OutputReserve } from './engine-rules.js';
import { HF_TOKENIZER_US_PER_TOKEN } from './request-path.js';
import { standardKernel } from './weight-kernels.js';

const V0_3: EngineRules = {
  name: 'sglang',
  since: '0.3.0',
  released: '2024-09-19',
  change: 'overlapped scheduler, FlashInfer, CUDA graphs and chunked prefill by default',
  kernel: standardKernel,
  // FlashInfer 0.1.x (SGLang 0.3 pins it): its prefill kernels are FlashAttention-2-style on every
  // architecture (the SM90 template came with FlashInfer 0.2.0, flashinfer#521 -> #667, 2024-12-16).
  attention: { prefill: 'flash', prefillShare: 1, decodeShare: 0.85, prefillKernels: { chunk: 'fa2', prefix: 'fa2' } },
  // W8A8 fp8: apply_fp8_linear (python/sglang/srt/layers/quantization/fp8_utils.py) quantises the input by a
  // kernel of its own (static_quant_fp8, or sglang_per_token_quant_fp8 when dynamic), then runs the scaled
  // GEMM (fp8_scaled_mm or vLLM's cutlass_scaled_mm). Read on later trees; 0.4.4's file not read.
  launches: { perBlock: 10, perStep: 10, gpuUs: 3, activationQuant: 'separate' },
  host: { stepUs: 250, perSequenceUs: 57.5, perRankUs: 50, launchUs: 12, graphMaxBatch: 160 },
  batching: {
    kind: 'continuous',
    maxNumSeqs: 4096,
    maxBatchedTokens: 8192,
    chunkedPrefill: true,
    prefillWithDecodes: false,
    admission: 'on-demand',
  },
  split: {
    tensor: true,
    pipeline: 'none',
    customAllReduce: true,
    allReduceUs: 8,
    // should_custom_ar: messages under max_size (8192 * 1024 bytes) when 2 GPUs or all over NVLink; NCCL
    // above (sglang/srt/distributed/device_communicators/custom_all_reduce.py, from vLLM's).
    customAllReduceUpTo: () => 8192 * 1024,
    replicas: true,
  },
  memory: {
    utilization: 0.88,
    // mem_fraction_static by tensor-parallel degree when the launch states none (server_args.py
    // __post_init__; a 0.3-era copy, with --disable-flashinfer deprecated, found by text search, its
    // repository unnamed): 0.79 from TP16, 0.83 from TP8, 0.85 from TP4, 0.87 at TP2-3, 0.88 alone.
    utilizationByTp: [
      [16, 0.79],
      [8, 0.83],
      [4, 0.85],
      [2, 0.87],
    ],
    reservedBytes: 1 * GiB,
    activationBytesPerTokenPerHidden: 16,
  },
  kvBytes: { auto: 2, fp8: 1 },
  // Fitted (bench/engines/calibrate.ts, first-party cells only, the 12 expressible ones, all at 16 req/s):
  // host stepUs and perSequenceUs, refitted once prompt steps ran alone and 0.4 scheduled one step
  // ahead (median |error| 30% -> 11%; was 625 and 19). The two trade off on these cells: their sum
  // over a step's sequences is what they fix. The rest from the source.
  from: ['sglang-attention-backend-h200', 'sglang-pr1060-zhyncs'],
};

/**
 * Admission with the running sequences' output reserved (SGLang 0.4.3.post4, sgl-project/sglang at
 * 00f42707, 2025-03-11; the same code at 0.4.1.4 and after 0.4.5; 0.4.0 and 0.3 not read):
 * - schedule_policy.py:284 PrefillAdder pre-removes sum(min(max_new_tokens - len(output_ids),
 *   CLIP_MAX_NEW_TOKENS_ESTIMATION = 4096) * new_token_ratio) over the running batch from the free
 *   cache; :441 add_one_req refuses (NO_TOKEN) when extend_input_len + min(max_new_tokens, 4096) >=
 *   what is left, and each admitted request takes its prompt and that output from it.
 * - scheduler.py:1086 NO_TOKEN sets batch_is_full, so no prefill batch is formed (:999) until the
 *   running batch shrinks (:1170, :964) or empties (:1145).
 * - scheduler.py:315-328 new_token_ratio = 0.7 x schedule_conservativeness (1.0), floor 0.14 x that,
 *   decaying over 600 decode steps (global_config.py:24-32); :1164 each decode batch decays it; :531
 *   an idle engine resets it; :1154 a retraction sets it to (decoded + 20 a request) / max_new_tokens
 *   of those left (schedule_batch.py:1018, global_config retract_decode_steps 20).
 * The path of a launch with --disable-radix-cache and ignore_eos (add_one_req_ignore_eos, :360) checks
 * a run to completion at ratio 1 instead; not modelled (a default launch keeps the radix cache).
 * Requests here write exactly their output, so max_new_tokens is the output (as benchmark_serving's
 * max_tokens).
 */
const OUTPUT_RESERVE: OutputReserve = {
  initRatio: 0.7,
  minRatio: 0.7 * 0.14,
  decaySteps: 600,
  clip: 4096,
  retractSteps: 20,
};

/**
 * 0.4.0: the overlap ("zero-overhead") scheduler on by default: while batch N runs on the GPU, the
 * CPU receives requests and forms batch N+1, then processes batch N's results.
 */
const V0_4: EngineRules = {
  ...V0_3,
  since: '0.4.0',
  released: '2024-12-04',
  change: 'overlap scheduler on by default: the next batch is formed while this one runs',
  batching: { ...V0_3.batching, scheduleAhead: true, outputReserve: OUTPUT_RESERVE },
  // The TokenizerManager tokenizes each prompt with Hugging Face's fast tokenizer in the HTTP server's process
  // before the scheduler sees it (request-path.ts; read at 0.4.3.post4, not on 0.3's tree).
  host: { ...V0_3.host, tokenizeUsPerToken: HF_TOKENIZER_US_PER_TOKEN },
  // FlashInfer 0.2 (layers/attention/flashinfer_backend.py, forward_extend): a chunk's own tokens go through
  // BatchPrefillWithRaggedKVCacheWrapper(workspace, "NHD"), backend "auto" = FlashAttention-3's template on
  // sm90 (flashinfer utils.determine_attention_backend), causal; the cached prefix through
  // BatchPrefillWithPagedKVCacheWrapper(..., backend="fa2"), unmasked, and merge_state joins the two
  // (sglang#18364: "Paged Prefill: no change ('fa2')", the ragged wrapper left on "auto"). Read on later
  // trees; 0.4.4's file not read. 0.4.0-0.4.0.post2 still pinned FlashInfer 0.1.6 (sglang#2517): priced as later 0.4.
  attention: { ...V0_3.attention, prefillKernels: { chunk: 'fa3', prefix: 'fa2' } },
  // 0.4.x server_args.py (sgl-project/sglang via the fork qingquansong/sglang at b9054d4): 0.81 from TP8.
  memory: {
    ...V0_3.memory,
    utilizationByTp: [
      [16, 0.79],
      [8, 0.81],
      [4, 0.85],
      [2, 0.87],
    ],
  },
};

/** Newest first. */
export const SGLANG_VERSIONS: readonly EngineRules[] = [V0_4, V0_3];
