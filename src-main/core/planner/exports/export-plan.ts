/**
 * Plans turned into what people run, by kind. A serving plan (an inference plan of a served
 * decoder: ExportInput.serving) exports the launch line of its engine only (serving/: vLLM,
 * SGLang, TensorRT-LLM, llama.cpp, transformers, TGI, ExLlamaV2 through TabbyAPI). A training or
 * fine-tuning plan exports the training launchers only: torch.distributed.pipelining (torchrun +
 * script), DeepSpeed (JSON config + PipelineModule), Megatron-LM (arguments), a Slurm batch script
 * with a DeepSpeed hostfile, an accelerate config (FSDP or DeepSpeed), and LoRA/QLoRA's. Each
 * export lists what its engine cannot express as warnings. Pure.
 */
import { exportAccelerate, type AccelerateExport } from './accelerate.js';
import { exportDeepSpeed, type DeepSpeedExport } from './deepspeed.js';
import { MEGATRON_SCRIPT, exportMegatron, type MegatronExport } from './megatron.js';
import { DEEPSPEED_ARGS } from './deepspeed.js';
import { TRAIN_SCRIPTS } from './python/train-script.js';
import type { StackLauncher } from '../stacks/stack-rule.js';
import { exportTorchPipelining, type TorchExport } from './torch.js';
import { exportSlurm, type SlurmExport, type SlurmOptions } from './slurm.js';
import { exportFinetune, FINETUNE_ACCELERATE_CONFIG, FINETUNE_SCRIPT, type FinetuneExport } from './finetune.js';
import { servingLaunch, type ServingLaunch } from './serving/serving-launch.js';
import { servingLaunchInputOf } from './serving/serving-input.js';
import type { ExportInput } from './common.js';

export type { ExportInput } from './common.js';

/** A training or fine-tuning plan's launchers. */
export interface TrainingExports {
  kind: 'training';
  torch: TorchExport;
  deepspeed: DeepSpeedExport;
  megatron: MegatronExport;
  slurm: SlurmExport;
  accelerate: AccelerateExport;
  /** LoRA/QLoRA fine-tuning (input.finetune): PEFT script, launch lines, axolotl config; else null. */
  finetune: FinetuneExport | null;
  /** The stack's one launcher (input.launcher), whose files alone are emitted; null: all of them. */
  launcher: StackLauncher | null;
}

/** A serving plan's launcher: its engine's launch line and the files it reads. */
export interface ServingExports {
  kind: 'serving';
  launch: ServingLaunch;
}

export type PlanExports = ServingExports | TrainingExports;

/** The exports of one plan: its engine's launch line when it serves a decoder, else the training launchers. */
export function exportPlan(input: ExportInput): PlanExports {
  if (input.serving && input.problem.mode === 'inference') {
    const { launch, warnings } = servingLaunchInputOf(input, input.serving);
    const line = servingLaunch(launch);
    return { kind: 'serving', launch: { ...line, warnings: [...new Set([...warnings, ...line.warnings])] } };
  }
  const finetune = exportFinetune(input);
  const megatron = exportMegatron(input);
  const launcher = finetune ? null : (input.launcher ?? null);
  return {
    kind: 'training',
    torch: exportTorchPipelining(input),
    deepspeed: exportDeepSpeed(input),
    megatron,
    slurm: exportSlurm(input, finetune ? finetuneSlurm(finetune) : launcher ? stackSlurm(launcher, megatron) : {}),
    accelerate: exportAccelerate(input),
    finetune,
    launcher,
  };
}

/**
 * A stack's Slurm job runs its own launcher: Megatron-LM's pretrain_gpt.py with the plan's
 * arguments (submitted from the Megatron-LM checkout), DeepSpeed's script with ds_config.json, or
 * the torch script (the default).
 */
function stackSlurm(launcher: StackLauncher, megatron: MegatronExport): SlurmOptions {
  if (launcher === 'megatron') return { script: MEGATRON_SCRIPT, args: megatron.args };
  if (launcher === 'deepspeed') return { script: TRAIN_SCRIPTS.deepspeed.file, args: DEEPSPEED_ARGS };
  return {};
}

/** A fine-tuning plan's Slurm job runs train_lora.py as launch_lora.sh does. */
function finetuneSlurm(f: FinetuneExport): SlurmOptions {
  const launcher: SlurmOptions['launcher'] =
    f.launcher === 'accelerate'
      ? { kind: 'accelerate', config: FINETUNE_ACCELERATE_CONFIG }
      : f.launcher === 'torchrun'
        ? { kind: 'torchrun' }
        : { kind: 'python' };
  return { script: FINETUNE_SCRIPT, launcher };
}
