/**
 * Plans turned into what people run: torch.distributed.pipelining (torchrun + script),
 * DeepSpeed (JSON config + PipelineModule), Megatron-LM (arguments), vLLM and llama.cpp (commands),
 * a Slurm batch script with a DeepSpeed hostfile, and an accelerate config (FSDP or DeepSpeed).
 * Each export lists what its engine cannot express as warnings. Pure.
 */
import { exportAccelerate, type AccelerateExport } from './accelerate.js';
import { exportDeepSpeed, type DeepSpeedExport } from './deepspeed.js';
import { exportLlamaCpp, type LlamaCppExport, type LlamaCppOptions } from './llamacpp.js';
import { exportMegatron, type MegatronExport } from './megatron.js';
import { exportTorchPipelining, type TorchExport } from './torch.js';
import { exportVllm, type VllmExport, type VllmOptions } from './vllm.js';
import { exportSlurm, type SlurmExport } from './slurm.js';
import { exportFinetune, type FinetuneExport } from './finetune.js';
import type { ExportInput } from './common.js';

export type { ExportInput } from './common.js';

export interface PlanExports {
  torch: TorchExport;
  deepspeed: DeepSpeedExport;
  megatron: MegatronExport;
  llamaCpp: LlamaCppExport;
  vllm: VllmExport;
  slurm: SlurmExport;
  accelerate: AccelerateExport;
  /** LoRA/QLoRA fine-tuning (input.finetune): PEFT script, launch lines, axolotl config; else null. */
  finetune: FinetuneExport | null;
}

/** All the exports of one plan (fine-tuning's only for a fine-tuning plan). */
export function exportPlan(input: ExportInput, llamaCpp: LlamaCppOptions = {}, vllm: VllmOptions = {}): PlanExports {
  return {
    torch: exportTorchPipelining(input),
    deepspeed: exportDeepSpeed(input),
    megatron: exportMegatron(input),
    llamaCpp: exportLlamaCpp(input, llamaCpp),
    vllm: exportVllm(input, vllm),
    slurm: exportSlurm(input),
    accelerate: exportAccelerate(input),
    finetune: exportFinetune(input),
  };
}
