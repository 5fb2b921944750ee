/**
 * Text Generation Inference: a Rust router batching requests continuously for a Python model
 * server (flash attention, paged KV cache, CUDA graphs for decode batches up to 128 by default).
 * Kernels: cuBLAS for float weights, Marlin for GPTQ/AWQ int4, fp8 (fbgemm / Marlin fp8), EETQ or
 * bitsandbytes int8. Version 3 chunks prefills into decode batches and caches prefixes. The
 * launcher sizes max-batch-total-tokens from the memory left after warm-up (cuda-memory-fraction
 * 1.0 with a safety margin), max-batch-prefill-tokens 4096, max-concurrent-requests 128 at the
 * router. Tensor parallelism by --num-shard (NCCL). Pure.
 */
import type { WeightFormat } from '../workload/generation.js';
import { GiB, type EngineRules } from './engine-rules.js';
import { standardKernel, type WeightKernelName } from './weight-kernels.js';

const V2_0: EngineRules = {
  name: 'tgi',
  since: '2.0.0',
  released: '2024-04-12',
  change: 'flash and paged attention, CUDA graphs, Marlin int4',
  kernel: standardKernel,
  attention: { prefill: 'flash', prefillShare: 1, decodeShare: 0.8 },
  launches: { perBlock: 10, perStep: 12, gpuUs: 3 },
  host: { stepUs: 1200, perSequenceUs: 10, perRankUs: 100, launchUs: 12, graphMaxBatch: 128 },
  batching: {
    kind: 'continuous',
    maxNumSeqs: 128,
    maxBatchedTokens: 4096,
    chunkedPrefill: false,
    admission: 'on-demand',
  },
  split: { tensor: true, pipeline: 'none', customAllReduce: false, allReduceUs: 8, replicas: false },
  memory: { utilization: 0.95, reservedBytes: 1.5 * GiB, activationBytesPerTokenPerHidden: 24 },
  kvBytes: { auto: 2, fp8: 1 },
  // Not fitted: none of TGI's own published figures could be expressed (GPUs without a form factor,
  // unstated prompt lengths); every number is from its source and documentation.
  from: [],
};

const V3_0: EngineRules = {
  ...V2_0,
  since: '3.0.0',
  released: '2024-12-10',
  change: 'chunked prefill and prefix caching by default',
  batching: { ...V2_0.batching, chunkedPrefill: true },
};

/** Before Marlin (2.0), int4 ran on the AWQ GEMM (GPTQ on exllama's, not told apart here). */
function eagerKernel(format: WeightFormat, architecture: string): WeightKernelName {
  return format === 'int4' ? 'awq-gemm' : standardKernel(format, architecture);
}

/**
 * Before EETQ (1.1), TGI's only 8-bit path was `--quantize bitsandbytes`: launcher/src/main.rs of
 * 0.9.3 and 1.0.x lists `Quantization { Bitsandbytes, Gptq }`, and server/.../utils/layers.py's
 * get_linear wraps every Linear in bitsandbytes' Linear8bitLt (has_fp16_weights=False,
 * threshold=6.0), LLM.int8 with its host operations around each GEMM. The fused q/k/v and
 * gate/up weights (TensorParallelColumnLinear.load_multi) are one Linear8bitLt each.
 */
function bitsandbytesKernel(format: WeightFormat, architecture: string): WeightKernelName {
  return format === 'int8' ? 'bnb-int8' : eagerKernel(format, architecture);
}

/**
 * 1.1 to 1.4: the same flash/paged model code, but every decode step launched eagerly from Python:
 * CUDA graphs came in 1.4 behind --cuda-graphs (off by default, TGI PR #1428) and were made the
 * default in 2.0 (PR #1703, 2024-04-04), so each kernel of a step costs a launch. 1.1.0 (tagged
 * 2023-09-28) added EETQ for 8-bit weights (PR #1068) and AWQ.
 */
const V1_1: EngineRules = {
  ...V2_0,
  since: '1.1.0',
  released: '2023-09-28',
  change: 'EETQ int8 and AWQ int4; still no CUDA graphs (eager decode launches)',
  kernel: eagerKernel,
  host: { ...V2_0.host, graphMaxBatch: 0 },
};

/**
 * 0.9 and 1.0: decoding as 1.1 does, 8-bit weights on bitsandbytes LLM.int8. 0.9 was out by
 * 2023-07-04 (a maintainer answering "Use 0.9" for its PagedAttention, TGI issue #536).
 */
const V0_9: EngineRules = {
  ...V1_1,
  since: '0.9.0',
  released: '2023-07-04',
  change: 'flash and paged attention without CUDA graphs; int8 on bitsandbytes LLM.int8, int4 on the AWQ GEMM',
  kernel: bitsandbytesKernel,
};

/** Newest first. */
export const TGI_VERSIONS: readonly EngineRules[] = [V3_0, V2_0, V1_1, V0_9];
