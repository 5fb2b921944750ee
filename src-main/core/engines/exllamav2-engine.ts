/**
 * ExLlamaV2: its own CUDA kernels for EXL2 and GPTQ weights (a GEMV streaming the packed weights
 * for few rows, dequantise-then-cuBLAS for many), flash-attention 2 when installed, a dynamic
 * generator batching sequences over a paged cache with chunked prompts (max_chunk_size 2048), run
 * from Python (TabbyAPI serves it). Several GPUs: gpu_split places layers on them in turn; tensor
 * parallelism from 0.2.x. Pure.
 */
import type { WeightFormat } from '../workload/generation.js';
import { GiB, type EngineRules } from './engine-rules.js';
import type { WeightKernelName } from './weight-kernels.js';

function kernel(format: WeightFormat): WeightKernelName {
  return format === 'fp16' || format === 'bf16' ? 'cublas' : 'exl2';
}

const V0_1: EngineRules = {
  name: 'exllamav2',
  since: '0.1.0',
  released: '2024-05-24',
  change: 'dynamic generator (paged, batched, chunked prompts)',
  kernel,
  attention: { prefill: 'flash', prefillShare: 0.9, decodeShare: 1 },
  launches: { perBlock: 14, perStep: 10, gpuUs: 3 },
  host: { stepUs: 96, perSequenceUs: 20, perRankUs: 20, launchUs: 3.2, graphMaxBatch: 0 },
  batching: {
    kind: 'continuous',
    maxNumSeqs: 256,
    maxBatchedTokens: 2048,
    chunkedPrefill: true,
    admission: 'on-demand',
  },
  split: { tensor: true, pipeline: 'sequential', customAllReduce: false, allReduceUs: 8, replicas: false },
  memory: { utilization: 1, reservedBytes: 0.8 * GiB, activationBytesPerTokenPerHidden: 24 },
  kvBytes: { auto: 2, fp8: 1 },
  // Fitted (bench/engines/calibrate.ts, first-party cells only): host stepUs and launchUs, the decode
  // attention's share, EXL2's streaming share; the rest from the source.
  from: ['exl2-readme-performance'],
};

/** Newest first. */
export const EXLLAMAV2_VERSIONS: readonly EngineRules[] = [V0_1];
