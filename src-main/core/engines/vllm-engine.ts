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
import { GiB, type EngineRules } from './engine-rules.js';
import { standardKernel } from './weight-kernels.js';

/** vLLM 0.6 to 0.7 (V0 engine, async output processing). */
const V0_6: EngineRules = {
  name: 'vllm',
  since: '0.6.0',
  released: '2024-09-05',
  change: 'output processing overlaps the GPU (async), cheaper scheduling; prefill still alone by default',
  kernel: standardKernel,
  attention: { prefill: 'flash', prefillShare: 1, decodeShare: 0.8 },
  // W8A8 fp8: apply_fp8_linear runs ops.scaled_fp8_quant on the input, then cutlass_scaled_mm
  // (vllm/model_executor/layers/quantization/utils/w8a8_utils.py): a quantisation kernel before each GEMM.
  // (int8's scaled_int8_quant is the same, but the int8 kernel's share already stands for it.)
  launches: { perBlock: 10, perStep: 12, gpuUs: 3, activationQuant: 'separate' },
  host: { stepUs: 900, perSequenceUs: 10, perRankUs: 150, launchUs: 12, graphMaxBatch: 256 },
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

/** vLLM before 0.6 (V0 engine, synchronous Python output processing per sequence). */
const V0_5: EngineRules = {
  ...V0_6,
  since: '0.4.0',
  released: '2024-04-02',
  change: 'scheduling and output processing in Python between GPU steps, per sequence',
  host: { stepUs: 2500, perSequenceUs: 45, perRankUs: 300, launchUs: 12, graphMaxBatch: 256 },
  // The KV cache is what gpu_memory_utilization leaves of the profile run's peak, counted from the
  // free memory read after the CUDA context is made and before the distributed environment
  // (vllm/worker/worker.py init_device: init_gpu_memory = torch.cuda.mem_get_info()[0], then
  // init_worker_distributed_environment; determine_num_available_blocks: peak_memory =
  // self.init_gpu_memory - free_gpu_memory), and CUDA graphs are captured after the cache
  // (_warm_up_model), in the share left over: on one GPU nothing beside weights and activations is
  // counted; with NCCL communicators (tensor or pipeline parallel) the reserve stays.
  memory: { ...V0_6.memory, reservedBytesAlone: 0 },
};

/** vLLM 0.8 and later (V1 engine): chunked prefill on by default, scheduling in a separate process. */
const V1: EngineRules = {
  ...V0_6,
  since: '0.8.0',
  released: '2025-03-18',
  change: 'V1 engine: chunked prefill always on, scheduler and detokenizer off the GPU process',
  host: { stepUs: 2000, perSequenceUs: 4, perRankUs: 250, launchUs: 12, graphMaxBatch: 512 },
  batching: { ...V0_6.batching, chunkedPrefill: true },
  // Fitted (bench/engines/calibrate.ts) on the three expressible cells of vLLM's own performance CI
  // (H200, tensor parallel 1, 2, 4; version unstated, so priced as the newest): host stepUs and
  // perRankUs. The older versions' numbers are from the source and the v0.6.0 post, not fitted.
  from: ['vllm-perf-ci-build-9515'],
};

/** Newest first. */
export const VLLM_VERSIONS: readonly EngineRules[] = [V1, V0_6, V0_5];
