/**
 * llama.cpp: `llama-server -m FILE.gguf` with -ngl the layers offloaded (llama.cpp keeps the first
 * layers on the CPU and offloads the last -ngl; one more than the blocks also offloads the output
 * layer), a layer split (-sm layer) with -ts in proportion to each stage's layers, or for one
 * tensor-parallel stage a row split (-sm row: every matrix split over the GPUs, -ts equal shares,
 * --main-gpu holding the KV cache), GPUs in stage order through CUDA_VISIBLE_DEVICES. -c is the
 * TOTAL context: llama-server splits it over its -np slots, so it is maxModelLen x slots. Flags as
 * llama.cpp's common/arg.cpp declares them for llama-server (test/fixtures/engines/llama-cpp.json).
 * Pure.
 */
import { commentText } from '../common.js';
import type { ServingLaunch, ServingLaunchInput } from './serving-launch.js';
import { GGUF_TYPES, ggufFile, ggufRecipe, launchOf, machinesOf, stageLeads, visibleGpus } from './launch-common.js';

const LLAMA_CPP_VERSION = 'llama.cpp master at 145b628 (December 2025)';

export function llamaCppLaunch(input: ServingLaunchInput): ServingLaunch {
  const warnings: string[] = [];
  const type = GGUF_TYPES[input.weights] ?? 'F16';
  warnings.push(ggufRecipe(input.model, type));
  const machines = machinesOf(input.devices);
  if (machines.length > 1) {
    warnings.push(
      `stages on machines ${machines.map(commentText).join(', ')}: llama.cpp needs its RPC backend (rpc-server on each, --rpc) for that; not generated`,
    );
  }
  if (input.replicas > 1)
    warnings.push(
      `llama.cpp has no data parallelism: run one llama-server per replica (${input.replicas}) on its own GPUs; this line is the first`,
    );
  const rowSplit = input.split?.mode === 'row' && input.tp > 1 && input.pp === 1;
  if (input.tp > 1 && !rowSplit)
    warnings.push(
      'llama.cpp splits either by layer or by row, not both: each tensor-parallel stage runs on its first GPU (-sm layer)',
    );
  const args = ['-m', ggufFile(input.model, type)];
  let gpus = rowSplit
    ? input.devices.slice(0, input.tp)
    : stageLeads(input.devices, input.pp, input.tp, input.replicas);
  const shares = input.split?.mode === 'layer' && input.split.shares.length === gpus.length ? input.split.shares : null;
  // llama.cpp keeps the first layers on the CPU: CPU stages before the GPUs, none after.
  const firstGpu = gpus.findIndex((d) => d.kind === 'gpu');
  const onGpu = firstGpu < 0 ? [] : gpus.slice(firstGpu);
  if (onGpu.some((d) => d.kind !== 'gpu'))
    warnings.push('a CPU stage after a GPU stage: llama.cpp keeps only the first layers on the CPU');
  const gpuShares = shares ? shares.slice(Math.max(firstGpu, 0)).filter((_, i) => onGpu[i]?.kind === 'gpu') : null;
  gpus = onGpu.filter((d) => d.kind === 'gpu');
  const allOnGpu = firstGpu === 0 && gpus.length === onGpu.length;
  const total = input.layers ?? (shares ? shares.reduce((a, s) => a + s, 0) : undefined);
  const offloaded = gpuShares ? gpuShares.reduce((a, s) => a + s, 0) : total;
  const ngl = gpus.length === 0 ? 0 : allOnGpu ? (total ?? 998) + 1 : (offloaded ?? 0);
  if (gpus.length > 0 && !allOnGpu)
    warnings.push(
      'with layers on the CPU, llama.cpp also keeps the output layer on the CPU (it offloads it only with every layer)',
    );
  args.push('-ngl', String(ngl));
  if (rowSplit) {
    // -sm row: the main GPU holds the KV cache and the small tensors; the first of the group.
    args.push('-sm', 'row', '-ts', gpus.map(() => 1).join(','), '--main-gpu', '0');
  } else if (gpus.length > 1) {
    args.push('-sm', 'layer', '-ts', (gpuShares ?? gpus.map(() => 1)).join(','));
  }
  const slots = Math.max(1, input.maxNumSeqs);
  args.push('-c', String(input.maxModelLen * slots), '-np', String(slots));
  if (input.maxBatchedTokens !== undefined) args.push('-b', String(input.maxBatchedTokens));
  // -fa defaults to auto at this version (flash attention where the backend runs it): stated, as priced.
  const flash = input.flashAttention ?? (gpus.length > 0 || input.kvCacheDtype === 'fp8');
  if (gpus.length > 0 || input.flashAttention !== undefined) args.push('-fa', flash ? 'on' : 'off');
  if (input.kvCacheDtype === 'fp8') {
    // A quantized V cache needs flash attention (-fa on above).
    args.push('-ctk', 'q8_0', '-ctv', 'q8_0');
    warnings.push('llama.cpp has no fp8 KV cache: its 8-bit cache is q8_0 (-ctk q8_0 -ctv q8_0)');
    if (!flash) warnings.push('llama.cpp refuses a quantized V cache without flash attention (-fa off)');
  }
  const env = visibleGpus(gpus, warnings);
  return launchOf({ engine: 'llama.cpp', version: LLAMA_CPP_VERSION, program: ['llama-server'], args, env, warnings });
}
