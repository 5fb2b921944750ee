/**
 * Hugging Face transformers: a complete Python script that loads the model with the plan's dtype
 * (dtype=), quantization (an AWQ/GPTQ/FP8 checkpoint carries its own quantization_config;
 * int8 is bitsandbytes' LLM.int8 through BitsAndBytesConfig), the GPUs as device_map="auto" with
 * max_memory per GPU (accelerate fills them in order: a layer split), and generates for the
 * plan's concurrent sequences. Keywords as the fixture of transformers' signatures lists them
 * (test/fixtures/engines/transformers.json). The model name is a Python string literal. Pure.
 */
import { commentText, pythonString } from '../common.js';
import { count } from '../../../text/plural.js';
import type { ServingLaunch, ServingLaunchInput } from './serving-launch.js';
import {
  DTYPE_NAMES,
  deviceWarnings,
  launchOf,
  oneMachineWarnings,
  replicaDevices,
  visibleGpus,
} from './launch-common.js';

const TRANSFORMERS_VERSION = 'transformers 4.56 or newer';

export const TRANSFORMERS_SCRIPT = 'serve_transformers.py';

/** Output tokens when the prompt is not known. */
const DEFAULT_NEW_TOKENS = 256;

export function transformersLaunch(input: ServingLaunchInput): ServingLaunch {
  const warnings: string[] = [];
  const gpus = replicaDevices(input.devices, input.pp, input.tp, input.replicas).filter((d) => d.kind === 'gpu');
  deviceWarnings('transformers', gpus, warnings);
  if (input.tp > 1)
    warnings.push(
      'the script splits the model by layer over the GPUs (device_map); transformers\' own tensor parallelism is tp_plan="auto" under torchrun',
    );
  oneMachineWarnings(input, warnings, {
    replicas: `the script runs one replica: run ${input.replicas}, each on its own GPUs`,
    machines: 'the script runs on one machine',
  });
  if (input.kvCacheDtype === 'fp8') warnings.push('transformers keeps the KV cache in the model dtype: no fp8 cache');
  if (input.weights === 'int4')
    warnings.push('int4 weights: an AWQ or GPTQ checkpoint as MODEL; its config.json carries the quantization_config');
  if (input.weights === 'fp8') warnings.push('fp8 weights: an FP8 checkpoint (compressed-tensors or FBGEMM) as MODEL');
  const prompt = input.promptTokens ?? 0;
  const newTokens = input.promptTokens !== undefined ? Math.max(1, input.maxModelLen - prompt) : DEFAULT_NEW_TOKENS;
  // GiB (2^30) per GPU, as accelerate's max_memory reads "NGiB", in CUDA_VISIBLE_DEVICES order.
  const maxMemory = gpus.map(
    (d, i) => `${i}: "${Math.max(1, Math.floor((d.memoryBytes * input.gpuMemoryUtilization) / 2 ** 30))}GiB"`,
  );
  const int8 = input.weights === 'int8';
  const load = [
    '    MODEL,',
    `    dtype=torch.${DTYPE_NAMES[input.dtype]},`,
    ...(gpus.length > 0
      ? ['    device_map="auto",', `    max_memory={${maxMemory.join(', ')}},`]
      : ['    device_map="cpu",']),
    ...(int8 ? ['    quantization_config=BitsAndBytesConfig(load_in_8bit=True),'] : []),
  ];
  const script = [
    '#!/usr/bin/env python3',
    `# pipeDejavu serving plan: ${commentText(input.model)} with Hugging Face transformers (${TRANSFORMERS_VERSION}).`,
    `# ${count(input.maxNumSeqs, 'concurrent sequence')} of up to ${input.maxModelLen} tokens${gpus.length > 0 ? ` on ${count(gpus.length, 'GPU')}` : ' on the CPU'}.`,
    'import torch',
    `from transformers import AutoModelForCausalLM, AutoTokenizer${int8 ? ', BitsAndBytesConfig' : ''}`,
    '',
    `MODEL = ${pythonString(input.model)}`,
    `BATCH = ${Math.max(1, input.maxNumSeqs)}`,
    `MAX_NEW_TOKENS = ${newTokens}`,
    '',
    'tokenizer = AutoTokenizer.from_pretrained(MODEL)',
    'if tokenizer.pad_token is None:',
    '    tokenizer.pad_token = tokenizer.eos_token',
    'tokenizer.padding_side = "left"',
    'model = AutoModelForCausalLM.from_pretrained(',
    ...load,
    ')',
    'prompts = ["Hello, my name is"] * BATCH',
    'inputs = tokenizer(prompts, return_tensors="pt", padding=True).to(model.device)',
    'with torch.inference_mode():',
    '    out = model.generate(**inputs, max_new_tokens=MAX_NEW_TOKENS, do_sample=False)',
    'for row in out:',
    '    print(tokenizer.decode(row, skip_special_tokens=True))',
    '',
  ].join('\n');
  const args = [TRANSFORMERS_SCRIPT];
  const env = visibleGpus(gpus, warnings);
  const files = [{ name: TRANSFORMERS_SCRIPT, text: script }];
  return launchOf({
    engine: 'transformers',
    version: TRANSFORMERS_VERSION,
    program: ['python3'],
    args,
    env,
    files,
    warnings,
  });
}
