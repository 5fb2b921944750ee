/**
 * Hugging Face transformers `generate()` in eager PyTorch: every operation of a block is its own
 * kernel launched from Python (an RMSNorm alone is several: cast, pow, mean, rsqrt, two multiplies),
 * about 45 per Llama block, and a step's Python (logits processors, stopping criteria, cache
 * bookkeeping) between GPU steps; no CUDA graphs unless compiled. The default DynamicCache appends
 * by concatenation, copying every layer's cache each step. Attention through PyTorch SDPA (its
 * flash backend in fp16/bf16). Quantised weights: AutoAWQ/GPTQ kernels for int4, bitsandbytes
 * LLM.int8 for int8, fbgemm fp8 on Hopper. Static batches: a batch is padded, prefilled at once and
 * decoded until its longest sequence ends. Several GPUs: device_map="auto" places layers on them in
 * turn (one after the other). Pure.
 */
import type { WeightFormat } from '../workload/generation.js';
import { GiB, type EngineRules } from './engine-rules.js';
import type { WeightKernelName } from './weight-kernels.js';

function kernel(format: WeightFormat): WeightKernelName {
  switch (format) {
    case 'fp32':
      return 'cublas-fp32';
    case 'fp8':
      return 'fp8-gemm';
    case 'int8':
      return 'bnb-int8';
    case 'int4':
      return 'awq-gemm';
    default:
      return 'cublas';
  }
}

const V4_40: EngineRules = {
  name: 'transformers',
  since: '4.36.0',
  released: '2023-12-11',
  change: 'SDPA attention by default, DynamicCache',
  kernel,
  attention: { prefill: 'flash', prefillShare: 0.3, decodeShare: 0.33 },
  // q, k, v and gate, up are separate nn.Linear modules in modeling_llama.py (bitsandbytes wraps each).
  launches: { perBlock: 45, perStep: 40, gpuUs: 3, separateProjections: true },
  host: { stepUs: 6000, perSequenceUs: 5, perRankUs: 0, launchUs: 22.4, graphMaxBatch: 0 },
  batching: {
    kind: 'static',
    maxNumSeqs: 1024,
    maxBatchedTokens: 1 << 20,
    chunkedPrefill: false,
    admission: 'full',
  },
  split: { tensor: false, pipeline: 'sequential', customAllReduce: false, allReduceUs: 8, replicas: false },
  memory: { utilization: 1, reservedBytes: 1 * GiB, activationBytesPerTokenPerHidden: 24, activationTokens: 2048 },
  kvBytes: { auto: 2, fp8: 2 },
  // Fitted (bench/engines/calibrate.ts, first-party cells only): host stepUs and launchUs, the prefill
  // attention's share (held at its floor of 0.3), AutoAWQ/GPTQ GEMM share; the rest from the source.
  from: ['hf-optimum-gptq-benchmark', 'hf-llama-recipes-torch-compile'],
};

/**
 * Before 4.36 Llama's attention ran eagerly: the scores materialised (matmul, mask, softmax,
 * matmul), and decoding concatenated the cache tuple of every layer each step.
 */
const V4_30: EngineRules = {
  ...V4_40,
  since: '4.30.0',
  released: '2023-06-08',
  change: 'eager attention: scores through memory',
  attention: { prefill: 'unfused', prefillShare: 0.3, decodeShare: 0.33 },
};

/** Newest first. */
export const TRANSFORMERS_VERSIONS: readonly EngineRules[] = [V4_40, V4_30];
