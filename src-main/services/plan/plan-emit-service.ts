/**
 * `plan --emit DIR`: the best plan as the files people run. A serving plan: serve.sh with its
 * engine's launch line and the files that line reads (TabbyAPI's config.yml, TensorRT-LLM's extra
 * options YAML, the transformers script). A training plan: a Slurm batch script (a heterogeneous
 * job for mixed GPU types) with torchrun's static rendezvous, DeepSpeed's hostfile, config and
 * PipelineModule and training script, Megatron-LM's arguments, torch's training script, accelerate's and LoRA's files.
 * Both: a README and the simulated step as a Chrome trace Perfetto opens. The folder must be new
 * or empty, or `force` given (then only the files emitted are replaced); each file is written
 * atomically as a new file, never through a symlink.
 */
import type { StackLauncher } from '../../core/planner/stacks/stack-rule.js';
import { checkOutputFolder, prepareOutputFolder, writeNewFileIn } from '../../adapters/files/write-into-folder.js';
import { commentText, oneLine } from '../../core/planner/exports/common.js';
import {
  FINETUNE_ACCELERATE_CONFIG,
  FINETUNE_SCRIPT,
  type FinetuneExport,
} from '../../core/planner/exports/finetune.js';
import type { ServingExports, TrainingExports } from '../../core/planner/exports/export-plan.js';
import { TABBY_CONFIG } from '../../core/planner/exports/serving/exllamav2-launch.js';
import { TRTLLM_EXTRA_OPTIONS } from '../../core/planner/exports/serving/tensorrt-llm-launch.js';
import { TRANSFORMERS_SCRIPT } from '../../core/planner/exports/serving/transformers-launch.js';
import { ENGINES } from '../../core/engines/engine-names.js';
import { TRAIN_SCRIPTS } from '../../core/planner/exports/python/train-script.js';
import { chromeTrace } from '../../core/planner/simulator/chrome-trace.js';
import { UserError } from '../../core/errors.js';
import type { PlanResponse } from './plan-service.js';

export interface EmittedFile {
  file: string;
  what: string;
}

/** The simulated step of what the files launch: the layout's when the request gave one. */
function launched(r: PlanResponse): PlanResponse['timeline'] {
  return r.exportsOf === 'layout' ? (r.layout?.timeline ?? []) : r.timeline;
}

/** megatron.sh runs Megatron-LM's own pretrain_gpt.py, from its checkout. */
const MEGATRON_CD = 'cd "${MEGATRON_LM:?set MEGATRON_LM to your Megatron-LM checkout}"';

const sh = (lines: readonly string[]): string => `#!/bin/sh\n${lines.join('\n')}\n`;

/**
 * The files of the best plan (name, text, what it is): its kind's launchers, the README and the
 * trace. Names from outside are already quoted or refused by the exports
 * (core/planner/exports/common.ts).
 */
export function planFiles(r: PlanResponse): { name: string; text: string; what: string }[] {
  const e = r.exports;
  if (!e && r.exportsOf === 'layout' && r.layout) {
    const why = r.layout.reasons[0] ?? 'it does not fit';
    throw new UserError(
      `the layout ${r.layout.text} does not fit (${oneLine(why)}): nothing to emit; drop --layout to emit the recommended plan`,
    );
  }
  if (!e) throw new UserError(`no plan of ${commentText(r.workload)} fits these devices: nothing to emit`);
  const { files, warnings } = e.kind === 'serving' ? servingFiles(e) : trainingFiles(e, r.problem.mode === 'inference');
  const trace = {
    name: 'timeline.trace.json',
    text: `${JSON.stringify(chromeTrace(launched(r), `${r.workload}: simulated ${r.problem.mode} step`))}\n`,
    what: 'the simulated step as a Chrome trace (open it in ui.perfetto.dev or chrome://tracing)',
  };
  const all = [...files, trace];
  const readme = [
    `pipeDejavu plan for ${commentText(r.workload)} (${r.problem.mode}, batch ${r.problem.batch})`,
    ...(r.exportsOf === 'layout' && r.layout ? [`These files launch the layout you gave: ${r.layout.text}.`] : []),
    '',
    ...all.map((f) => `${f.name}: ${f.what}`),
    ...(warnings.length > 0 ? ['', 'Notes:', ...warnings.map((w) => `- ${oneLine(w)}`)] : []),
    '',
  ].join('\n');
  return [{ name: 'README.txt', text: readme, what: 'what each file is' }, ...all];
}

type Emitted = { files: { name: string; text: string; what: string }[]; warnings: string[] };

/** What each file a launch line reads is, by its name. */
const SERVING_FILE_WHAT: Record<string, string> = {
  [TABBY_CONFIG]: "TabbyAPI's config (ExLlamaV2): copy it into the TabbyAPI folder serve.sh runs in",
  [TRTLLM_EXTRA_OPTIONS]: "trtllm-serve's extra LLM API options (settings with no flag of their own)",
  [TRANSFORMERS_SCRIPT]: 'the transformers script serve.sh runs: loads the model and generates',
};

/** A serving plan: its engine's launch line and the files it reads. */
function servingFiles(e: ServingExports): Emitted {
  const { launch } = e;
  if (!launch.command) throw new UserError(`plan --emit: ${launch.warnings[0] ?? 'no launch line for this engine'}`);
  return {
    files: [
      {
        name: 'serve.sh',
        text: sh([launch.command]),
        what: `${ENGINES[launch.engine].title} launch line (${launch.version})`,
      },
      ...launch.files.map((f) => ({ ...f, what: SERVING_FILE_WHAT[f.name] ?? 'a file serve.sh reads' })),
    ],
    warnings: launch.warnings,
  };
}

/**
 * A training or fine-tuning plan's launchers. A machine label that cannot be a Slurm node name
 * refuses the whole emit, in one line, before anything is written.
 */
function trainingFiles(e: TrainingExports, inference: boolean): Emitted {
  if (e.slurm.refusal) throw new UserError(`plan --emit: ${e.slurm.refusal}`);
  const files = [
    { name: 'job.sbatch', text: e.slurm.sbatch, what: 'Slurm batch script: sbatch job.sbatch' },
    { name: 'hostfile', text: e.slurm.hostfile, what: "DeepSpeed's hostfile (deepspeed --hostfile hostfile ...)" },
    { name: 'ds_config.json', text: e.deepspeed.configJson, what: "DeepSpeed's config" },
    {
      name: 'pipeline_module.py',
      text: e.deepspeed.pipelineModule,
      what: "DeepSpeed's PipelineModule with the plan's stages",
    },
    {
      name: TRAIN_SCRIPTS.torch.file,
      text: e.torch.python,
      what: "torch training script every rank runs (the model from its config; DDP, FSDP or the plan's pipeline)",
    },
    {
      name: TRAIN_SCRIPTS.deepspeed.file,
      text: e.deepspeed.script,
      what: "DeepSpeed training script (the model from its config, ds_config.json, the plan's PipelineModule)",
    },
    { name: 'torchrun.sh', text: sh(e.torch.commands), what: 'torchrun launch lines, one per machine' },
    { name: 'deepspeed.sh', text: sh(e.deepspeed.commands), what: 'DeepSpeed launch lines, one per machine' },
    {
      name: 'megatron-args.txt',
      text: `${e.megatron.args.join(' ')}\n`,
      what: "Megatron-LM's parallelism and batch arguments",
    },
    {
      name: 'megatron.sh',
      text: sh([MEGATRON_CD, ...e.megatron.commands]),
      what: 'Megatron-LM launch lines (run from your Megatron-LM checkout, MEGATRON_LM)',
    },
    ...(inference
      ? []
      : [
          {
            name: 'accelerate.yaml',
            text: e.accelerate.yaml,
            what: `accelerate config (FSDP or DeepSpeed ZeRO as the plan shards): ${e.accelerate.command}`,
          },
          {
            name: TRAIN_SCRIPTS.accelerate.file,
            text: e.accelerate.script,
            what: 'accelerate training script accelerate.yaml runs (the model from its config)',
          },
        ]),
    ...finetuneFiles(e.finetune),
  ];
  const launcher = e.launcher;
  const warnings = [
    ...new Set([
      ...e.slurm.warnings,
      ...(launcher === null || launcher === 'torch' ? e.torch.warnings : []),
      ...(launcher === null || launcher === 'deepspeed' ? e.deepspeed.warnings : []),
      ...(launcher === null || launcher === 'megatron' ? e.megatron.warnings : []),
      ...(inference || launcher !== null ? [] : e.accelerate.warnings),
      ...(launcher === 'megatron' ? ['job.sbatch runs pretrain_gpt.py: submit it from your Megatron-LM checkout'] : []),
      ...(e.finetune?.warnings ?? []),
    ]),
  ];
  return { files: launcher ? files.filter((f) => LAUNCHER_FILES[launcher].includes(f.name)) : files, warnings };
}

/** The files a stack's launcher needs (plan --stack): the others are not written. */
const LAUNCHER_FILES: Record<StackLauncher, readonly string[]> = {
  megatron: ['job.sbatch', 'megatron-args.txt', 'megatron.sh'],
  torch: ['job.sbatch', TRAIN_SCRIPTS.torch.file, 'torchrun.sh'],
  deepspeed: [
    'job.sbatch',
    'hostfile',
    'ds_config.json',
    'pipeline_module.py',
    TRAIN_SCRIPTS.deepspeed.file,
    'deepspeed.sh',
  ],
};

/** LoRA/QLoRA plans: the PEFT script, its launch lines, an axolotl config, and accelerate's when the plan shards. */
const FINETUNE_NAMES = [FINETUNE_SCRIPT, 'launch_lora.sh', 'axolotl.yaml', FINETUNE_ACCELERATE_CONFIG] as const;

function finetuneFiles(f: FinetuneExport | null): { name: string; text: string; what: string }[] {
  if (!f) return [];
  return [
    {
      name: FINETUNE_SCRIPT,
      text: f.peftConfig,
      what: "PEFT LoRA/QLoRA training script (transformers Trainer) with the plan's batch split",
    },
    { name: 'launch_lora.sh', text: sh(f.launch), what: `its launch lines, one per machine: ${f.launch[0] ?? ''}` },
    ...(f.accelerateYaml
      ? [
          {
            name: FINETUNE_ACCELERATE_CONFIG,
            text: f.accelerateYaml,
            what: 'accelerate config launch_lora.sh names (FSDP over the frozen base, or DeepSpeed ZeRO)',
          },
        ]
      : []),
    { name: 'axolotl.yaml', text: f.axolotlYaml, what: 'axolotl config: axolotl train axolotl.yaml' },
  ];
}

export interface EmitOptions {
  /** Replace the files it emits in a folder that holds other things. */
  force?: boolean;
  /** Files never written (the database). */
  protect?: readonly string[];
}

/** Every name `emitPlan` may write: a serving plan's or a training plan's. */
export const EMITTED_NAMES = [
  'README.txt',
  'serve.sh',
  TABBY_CONFIG,
  TRTLLM_EXTRA_OPTIONS,
  TRANSFORMERS_SCRIPT,
  'job.sbatch',
  'hostfile',
  'ds_config.json',
  'pipeline_module.py',
  TRAIN_SCRIPTS.torch.file,
  TRAIN_SCRIPTS.deepspeed.file,
  TRAIN_SCRIPTS.accelerate.file,
  'torchrun.sh',
  'deepspeed.sh',
  'megatron-args.txt',
  'megatron.sh',
  'accelerate.yaml',
  'timeline.trace.json',
  ...FINETUNE_NAMES,
] as const;

const WHAT = 'plan --emit';

/**
 * Checks the output folder before a plan is searched: new, empty, or `force`. Throws a UserError
 * with one line.
 */
export function checkEmitFolder(dir: string, options: EmitOptions = {}): void {
  checkOutputFolder(dir, EMITTED_NAMES, { what: WHAT, ...options });
}

export function emitPlan(dir: string, r: PlanResponse, options: EmitOptions = {}): EmittedFile[] {
  const files = planFiles(r);
  prepareOutputFolder(
    dir,
    files.map((f) => f.name),
    { what: WHAT, ...options },
  );
  return files.map((f) => ({ file: writeNewFileIn(dir, f.name, f.text, WHAT), what: f.what }));
}
