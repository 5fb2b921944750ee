/**
 * SGLang: `python3 -m sglang.launch_server --model-path MODEL` with --tp-size, --pp-size and
 * --dp-size for replicas, the format's --quantization, --kv-cache-dtype, --context-length,
 * --mem-fraction-static and --max-running-requests; several machines through --nnodes,
 * --node-rank and --dist-init-addr. Flags as SGLang's ServerArgs declares them
 * (test/fixtures/engines/sglang.json). Pure.
 */
import { commentText } from '../common.js';
import type { ServingLaunch, ServingLaunchInput } from './serving-launch.js';
import {
  DTYPE_NAMES,
  deviceWarnings,
  formatFlags,
  fraction,
  launchOf,
  machinesOf,
  visibleGpus,
  type FormatTable,
} from './launch-common.js';

const SGLANG_VERSION = 'SGLang main at 001067f';

/** fp8: quantized on load (or an FP8 checkpoint); int4: an AWQ checkpoint on Marlin; int8: a W8A8 checkpoint. */
const QUANTIZATION: FormatTable = {
  fp8: { flags: ['--quantization', 'fp8'] },
  int4: {
    flags: ['--quantization', 'awq_marlin'],
    note: 'int4 weights: an AWQ checkpoint as --model-path (a GPTQ checkpoint: --quantization gptq_marlin)',
  },
  int8: {
    flags: ['--quantization', 'w8a8_int8'],
    note: 'int8 weights: a W8A8 int8 (compressed-tensors) checkpoint as --model-path',
  },
};

/** SGLang's rendezvous port for several machines (any free port; the same on every node). */
const DIST_PORT = 50000;

export function sglangLaunch(input: ServingLaunchInput): ServingLaunch {
  const warnings: string[] = [];
  deviceWarnings('SGLang', input.devices, warnings);
  const args = [
    '--model-path',
    input.model,
    '--dtype',
    DTYPE_NAMES[input.dtype],
    ...formatFlags(QUANTIZATION, input.weights, warnings),
  ];
  args.push('--tp-size', String(input.tp));
  if (input.pp > 1) args.push('--pp-size', String(input.pp));
  if (input.replicas > 1) args.push('--dp-size', String(input.replicas));
  args.push('--context-length', String(input.maxModelLen), '--max-running-requests', String(input.maxNumSeqs));
  if (input.maxBatchedTokens !== undefined) args.push('--chunked-prefill-size', String(input.maxBatchedTokens));
  args.push('--mem-fraction-static', fraction(input.gpuMemoryUtilization));
  if (input.kvCacheDtype === 'fp8') args.push('--kv-cache-dtype', 'fp8_e4m3');
  const machines = machinesOf(input.devices);
  if (machines.length > 1) {
    args.push('--nnodes', String(machines.length), '--node-rank', '0');
    args.push('--dist-init-addr', `${machines[0] ?? 'localhost'}:${DIST_PORT}`);
    warnings.push(
      `ranks on machines ${machines.map(commentText).join(', ')}: run the same line on each with --node-rank 1, 2, ...; the first machine's address is the rendezvous`,
    );
  }
  if (input.devices.some((d) => d.kind === 'cpu'))
    warnings.push('SGLang runs a model on GPUs: a stage of the plan is on a CPU');
  const env = visibleGpus(input.devices, warnings);
  const program = ['python3', '-m', 'sglang.launch_server'];
  return launchOf({ engine: 'sglang', version: SGLANG_VERSION, program, args, env, warnings });
}
