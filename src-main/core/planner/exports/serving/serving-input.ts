/**
 * What a serving plan's launch line is written from, read off the plan until the engine model
 * gives its own numbers: the stages as tensor- and pipeline-parallel degrees, replicas and GPUs in
 * rank order, the dtype and served weights the plan states, the served tokens, the plan's batch
 * as the concurrent sequences, 90% of each GPU, and the engine of `--engine` (auto for ideal).
 * ExportInput.servingLaunch overrides any of it. Pure.
 */
import { resolveEngine } from '../../../engines/engine-formats.js';
import { ENGINES, type EngineChoice } from '../../../engines/engine-names.js';
import type { WeightFormat } from '../../../workload/generation.js';
import { exportLayout, type ExportInput } from '../common.js';
import type { ServingLaunchInput } from './serving-launch.js';

/** Serving a decoder: the engine asked, the model as the user named it (outside text) and the served tokens. */
export interface ServingRequest {
  engine?: EngineChoice | undefined;
  model: string;
  prompt: number;
  tokens: number;
}

/** Fraction of each GPU the engines may take until the engine model says otherwise. */
const DEFAULT_GPU_MEMORY_UTILIZATION = 0.9;

export function servingLaunchInputOf(
  input: ExportInput,
  serving: ServingRequest,
): { launch: ServingLaunchInput; warnings: string[] } {
  const dtype = input.dtype === undefined || input.dtype === 'fp8' ? 'bf16' : input.dtype;
  const weights: WeightFormat = input.weights ?? (input.dtype === 'fp8' ? 'fp8' : dtype);
  const resolved = resolveEngine(input.servingLaunch?.engine ?? serving.engine, weights);
  const engine = resolved === 'ideal' ? resolveEngine('auto', weights) : resolved;
  if (engine === 'ideal') throw new Error('auto resolved to ideal');
  const layout = exportLayout(input, ENGINES[engine].title, false);
  // The batch split into microbatches is a training concern: engines batch on their own.
  const warnings = layout.warnings.filter((w) => !w.startsWith('batch '));
  const stageLayers = layout.stages.map((s) => s.blocks);
  const split =
    layout.pp > 1
      ? { mode: 'layer' as const, shares: stageLayers }
      : layout.tp > 1
        ? { mode: 'row' as const, shares: Array.from({ length: layout.tp }, () => 1) }
        : undefined;
  const base: ServingLaunchInput = {
    engine,
    model: serving.model,
    dtype,
    weights,
    kvCacheDtype: 'auto',
    maxModelLen: serving.prompt + serving.tokens,
    maxNumSeqs: Math.max(1, input.problem.batch),
    gpuMemoryUtilization: DEFAULT_GPU_MEMORY_UTILIZATION,
    tp: layout.tp,
    pp: layout.pp,
    replicas: layout.dp,
    ...(split ? { split } : {}),
    devices: layout.ranks.map((r) => r.device),
    layers: stageLayers.reduce((a, b) => a + b, 0),
    promptTokens: serving.prompt,
    experts: input.problem.layers.some((l) => l.tensor?.experts !== undefined),
  };
  return { launch: { ...base, ...input.servingLaunch }, warnings };
}
