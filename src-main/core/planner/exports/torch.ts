/**
 * A plan as PyTorch runs it: torchrun lines and train_pipeline.py (python/train-script.ts), which
 * builds the decoder from its config and runs the plan's layout with torch.distributed alone, on
 * torch 1.13 and later: one stage as DDP, or FSDP for ZeRO-2/3 (FULL_SHARD for ZeRO-3,
 * SHARD_GRAD_OP for ZeRO-2); several stages as the plan's GPipe or 1F1B schedule over
 * point-to-point sends, each rank building only its stage's blocks; tensor parallelism as
 * Megatron's column and row splits; ZeRO-1 as ZeroRedundancyOptimizer. Pure.
 */
import { exportLayout, exportZeroStage, torchrunCommands, type ExportInput } from './common.js';
import { planScript, TRAIN_SCRIPTS } from './python/train-script.js';

export interface TorchExport {
  commands: string[];
  /** The script every rank runs (train_pipeline.py). */
  python: string;
  /** The first layer of each stage after the first. */
  splitPoints: string[];
  warnings: string[];
}

export function exportTorchPipelining(input: ExportInput): TorchExport {
  const layout = exportLayout(input, 'torch.distributed');
  const { plan, problem } = input;
  const rename = input.moduleName ?? ((n: string) => n);
  const splitPoints = layout.stages.slice(1).map((s) => rename(s.layerNames[0] ?? ''));
  const training = problem.mode === 'training';
  const script = input.script ?? TRAIN_SCRIPTS.torch.file;
  if (!training && plan.schedule === '1f1b')
    layout.warnings.push('1F1B interleaves backward passes; inference runs the forward passes only');
  if (input.dtype === 'fp8')
    layout.warnings.push(
      'fp8: the script runs bf16; convert the model for fp8 GEMMs with torchao (float8.convert_to_float8_training) or Transformer Engine layers',
    );
  const zero = exportZeroStage(input);
  if (zero >= 2 && (layout.pp > 1 || layout.tp > 1))
    layout.warnings.push(
      `ZeRO-${zero} with ${layout.pp} pipeline stage(s) x tensor-parallel ${layout.tp} is not exported for torch: the script shards the optimizer state only (ZeRO-1, ZeroRedundancyOptimizer)`,
    );
  if (plan.optimizerOffload)
    layout.warnings.push(
      'the plan offloads the optimizer to the CPU, which the torch script does not: use the DeepSpeed export, or an offloading optimizer (torchao CPUOffloadOptimizer)',
    );
  if (plan.recompute === 'selective')
    layout.warnings.push(
      'the plan recomputes the attention cores only (selective); the script recomputes whole blocks, a little more compute than planned',
    );
  for (const note of input.model?.notes ?? []) layout.warnings.push(note);
  const commands = torchrunCommands(layout, input, script, []);
  const python = planScript('torch', input, layout, commands[0] ?? `torchrun ${script}`, { zero });
  return { commands, python, splitPoints, warnings: layout.warnings };
}
