/**
 * Text Generation Inference: `text-generation-launcher --model-id MODEL` with --num-shard (its
 * tensor parallelism), the format's --quantize (or --dtype for a float model), --kv-cache-dtype,
 * --max-input-tokens, --max-total-tokens, --max-concurrent-requests and --cuda-memory-fraction.
 * Flags as the launcher's clap Args declares them at v3.3.7 (test/fixtures/engines/tgi.json).
 * Pure.
 */
import { commentText } from '../common.js';
import type { ServingLaunch, ServingLaunchInput } from './serving-launch.js';
import { deviceWarnings, fraction, machinesOf, replicaDevices, shellLine, visibleGpus } from './launch-common.js';

const TGI_VERSION = 'TGI v3.3.7';

export function tgiLaunch(input: ServingLaunchInput): ServingLaunch {
  const warnings: string[] = [];
  deviceWarnings('TGI', input.devices, warnings);
  const shards = input.tp * input.pp;
  if (input.pp > 1)
    warnings.push(
      `TGI shards tensors only (no pipeline stages): the plan's ${input.pp} stages x ${input.tp} GPUs run as ${shards} tensor-parallel shards`,
    );
  const args = ['--model-id', input.model, '--num-shard', String(shards), ...precision(input, warnings)];
  const total = input.maxModelLen;
  const prompt = Math.max(1, Math.min(input.promptTokens ?? total - 1, total - 1));
  args.push('--max-input-tokens', String(prompt), '--max-total-tokens', String(total));
  args.push('--max-concurrent-requests', String(input.maxNumSeqs));
  if (input.maxBatchedTokens !== undefined)
    args.push('--max-batch-prefill-tokens', String(Math.max(input.maxBatchedTokens, prompt)));
  args.push('--cuda-memory-fraction', fraction(input.gpuMemoryUtilization));
  if (input.kvCacheDtype === 'fp8') args.push('--kv-cache-dtype', 'fp8_e4m3fn');
  if (input.replicas > 1)
    warnings.push(
      `TGI runs one replica per launcher: start ${input.replicas}, each on its own GPUs (CUDA_VISIBLE_DEVICES) and --port`,
    );
  const machines = machinesOf(input.devices);
  if (machines.length > 1)
    warnings.push(
      `ranks on machines ${machines.map(commentText).join(', ')}: TGI shards within one machine; run a replica per machine instead`,
    );
  if (input.devices.some((d) => d.kind === 'cpu'))
    warnings.push('TGI shards over GPUs: a stage of the plan is on a CPU');
  const env = visibleGpus(replicaDevices(input.devices, input.pp, input.tp, input.replicas), warnings);
  return {
    engine: 'tgi',
    version: TGI_VERSION,
    command: shellLine(env, ['text-generation-launcher', ...args]),
    args,
    env,
    files: [],
    warnings,
  };
}

/** --quantize for a quantized format (TGI refuses --dtype with it), else --dtype. */
function precision(input: ServingLaunchInput, warnings: string[]): string[] {
  switch (input.weights) {
    case 'fp8':
      return ['--quantize', 'fp8'];
    case 'int4':
      warnings.push('int4 weights: an AWQ checkpoint as --model-id (a GPTQ checkpoint: --quantize gptq)');
      return ['--quantize', 'awq'];
    case 'int8':
      warnings.push('int8 weights: EETQ quantizes the model to 8-bit weights on load');
      return ['--quantize', 'eetq'];
    default:
      if (input.dtype === 'fp32') {
        warnings.push('TGI serves float16 or bfloat16: the fp32 model is loaded as bfloat16');
        return ['--dtype', 'bfloat16'];
      }
      return ['--dtype', input.dtype === 'fp16' ? 'float16' : 'bfloat16'];
  }
}
