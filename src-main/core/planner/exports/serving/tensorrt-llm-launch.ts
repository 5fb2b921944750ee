/**
 * TensorRT-LLM: `trtllm-serve MODEL` (its PyTorch backend) with --tp_size, --pp_size,
 * --max_batch_size, --max_num_tokens, --max_seq_len and --kv_cache_free_gpu_memory_fraction,
 * and an --extra_llm_api_options YAML where a setting has no flag (an fp8 KV cache:
 * kv_cache_config.dtype). Quantized weights are a pre-quantized (ModelOpt) checkpoint, whose
 * config the server reads. Flags as trtllm-serve's click options declare them
 * (test/fixtures/engines/tensorrt-llm.json). Pure.
 */
import type { ServingLaunch, ServingLaunchInput } from './serving-launch.js';
import {
  deviceWarnings,
  fraction,
  launchOf,
  oneMachineWarnings,
  replicaDevices,
  visibleGpus,
} from './launch-common.js';

const TENSORRT_LLM_VERSION = 'TensorRT-LLM main at 4c05a74';

export const TRTLLM_EXTRA_OPTIONS = 'extra_llm_api_options.yaml';

/** trtllm-serve's default --max_num_tokens (BuildConfig.max_num_tokens). */
const DEFAULT_MAX_NUM_TOKENS = 8192;

export function tensorrtLlmLaunch(input: ServingLaunchInput): ServingLaunch {
  const warnings: string[] = [];
  deviceWarnings('TensorRT-LLM', input.devices, warnings);
  checkpointWarning(input, warnings);
  const maxNumTokens = input.maxBatchedTokens ?? Math.max(DEFAULT_MAX_NUM_TOKENS, input.maxModelLen);
  const args = [input.model, '--backend', 'pytorch', '--tp_size', String(input.tp), '--pp_size', String(input.pp)];
  args.push('--max_batch_size', String(input.maxNumSeqs), '--max_num_tokens', String(maxNumTokens));
  args.push('--max_seq_len', String(input.maxModelLen));
  args.push('--kv_cache_free_gpu_memory_fraction', fraction(input.gpuMemoryUtilization));
  const files: { name: string; text: string }[] = [];
  if (input.kvCacheDtype === 'fp8') {
    // The YAML's kv_cache_config replaces the flag's: both settings go there.
    files.push({
      name: TRTLLM_EXTRA_OPTIONS,
      text: [
        `# trtllm-serve --extra_llm_api_options ${TRTLLM_EXTRA_OPTIONS}: settings with no flag of their own`,
        'kv_cache_config:',
        '  dtype: fp8',
        `  free_gpu_memory_fraction: ${fraction(input.gpuMemoryUtilization)}`,
        '',
      ].join('\n'),
    });
    args.push('--extra_llm_api_options', TRTLLM_EXTRA_OPTIONS);
  }
  warnings.push(
    "the KV cache fraction is of the memory left after the weights and buffers (TensorRT-LLM's rule), not of the whole GPU",
  );
  oneMachineWarnings(input, warnings, {
    replicas: `trtllm-serve runs one replica: start ${input.replicas} servers, each on its own GPUs and --port, behind a load balancer`,
    machines: 'launch under MPI (mpirun or srun with trtllm-llmapi-launch trtllm-serve ...), one rank per GPU',
    cpu: 'TensorRT-LLM runs on NVIDIA GPUs only: a stage of the plan is on a CPU',
  });
  const env = visibleGpus(replicaDevices(input.devices, input.pp, input.tp, input.replicas), warnings);
  const program = ['trtllm-serve'];
  return launchOf({ engine: 'tensorrt-llm', version: TENSORRT_LLM_VERSION, program, args, env, files, warnings });
}

/** TensorRT-LLM reads a quantized checkpoint's config (ModelOpt's hf_quant_config.json); it quantizes nothing on load. */
function checkpointWarning(input: ServingLaunchInput, warnings: string[]): void {
  const recipe = { fp8: 'FP8', int4: 'INT4 AWQ (W4A16)', int8: 'INT8 SmoothQuant (W8A8) or INT8 weight-only' } as const;
  if (input.weights === 'fp8' || input.weights === 'int4' || input.weights === 'int8')
    warnings.push(
      `${input.weights} weights: give a ${recipe[input.weights]} checkpoint made with NVIDIA ModelOpt (hf_quant_config.json) as MODEL; trtllm-serve reads its quantization from it`,
    );
}
