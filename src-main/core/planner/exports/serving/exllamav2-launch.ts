/**
 * ExLlamaV2 has no server of its own: TabbyAPI serves EXL2 (and FP16) models with it. The launch
 * is `python3 main.py --config config.yml` in a TabbyAPI checkout, and config.yml holds the plan:
 * model_dir / model_name, max_seq_len, cache_mode (FP16, or Q8 for an 8-bit cache), cache_size
 * for every concurrent sequence, max_batch_size, and the GPUs as gpu_split (GB each, in order) or
 * tensor_parallel. Keys and flags as TabbyAPI's config models declare them at its last ExLlamaV2
 * commit (test/fixtures/engines/exllamav2-tabbyapi.json). Pure.
 */
import { commentText, yamlString } from '../common.js';
import type { ServingLaunch, ServingLaunchInput } from './serving-launch.js';
import { deviceWarnings, launchOf, oneMachineWarnings, replicaDevices, visibleGpus } from './launch-common.js';

const EXLLAMAV2_VERSION = 'TabbyAPI at 79126f9 (its ExLlamaV2 backend)';

export const TABBY_CONFIG = 'config.yml';

/** EXL2 bits per weight of the formats served as EXL2. */
const EXL2_BPW = { int4: '4.0', int8: '8.0' } as const;

export function exllamav2Launch(input: ServingLaunchInput): ServingLaunch {
  const warnings: string[] = [];
  const gpus = replicaDevices(input.devices, input.pp, input.tp, input.replicas).filter((d) => d.kind === 'gpu');
  deviceWarnings('ExLlamaV2', gpus, warnings);
  // A folder path: its parent is model_dir; a Hugging Face id: its last part under models/.
  const folder = input.model.replace(/[/\\]+$/, '');
  const slash = Math.max(folder.lastIndexOf('/'), folder.lastIndexOf('\\'));
  const isPath = /^(\/|\.{1,2}[/\\]|~)/.test(folder) && slash > 0;
  const modelDir = isPath ? folder.slice(0, slash) : 'models';
  const modelName = slash >= 0 ? folder.slice(slash + 1) : folder;
  if (input.weights === 'int4' || input.weights === 'int8')
    warnings.push(
      `${input.weights} weights: an EXL2 quant of ${commentText(input.model)} at ${EXL2_BPW[input.weights]} bits per weight, in ${commentText(`${modelDir}/${modelName}`)} (python3 main.py download REPO --folder-name NAME fetches one)`,
    );
  else
    warnings.push(
      `${commentText(input.model)}: ExLlamaV2 loads its FP16/BF16 safetensors as they are, in ${commentText(`${modelDir}/${modelName}`)}`,
    );
  const tensorParallel = input.tp > 1;
  if (input.tp > 1 && input.pp > 1)
    warnings.push('ExLlamaV2 splits by layer or runs tensor parallel, not both: tensor_parallel over every GPU');
  oneMachineWarnings(input, warnings, {
    replicas: `TabbyAPI serves one replica: run ${input.replicas}, each with its own GPUs and network.port`,
    machines: 'ExLlamaV2 runs on one machine; a replica per machine',
    cpu: 'ExLlamaV2 runs on GPUs: a stage of the plan is on a CPU',
  });
  // VRAM each GPU may fill, in GB (1e9 bytes), in order: the layers fill GPU 0 first, as the plan's stages do.
  const split = gpus.map((d) => Math.floor((d.memoryBytes * input.gpuMemoryUtilization) / 1e8) / 10);
  const slots = Math.max(1, input.maxNumSeqs);
  const lines = [
    `# TabbyAPI config for ${commentText(input.model)}: python3 main.py --config ${TABBY_CONFIG} (in a TabbyAPI checkout)`,
    'network:',
    '  host: 127.0.0.1',
    '  port: 5000',
    'model:',
    `  model_dir: ${yamlString(modelDir)}`,
    `  model_name: ${yamlString(modelName)}`,
    '  backend: exllamav2',
    `  max_seq_len: ${input.maxModelLen}`,
    `  cache_mode: ${input.kvCacheDtype === 'fp8' ? 'Q8' : 'FP16'}`,
    `  cache_size: ${input.maxModelLen * slots}`,
    `  max_batch_size: ${slots}`,
    ...(input.maxBatchedTokens !== undefined ? [`  chunk_size: ${input.maxBatchedTokens}`] : []),
    `  tensor_parallel: ${tensorParallel}`,
    ...(gpus.length > 1 || tensorParallel ? ['  gpu_split_auto: false', `  gpu_split: [${split.join(', ')}]`] : []),
    '',
  ];
  if (input.kvCacheDtype === 'fp8') warnings.push('ExLlamaV2 has no fp8 cache: its 8-bit cache is cache_mode Q8');
  const args = ['main.py', '--config', TABBY_CONFIG];
  const env = visibleGpus(gpus, warnings);
  const files = [{ name: TABBY_CONFIG, text: lines.join('\n') }];
  return launchOf({
    engine: 'exllamav2',
    version: EXLLAMAV2_VERSION,
    program: ['python3'],
    args,
    env,
    files,
    warnings,
  });
}
