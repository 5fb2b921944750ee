/**
 * `plan --emit DIR`: the best plan as the files people run: a Slurm batch script (a heterogeneous
 * job for mixed GPU types) with torchrun's static rendezvous, DeepSpeed's hostfile, config and
 * PipelineModule, Megatron-LM's arguments, torch's pipeline script, vLLM and llama.cpp commands
 * when serving, and the simulated step as a Chrome trace Perfetto opens. The folder must be new
 * or empty, or `force` given (then only the files emitted are replaced); each file is written
 * atomically as a new file, never through a symlink.
 */
import { checkOutputFolder, prepareOutputFolder, writeNewFileIn } from '../adapters/files/write-into-folder.js';
import { commentText, oneLine } from '../core/planner/exports/common.js';
import { FINETUNE_ACCELERATE_CONFIG, FINETUNE_SCRIPT, type FinetuneExport } from '../core/planner/exports/finetune.js';
import { chromeTrace } from '../core/planner/simulator/chrome-trace.js';
import { UserError } from '../core/errors.js';
import type { PlanResponse } from './plan-service.js';

export interface EmittedFile {
  file: string;
  what: string;
}

const sh = (lines: readonly string[]): string => `#!/bin/sh\n${lines.join('\n')}\n`;

/**
 * The files of the best plan (name, text, what it is). Names from outside are already quoted or
 * refused by the exports (core/planner/exports/common.ts); a machine label that cannot be a Slurm
 * node name refuses the whole emit, in one line, before anything is written.
 */
export function planFiles(r: PlanResponse): { name: string; text: string; what: string }[] {
  const e = r.exports;
  if (!e) throw new UserError(`no plan of ${commentText(r.workload)} fits these devices: nothing to emit`);
  if (e.slurm.refusal) throw new UserError(`plan --emit: ${e.slurm.refusal}`);
  const inference = r.problem.mode === 'inference';
  const files = [
    { name: 'job.sbatch', text: e.slurm.sbatch, what: 'Slurm batch script: sbatch job.sbatch' },
    { name: 'hostfile', text: e.slurm.hostfile, what: "DeepSpeed's hostfile (deepspeed --hostfile hostfile ...)" },
    { name: 'ds_config.json', text: e.deepspeed.configJson, what: "DeepSpeed's config" },
    {
      name: 'pipeline_module.py',
      text: e.deepspeed.pipelineModule,
      what: "DeepSpeed's PipelineModule with the plan's stages",
    },
    { name: 'train_pipeline.py', text: e.torch.python, what: 'torch.distributed.pipelining script every rank runs' },
    { name: 'torchrun.sh', text: sh(e.torch.commands), what: 'torchrun launch lines, one per machine' },
    {
      name: 'megatron-args.txt',
      text: `${e.megatron.args.join(' ')}\n`,
      what: "Megatron-LM's parallelism and batch arguments",
    },
    { name: 'megatron.sh', text: sh(e.megatron.commands), what: 'Megatron-LM launch lines' },
    ...(inference
      ? []
      : [
          {
            name: 'accelerate.yaml',
            text: e.accelerate.yaml,
            what: `accelerate config (FSDP or DeepSpeed ZeRO as the plan shards): ${e.accelerate.command}`,
          },
        ]),
    ...(inference
      ? [
          { name: 'vllm.sh', text: sh([e.vllm.command]), what: 'vLLM serve command' },
          { name: 'llama-server.sh', text: sh([e.llamaCpp.command]), what: 'llama.cpp server command' },
        ]
      : []),
    ...finetuneFiles(e.finetune),
    {
      name: 'timeline.trace.json',
      text: `${JSON.stringify(chromeTrace(r.timeline, `${r.workload}: simulated ${r.problem.mode} step`))}\n`,
      what: 'the simulated step as a Chrome trace (open it in ui.perfetto.dev or chrome://tracing)',
    },
  ];
  const warnings = [
    ...new Set([
      ...e.slurm.warnings,
      ...e.torch.warnings,
      ...e.deepspeed.warnings,
      ...e.megatron.warnings,
      ...(inference ? [] : e.accelerate.warnings),
      ...(e.finetune?.warnings ?? []),
    ]),
  ];
  const readme = [
    `pipeDejavu plan for ${commentText(r.workload)} (${r.problem.mode}, batch ${r.problem.batch})`,
    '',
    ...files.map((f) => `${f.name}: ${f.what}`),
    ...(warnings.length > 0 ? ['', 'Notes:', ...warnings.map((w) => `- ${oneLine(w)}`)] : []),
    '',
  ].join('\n');
  return [{ name: 'README.txt', text: readme, what: 'what each file is' }, ...files];
}

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

/** Every name `emitPlan` may write (inference adds the serving scripts). */
export const EMITTED_NAMES = [
  'README.txt',
  'job.sbatch',
  'hostfile',
  'ds_config.json',
  'pipeline_module.py',
  'train_pipeline.py',
  'torchrun.sh',
  'megatron-args.txt',
  'megatron.sh',
  'accelerate.yaml',
  'vllm.sh',
  'llama-server.sh',
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
