/**
 * A plan as DeepSpeed runs it: the JSON config (batch sizes, gradient accumulation = the
 * microbatches a pipeline step runs, ZeRO stage, precision) and the PipelineModule line. The
 * partition is 'uniform' or 'parameters' when DeepSpeed's own algorithm (ds_utils
 * partition_uniform / partition_balanced, reproduced here) gives the plan's boundaries, else a
 * subclass that sets them. Pure.
 */
import {
  commentText,
  exportLayout,
  exportZeroStage,
  torchrunCommands,
  type ExportInput,
  type ExportLayout,
} from './common.js';
import type { PlanLayer } from '../types.js';
import { planScript, TRAIN_SCRIPTS } from './python/train-script.js';

export interface DeepSpeedConfig {
  train_batch_size: number;
  train_micro_batch_size_per_gpu: number;
  gradient_accumulation_steps: number;
  zero_optimization: { stage: 0 | 1 | 2 | 3; offload_optimizer?: { device: 'cpu'; pin_memory: boolean } };
  /**
   * AdamW: DeepSpeed's FusedAdam (adam_w_mode) on the GPUs, DeepSpeedCPUAdam offloaded; no
   * gradient_clipping (0), as deepspeed-stack.ts prices the step.
   */
  optimizer: { type: 'AdamW'; params: { lr: number; betas: [number, number]; weight_decay: number } };
  bf16?: { enabled: true };
  fp16?: { enabled: true };
  /** With recomputation: the model's layers are wrapped in deepspeed.checkpointing.checkpoint. */
  activation_checkpointing?: {
    partition_activations: false;
    contiguous_memory_optimization: false;
    number_checkpoints: number;
  };
  steps_per_print: number;
}

export interface DeepSpeedExport {
  config: DeepSpeedConfig;
  configJson: string;
  partition: { method: 'uniform' | 'parameters' | 'custom'; parts: number[] };
  /** Python: the import and the PipelineModule construction (`layers`, `loss_fn` as train_deepspeed.py defines them). */
  pipelineModule: string;
  /** train_deepspeed.py: the decoder as pipeline layers (or whole), deepspeed.initialize with ds_config.json. */
  script: string;
  commands: string[];
  warnings: string[];
}

/** deepspeed.runtime.utils.partition_uniform: the first (n mod p) parts get one more item. */
export function partitionUniform(numItems: number, numParts: number): number[] {
  if (numItems <= numParts) return Array.from({ length: numParts + 1 }, (_, p) => Math.min(p, numItems));
  const chunk = Math.floor(numItems / numParts);
  const residual = numItems - chunk * numParts;
  return Array.from({ length: numParts + 1 }, (_, p) => p * chunk + Math.min(p, residual));
}

/** deepspeed.runtime.utils.partition_balanced: the DP minimising (heaviest − lightest part), ties to the later cut. */
export function partitionBalanced(weights: readonly number[], numParts: number): number[] {
  const n = weights.length;
  const m = numParts;
  if (n <= m) return partitionUniform(n, m);
  const grid = (): number[][] => Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(Infinity));
  const [dpMax, dpMin, dpCost] = [grid(), grid(), grid()];
  const position = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  const prefix = [0];
  weights.forEach((w, i) => prefix.push((prefix[i] as number) + w));
  (dpMax[0] as number[])[0] = 0;
  (dpCost[0] as number[])[0] = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= Math.min(i, m); j++) {
      for (let k = 0; k < i; k++) {
        const seg = (prefix[i] as number) - (prefix[k] as number);
        const maxSum = Math.max((dpMax[k] as number[])[j - 1] as number, seg);
        const minSum = Math.min((dpMin[k] as number[])[j - 1] as number, seg);
        const cost = maxSum - minSum;
        const row = dpCost[i] as number[];
        if ((row[j] as number) >= cost) {
          row[j] = cost;
          (dpMax[i] as number[])[j] = maxSum;
          (dpMin[i] as number[])[j] = minSum;
          (position[i] as number[])[j] = k;
        }
      }
    }
  }
  const parts = [n];
  for (let i = m; i >= 1; i--) parts.push((position[parts[parts.length - 1] as number] as number[])[i] as number);
  return parts.reverse();
}

const same = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** The DeepSpeed script's arguments: the config beside it. */
export const DEEPSPEED_ARGS: readonly string[] = ['--deepspeed_config', 'ds_config.json'];

export function exportDeepSpeed(input: ExportInput): DeepSpeedExport {
  const layout = exportLayout(input, 'DeepSpeed');
  const { problem, plan } = input;
  const warnings = layout.warnings;
  const offload = plan.optimizerOffload === true && problem.mode === 'training';
  const zero = zeroStage(exportZeroStage(input), layout.pp, offload, warnings);
  if (problem.mode === 'inference') {
    warnings.push('DeepSpeed PipelineModule export targets training; run inference with engine.eval_batch()');
  }
  const config = deepSpeedConfig(layout, zero, offload, input.dtype ?? 'bf16');
  if (input.dtype === 'fp8')
    warnings.push(
      'fp8: DeepSpeed runs bf16; the fp8 GEMMs need Transformer Engine layers in the model (te.Linear under te.fp8_autocast)',
    );
  if (plan.recompute && problem.mode === 'training') {
    config.activation_checkpointing = {
      partition_activations: false,
      contiguous_memory_optimization: false,
      number_checkpoints: problem.layers.length,
    };
    if (plan.recompute === 'selective')
      warnings.push(
        'DeepSpeed checkpoints whole layers: the plan recomputes only attention cores (selective); the exported config recomputes more',
      );
  }
  const parts = [0, ...plan.stages.map((s) => s.to)];
  const method = partitionMethod(parts, problem.layers, layout.pp);
  const pipelineModule = pipelineModuleSource(method, parts, problem.layers, layout, warnings);
  const commands = torchrunCommands(layout, input, input.script ?? TRAIN_SCRIPTS.deepspeed.file, DEEPSPEED_ARGS);
  const script = planScript('deepspeed', input, layout, commands[0] ?? TRAIN_SCRIPTS.deepspeed.file, {
    zero,
    extra: pipelineFunction(pipelineModule, problem.layers.length, layout, warnings),
  });
  return {
    config,
    configJson: `${JSON.stringify(config, null, 2)}\n`,
    partition: { method, parts },
    pipelineModule,
    script,
    commands,
    warnings,
  };
}

/** The plan's ZeRO stage as DeepSpeed can run it (0 or 1 under pipelining, 1 or more to offload), with why it changed. */
function zeroStage(stage: 0 | 1 | 2 | 3, pp: number, offload: boolean, warnings: string[]): 0 | 1 | 2 | 3 {
  let zero = stage;
  if (pp > 1 && zero > 1) {
    warnings.push(
      `DeepSpeed pipeline parallelism supports ZeRO stage 0 or 1 only; the plan's stage ${zero} is exported as 1`,
    );
    zero = 1;
  }
  if (offload && zero === 0) {
    warnings.push('DeepSpeed offloads the optimizer from ZeRO stage 1 on: the plan is exported with stage 1');
    zero = 1;
  }
  return zero;
}

function deepSpeedConfig(
  layout: ExportLayout,
  zero: 0 | 1 | 2 | 3,
  offload: boolean,
  dtype: NonNullable<ExportInput['dtype']>,
): DeepSpeedConfig {
  return {
    train_batch_size: layout.globalBatch,
    train_micro_batch_size_per_gpu: layout.microBatch,
    gradient_accumulation_steps: layout.microbatches,
    zero_optimization: {
      stage: zero,
      ...(offload ? { offload_optimizer: { device: 'cpu' as const, pin_memory: true } } : {}),
    },
    optimizer: { type: 'AdamW', params: { lr: 3e-4, betas: [0.9, 0.95], weight_decay: 0.1 } },
    ...(dtype === 'bf16' || dtype === 'fp8' ? { bf16: { enabled: true as const } } : {}),
    ...(dtype === 'fp16' ? { fp16: { enabled: true as const } } : {}),
    steps_per_print: 10,
  };
}

/** DeepSpeed's own partition method that gives these boundaries, else 'custom'. */
function partitionMethod(
  parts: readonly number[],
  layers: readonly PlanLayer[],
  pp: number,
): DeepSpeedExport['partition']['method'] {
  if (same(parts, partitionUniform(layers.length, pp))) return 'uniform';
  const byParams = partitionBalanced(
    layers.map((l) => l.params),
    pp,
  );
  if (same(parts, byParams)) return 'parameters';
  return 'custom';
}

/** Python building the PipelineModule: with DeepSpeed's method, or a subclass that sets the boundaries. */
function pipelineModuleSource(
  method: DeepSpeedExport['partition']['method'],
  parts: readonly number[],
  layers: readonly PlanLayer[],
  layout: ExportLayout,
  warnings: string[],
): string {
  const n = layers.length;
  const { pp, tp, dp } = layout;
  // With tensor parallelism the topology's model axis (innermost, as in the plan's rank order) holds the TP group.
  const stagesArg =
    tp > 1 ? `topology=PipeModelDataParallelTopology(num_pp=${pp}, num_mp=${tp}, num_dp=${dp})` : `num_stages=${pp}`;
  if (tp > 1) {
    warnings.push(
      `the plan splits layers tensor-parallel (${tp} GPUs): DeepSpeed's pipeline gives them a model-parallel axis, ` +
        "the split itself comes from Megatron-DeepSpeed's ColumnParallelLinear/RowParallelLinear layers (see the Megatron export)",
    );
  }
  const head =
    tp > 1
      ? 'from deepspeed.pipe import PipelineModule\nfrom deepspeed.runtime.pipe.topology import PipeModelDataParallelTopology'
      : 'from deepspeed.pipe import PipelineModule';
  const layersNote = `# layers: your model as ${n} layer specs, in the plan's order (${commentText(layers[0]?.name ?? '')} ... ${commentText(layers[n - 1]?.name ?? '')})`;
  if (method !== 'custom') {
    const source = [
      head,
      '',
      layersNote,
      `model = PipelineModule(layers=layers, ${stagesArg}, partition_method=${JSON.stringify(method)}, loss_fn=loss_fn)`,
      '',
    ].join('\n');
    if (method === 'parameters')
      warnings.push(
        "partition_method='parameters' matches the plan if your layer specs hold the plan's parameter counts",
      );
    return source;
  }
  warnings.push(
    'DeepSpeed has no public option for explicit stage boundaries: the export overrides PipelineModule._partition_layers (private API)',
  );
  return [
    head,
    '',
    '',
    'class PlannedPipelineModule(PipelineModule):',
    '    """Stage boundaries from the pipeDejavu plan: layers[PARTS[s]:PARTS[s + 1]] on stage s."""',
    '',
    `    PARTS = [${parts.join(', ')}]`,
    '',
    '    def _partition_layers(self, method="uniform"):',
    '        self.parts = list(self.PARTS)',
    '        stage_id = self._topo.get_coord(self.global_rank).pipe',
    '        self._set_bounds(start=self.parts[stage_id], stop=self.parts[stage_id + 1])',
    '',
    '',
    layersNote,
    `model = PlannedPipelineModule(layers=layers, ${stagesArg}, loss_fn=loss_fn)`,
    '',
  ].join('\n');
}

/**
 * pipeline_module(layers) for train_deepspeed.py: the PipelineModule source above inside a function,
 * when the plan's layers are the script's (embedding, blocks, head); else DeepSpeed's own split
 * by parameters, with a warning.
 */
function pipelineFunction(source: string, planLayers: number, layout: ExportLayout, warnings: string[]): string[] {
  const blocks = layout.stages.reduce((n, s) => n + s.blocks, 0);
  const same = planLayers === blocks + 2;
  const body = same
    ? source
    : [
        'from deepspeed.pipe import PipelineModule',
        '',
        `model = PipelineModule(layers=layers, num_stages=${layout.pp}, partition_method="parameters", loss_fn=loss_fn)`,
      ].join('\n');
  if (!same && layout.pp > 1)
    warnings.push(
      `the plan splits ${planLayers} layers, the script's pipeline has ${blocks + 2} (embedding, ${blocks} blocks, head): DeepSpeed splits them by parameters`,
    );
  return [
    '',
    '',
    'def pipeline_module(layers):',
    `    """The plan's pipeline stages over the script's layers (embedding, blocks, head)."""`,
    ...body
      .trim()
      .split('\n')
      .map((l) => (l === '' ? '' : `    ${l}`)),
    '    return model',
  ];
}
