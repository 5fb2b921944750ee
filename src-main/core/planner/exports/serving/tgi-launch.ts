/**
 * Text Generation Inference: `text-generation-launcher --model-id MODEL` with --num-shard (its
 * tensor parallelism), the format's --quantize (or --dtype for a float model), --kv-cache-dtype,
 * --max-input-tokens, --max-total-tokens, --max-concurrent-requests and --cuda-memory-fraction.
 * Flags as the launcher's clap Args declares them at v3.3.7 (test/fixtures/engines/tgi.json).
 * Pure.
 */
import type { ServingLaunch, ServingLaunchInput } from './serving-launch.js';
import {
  DTYPE_NAMES,
  deviceWarnings,
  formatFlags,
  fraction,
  launchOf,
  oneMachineWarnings,
  replicaDevices,
  visibleGpus,
  type FormatTable,
} from './launch-common.js';

const TGI_VERSION = 'TGI v3.3.7';

/** --quantize for a quantized format (TGI refuses --dtype with it). */
const QUANTIZE: FormatTable = {
  fp8: { flags: ['--quantize', 'fp8'] },
  int4: {
    flags: ['--quantize', 'awq'],
    note: 'int4 weights: an AWQ checkpoint as --model-id (a GPTQ checkpoint: --quantize gptq)',
  },
  int8: { flags: ['--quantize', 'eetq'], note: 'int8 weights: EETQ quantizes the model to 8-bit weights on load' },
};

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
  oneMachineWarnings(input, warnings, {
    replicas: `TGI runs one replica per launcher: start ${input.replicas}, each on its own GPUs (CUDA_VISIBLE_DEVICES) and --port`,
    machines: 'TGI shards within one machine; run a replica per machine instead',
    cpu: 'TGI shards over GPUs: a stage of the plan is on a CPU',
  });
  const env = visibleGpus(replicaDevices(input.devices, input.pp, input.tp, input.replicas), warnings);
  return launchOf({ engine: 'tgi', version: TGI_VERSION, program: ['text-generation-launcher'], args, env, warnings });
}

/** QUANTIZE's flags for a quantized format, else --dtype. */
function precision(input: ServingLaunchInput, warnings: string[]): readonly string[] {
  if (QUANTIZE[input.weights] !== undefined) return formatFlags(QUANTIZE, input.weights, warnings);
  if (input.dtype === 'fp32') {
    warnings.push('TGI serves float16 or bfloat16: the fp32 model is loaded as bfloat16');
    return ['--dtype', 'bfloat16'];
  }
  return ['--dtype', DTYPE_NAMES[input.dtype]];
}
