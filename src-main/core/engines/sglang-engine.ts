/**
 * SGLang: RadixAttention (a prefix-sharing paged KV cache) and a zero-overhead (overlapped)
 * scheduler in Python, FlashInfer attention, CUDA graphs for decode steps, chunked prefill.
 * Kernels as vLLM's for each format (it imports vLLM's and sgl-kernel's Marlin, fp8 and int8
 * GEMMs). Defaults (python/sglang/srt/server_args.py): mem_fraction_static about 0.88 on 80 GB
 * GPUs, chunked_prefill_size 8192 on large GPUs, cuda_graph_max_bs 160, max_running_requests from
 * the KV cache. Tensor parallelism with a custom all-reduce; data parallelism by --dp-size.
 * Scheduling (python/sglang/srt/managers/scheduler.py, server_args.py): get_next_batch_to_run runs a
 * prefill batch when one can be formed and a decode batch otherwise, so prompt steps run alone
 * unless --enable-mixed-chunk (default False); from 0.4.0 the overlap scheduler is on by default
 * (--disable-overlap-schedule, default False): event_loop_overlap forms and launches batch N+1
 * before it processes batch N's results, so the step after the running one is already formed. Pure.
 */
import { GiB, type EngineRules } from './engine-rules.js';
import { standardKernel } from './weight-kernels.js';

const V0_3: EngineRules = {
  name: 'sglang',
  since: '0.3.0',
  released: '2024-09-19',
  change: 'overlapped scheduler, FlashInfer, CUDA graphs and chunked prefill by default',
  kernel: standardKernel,
  attention: { prefill: 'flash', prefillShare: 1, decodeShare: 0.85 },
  launches: { perBlock: 10, perStep: 10, gpuUs: 3 },
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
  memory: { utilization: 0.88, reservedBytes: 1 * GiB, activationBytesPerTokenPerHidden: 16 },
  kvBytes: { auto: 2, fp8: 1 },
  // Fitted (bench/engines/calibrate.ts, first-party cells only, the 12 expressible ones, all at 16 req/s):
  // host stepUs and perSequenceUs, refitted once prompt steps ran alone and 0.4 scheduled one step
  // ahead (median |error| 30% -> 11%; was 625 and 19). The two trade off on these cells: their sum
  // over a step's sequences is what they fix. The rest from the source.
  from: ['sglang-attention-backend-h200', 'sglang-pr1060-zhyncs'],
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
  batching: { ...V0_3.batching, scheduleAhead: true },
};

/** Newest first. */
export const SGLANG_VERSIONS: readonly EngineRules[] = [V0_4, V0_3];
