/**
 * Plans turned into what people run: torch.distributed.pipelining (torchrun + script),
 * DeepSpeed (JSON config + PipelineModule), Megatron-LM (arguments) and llama.cpp (command).
 * Each export lists what its engine cannot express as warnings. Pure.
 */
import { exportDeepSpeed, type DeepSpeedExport } from './exports-deepspeed.js';
import { exportLlamaCpp, type LlamaCppExport, type LlamaCppOptions } from './exports-llamacpp.js';
import { exportMegatron, type MegatronExport } from './exports-megatron.js';
import { exportTorchPipelining, type TorchExport } from './exports-torch.js';
import type { ExportInput } from './exports-common.js';

export type { ExportInput, ExportLayout, ExportRank, ExportStage } from './exports-common.js';
export { exportLayout, shellQuote } from './exports-common.js';
export type { DeepSpeedConfig, DeepSpeedExport } from './exports-deepspeed.js';
export { exportDeepSpeed, partitionBalanced, partitionUniform } from './exports-deepspeed.js';
export type { LlamaCppExport, LlamaCppOptions } from './exports-llamacpp.js';
export { exportLlamaCpp } from './exports-llamacpp.js';
export type { MegatronExport } from './exports-megatron.js';
export { exportMegatron, megatronSplit } from './exports-megatron.js';
export type { TorchExport } from './exports-torch.js';
export { exportTorchPipelining } from './exports-torch.js';

export interface PlanExports {
  torch: TorchExport;
  deepspeed: DeepSpeedExport;
  megatron: MegatronExport;
  llamaCpp: LlamaCppExport;
}

/** All four exports of one plan. */
export function exportPlan(input: ExportInput, llamaCpp: LlamaCppOptions = {}): PlanExports {
  return {
    torch: exportTorchPipelining(input),
    deepspeed: exportDeepSpeed(input),
    megatron: exportMegatron(input),
    llamaCpp: exportLlamaCpp(input, llamaCpp),
  };
}
