/**
 * vLLM: `vllm serve MODEL` with --tensor-parallel-size and --pipeline-parallel-size (and
 * --data-parallel-size for replicas), the format's --quantization, --kv-cache-dtype,
 * --max-model-len, --max-num-seqs and --gpu-memory-utilization; uneven stages through
 * VLLM_PP_LAYER_PARTITION (decoder layers per stage), GPUs in rank order through
 * CUDA_VISIBLE_DEVICES, and Ray for a plan over several machines. Flags as vLLM 0.11's
 * EngineArgs declares them (test/fixtures/engines/vllm.json). Pure.
 */
import { commentText } from '../common.js';
import type { WeightFormat } from '../../../workload/generation.js';
import type { ServingLaunch, ServingLaunchInput } from './serving-launch.js';
import {
  GGUF_TYPES,
  DTYPE_NAMES,
  deviceWarnings,
  formatFlags,
  fraction,
  ggufFile,
  ggufRecipe,
  launchOf,
  machinesOf,
  visibleGpus,
  type FormatTable,
} from './launch-common.js';

const VLLM_VERSION = 'vLLM 0.11 (main at 99d7eb5)';

/** llama.cpp's block formats: a GGUF file, which vLLM reads experimentally. */
const GGUF_BLOCKS: readonly WeightFormat[] = ['q8_0', 'q4_k', 'q4_0'];

/**
 * --quantization for the served format: fp8 quantizes a float checkpoint on load (an FP8
 * checkpoint's config says so itself); int4 is an AWQ checkpoint on the Marlin kernels (a GPTQ
 * one: gptq_marlin); int8 is a W8A8 checkpoint whose config vLLM reads. GGUF_BLOCKS: quantization().
 */
const QUANTIZATION: FormatTable = {
  fp8: { flags: ['--quantization', 'fp8'] },
  int4: {
    flags: ['--quantization', 'awq_marlin'],
    note: 'int4 weights: an AWQ checkpoint as MODEL (awq_marlin needs Ampere or newer: --quantization awq before it; a GPTQ checkpoint: --quantization gptq_marlin)',
  },
  int8: {
    flags: [],
    note: 'int8 weights: give a W8A8 (compressed-tensors) checkpoint as MODEL; vLLM reads its config',
  },
};

export function vllmLaunch(input: ServingLaunchInput): ServingLaunch {
  const warnings: string[] = [];
  deviceWarnings('vLLM', input.devices, warnings);
  const gguf = GGUF_BLOCKS.includes(input.weights);
  const model = gguf ? ggufFile(input.model, GGUF_TYPES[input.weights] ?? 'F16') : input.model;
  const args = [model, '--dtype', DTYPE_NAMES[input.dtype], ...quantization(input, warnings)];
  args.push('--tensor-parallel-size', String(input.tp), '--pipeline-parallel-size', String(input.pp));
  if (input.replicas > 1) args.push('--data-parallel-size', String(input.replicas));
  if (input.tp > 1 && input.experts) args.push('--enable-expert-parallel');
  args.push('--max-model-len', String(input.maxModelLen), '--max-num-seqs', String(input.maxNumSeqs));
  if (input.maxBatchedTokens !== undefined) args.push('--max-num-batched-tokens', String(input.maxBatchedTokens));
  args.push('--gpu-memory-utilization', fraction(input.gpuMemoryUtilization));
  if ((input.schedulerSteps ?? 1) > 1)
    warnings.push(
      `multi-step scheduling (--num-scheduler-steps ${input.schedulerSteps}, vLLM 0.5.3-0.6.x) is not in ${VLLM_VERSION}, which schedules every step: ` +
        'the line leaves it out, so its tokens stream one at a time rather than in the chunks the figures assumed',
    );
  if (input.kvCacheDtype === 'fp8') args.push('--kv-cache-dtype', 'fp8');
  const machines = machinesOf(input.devices);
  if (machines.length > 1) {
    args.push('--distributed-executor-backend', 'ray');
    warnings.push(
      `ranks on machines ${machines.map(commentText).join(', ')}: start a Ray cluster over them first (ray start --head, ray start --address); ` +
        'vLLM places the ranks itself',
    );
  }
  const env: Record<string, string> = {};
  const shares = input.split?.mode === 'layer' ? input.split.shares : [];
  if (input.pp > 1 && shares.some((s) => s === 0)) {
    warnings.push(
      `stage ${shares.flatMap((s, i) => (s === 0 ? [i] : [])).join(', ')} holds no decoder layer (only embeddings or the head): vLLM places those with the first and last stages; move a layer there or drop the stage`,
    );
  }
  if (input.pp > 1 && shares.length === input.pp && shares.some((s) => s !== shares[0]))
    env.VLLM_PP_LAYER_PARTITION = shares.join(',');
  Object.assign(env, visibleGpus(input.devices, warnings));
  if (input.devices.some((d) => d.kind === 'cpu'))
    warnings.push('vLLM runs a model on GPUs or on CPUs, not on both: a stage of the plan is on a CPU');
  return launchOf({ engine: 'vllm', version: VLLM_VERSION, program: ['vllm', 'serve'], args, env, warnings });
}

/** The served format's --quantization: its QUANTIZATION entry, or a GGUF file of a block format. */
function quantization(input: ServingLaunchInput, warnings: string[]): readonly string[] {
  if (!GGUF_BLOCKS.includes(input.weights)) return formatFlags(QUANTIZATION, input.weights, warnings);
  warnings.push(
    `${input.weights} weights: vLLM's GGUF support is experimental (llama.cpp runs it natively); give the GGUF file as MODEL and the original model's tokenizer with --tokenizer`,
    ggufRecipe(input.model, GGUF_TYPES[input.weights] ?? ''),
  );
  return ['--quantization', 'gguf'];
}
