/**
 * A serving plan as the launch line of its engine: one module per engine beside this one
 * (vllm-launch.ts, sglang-launch.ts, tensorrt-llm-launch.ts, llama-cpp-launch.ts,
 * transformers-launch.ts, tgi-launch.ts, exllamav2-launch.ts), chosen from a table by the engine.
 * Each writes the flags of the engine version it names, as that version's own argument parser
 * declares them (test/fixtures/engines/ holds each parser's flags; the tests check every line
 * against them). Outside text (the model) is always quoted by the shell, YAML or Python rules of
 * ../common.ts. Pure.
 */
import { UserError } from '../../../errors.js';
import { ENGINE_FORMATS, resolveEngine } from '../../../engines/engine-formats.js';
import type { EngineName } from '../../../engines/engine-names.js';
import type { WeightFormat } from '../../../workload/generation.js';
import type { PlanDevice } from '../../types.js';
import { exllamav2Launch } from './exllamav2-launch.js';
import { llamaCppLaunch } from './llama-cpp-launch.js';
import { sglangLaunch } from './sglang-launch.js';
import { tensorrtLlmLaunch } from './tensorrt-llm-launch.js';
import { tgiLaunch } from './tgi-launch.js';
import { transformersLaunch } from './transformers-launch.js';
import { vllmLaunch } from './vllm-launch.js';

/** What a launch line is written from: the engine, the served model and format, and the plan's layout. */
export interface ServingLaunchInput {
  engine: EngineName;
  /** HF id, folder, or GGUF file: outside text, always quoted. */
  model: string;
  /** Compute dtype (activations, and the weights when `weights` is a float format). */
  dtype: 'bf16' | 'fp16' | 'fp32';
  /** The served format (core/workload/generation.ts WEIGHT_FORMATS). */
  weights: WeightFormat;
  kvCacheDtype: 'auto' | 'fp8';
  /** Tokens per sequence (prompt + output). */
  maxModelLen: number;
  /**
   * Concurrent sequences the plan runs at (vLLM --max-num-seqs, SGLang --max-running-requests,
   * llama.cpp -np, TGI --max-concurrent-requests, TensorRT-LLM --max_batch_size, TabbyAPI
   * max_batch_size, the transformers script's batch).
   */
  maxNumSeqs: number;
  /** Tokens one engine step may batch (prefill chunks); absent: the engine's default. */
  maxBatchedTokens?: number;
  /**
   * Decode steps per scheduling decision the figures assumed (vLLM v0.5.3-v0.6.x
   * --num-scheduler-steps); absent: 1. No engine version a launch line targets has the flag.
   */
  schedulerSteps?: number;
  /**
   * Fraction of each GPU the engine may take (vLLM --gpu-memory-utilization, SGLang
   * --mem-fraction-static, TGI --cuda-memory-fraction, TensorRT-LLM's KV cache fraction of the
   * memory left after the weights, the transformers script's max_memory).
   */
  gpuMemoryUtilization: number;
  tp: number;
  pp: number;
  replicas: number;
  /**
   * Layer split: decoder layers per pipeline stage (vLLM's VLLM_PP_LAYER_PARTITION, llama.cpp's
   * -ts); row split: llama.cpp's -sm row over the tensor-parallel group, shares per GPU.
   */
  split?: { mode: 'layer' | 'row'; shares: number[] };
  /** GPUs in rank order (stage-major, tensor-parallel rank innermost): CUDA_VISIBLE_DEVICES, machines. */
  devices: PlanDevice[];
  /** Decoder layers of the model (llama.cpp's -ngl); absent: the sum of the layer shares. */
  layers?: number;
  /** Prompt tokens of a request (TGI --max-input-tokens, the transformers script's output length); absent: maxModelLen - 1. */
  promptTokens?: number;
  /** A mixture of experts (vLLM --enable-expert-parallel with tensor parallelism). */
  experts?: boolean;
  /**
   * The attention the plan priced where a flag switches flash attention (llama.cpp -fa on|off,
   * always written); absent (no engine model priced it): flash attention on the GPUs.
   */
  flashAttention?: boolean;
}

export interface ServingLaunch {
  engine: EngineName;
  /** The engine version (test/fixtures/engines/) the line is written for. */
  version: string;
  /** The shell line: environment assignments, then the program and its arguments, each quoted; '' when refused. */
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Files the command reads (TabbyAPI's config.yml, TensorRT-LLM's extra options YAML, the transformers script). */
  files: { name: string; text: string }[];
  warnings: string[];
}

type Launcher = (input: ServingLaunchInput) => ServingLaunch;

/** The launch line of each engine. */
const LAUNCHERS: Record<EngineName, Launcher> = {
  vllm: vllmLaunch,
  sglang: sglangLaunch,
  'tensorrt-llm': tensorrtLlmLaunch,
  'llama.cpp': llamaCppLaunch,
  transformers: transformersLaunch,
  tgi: tgiLaunch,
  exllamav2: exllamav2Launch,
};

/**
 * The launch line of a serving plan. A format the engine cannot load gets no command, only the
 * one-line refusal naming the engines that can (resolveEngine's; the plan refuses it first).
 */
export function servingLaunch(input: ServingLaunchInput): ServingLaunch {
  if (!(ENGINE_FORMATS[input.engine] as readonly WeightFormat[]).includes(input.weights)) {
    let why = `${input.engine} does not load ${input.weights} weights`;
    try {
      resolveEngine(input.engine, input.weights);
    } catch (e) {
      if (e instanceof UserError) why = e.message;
    }
    return { engine: input.engine, version: '', command: '', args: [], env: {}, files: [], warnings: [why] };
  }
  return LAUNCHERS[input.engine](input);
}
