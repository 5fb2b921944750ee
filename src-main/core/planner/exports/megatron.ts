/**
 * A plan as Megatron-LM arguments: pipeline and tensor-parallel sizes (with sequence parallelism,
 * which the planner's activation memory assumes), layers, micro and global batch, precision; uneven stages with --decoder-first/last-pipeline-num-layers when only the end
 * stages differ from an even middle, else --pipeline-model-parallel-layout ("E" embedding, "t"
 * a decoder layer, "L" loss, "|" between stages). Pure.
 */
import { commentText, exportLayout, exportZeroStage, torchrunCommands, type ExportInput } from './common.js';

export interface MegatronExport {
  /** Parallelism, batch and precision arguments; the model's own (--hidden-size, --seq-length, data, optimizer) are the user's. */
  args: string[];
  commands: string[];
  /** The layout string when the split needs one. */
  layout: string | null;
  warnings: string[];
}

/** How Megatron-LM can place these per-stage decoder layer counts. */
export function megatronSplit(counts: readonly number[]): { first?: number; last?: number; layout?: string } {
  const p = counts.length;
  if (p < 2 || counts.every((c) => c === counts[0])) return {};
  const c0 = counts[0] as number;
  const cl = counts[p - 1] as number;
  const middle = p === 2 ? [cl] : counts.slice(1, -1);
  const m = middle[0] as number;
  if (counts.every((c) => c > 0) && middle.every((c) => c === m)) {
    if (p === 2) return { first: c0 };
    return { ...(c0 !== m ? { first: c0 } : {}), ...(cl !== m ? { last: cl } : {}) };
  }
  return { layout: counts.map((c, i) => `${i === 0 ? 'E' : ''}${'t'.repeat(c)}${i === p - 1 ? 'L' : ''}`).join('|') };
}

export function exportMegatron(input: ExportInput): MegatronExport {
  const layout = exportLayout(input, 'Megatron-LM');
  const warnings = layout.warnings;
  const counts = layout.stages.map((s) => s.blocks);
  const numLayers = counts.reduce((a, b) => a + b, 0);
  if (numLayers === 0)
    warnings.push('no transformer blocks (layer names ending in .<n>): Megatron-LM builds GPT-style models');
  if (input.problem.mode !== 'training') warnings.push('Megatron-LM arguments are for training (pretrain_gpt.py)');
  const types = [...new Set(layout.ranks.map((r) => commentText(r.device.name)))];
  if (types.length > 1) {
    warnings.push(
      `Megatron-LM assumes one GPU type: its split, kernels and schedule ignore that stages run on ${types.join(', ')}`,
    );
  }
  const split = megatronSplit(counts);
  const args = [
    '--tensor-model-parallel-size',
    String(layout.tp),
    '--pipeline-model-parallel-size',
    String(layout.pp),
    '--num-layers',
    String(numLayers),
    '--micro-batch-size',
    String(layout.microBatch),
    '--global-batch-size',
    String(layout.globalBatch),
  ];
  if (layout.tp > 1) args.push('--sequence-parallel');
  // Experts spread over the tensor-parallel group (MoE parallel folding): expert parallelism of the same size, experts whole.
  if (layout.tp > 1 && input.problem.layers.some((l) => l.tensor?.experts !== undefined)) {
    args.push('--expert-model-parallel-size', String(layout.tp), '--expert-tensor-parallel-size', '1');
  }
  if (split.first !== undefined) args.push('--decoder-first-pipeline-num-layers', String(split.first));
  if (split.last !== undefined) args.push('--decoder-last-pipeline-num-layers', String(split.last));
  if (split.layout !== undefined) {
    args.push('--pipeline-model-parallel-layout', split.layout);
    warnings.push(
      `stages of ${counts.join(', ')} layers differ beyond the first and last: needs --pipeline-model-parallel-layout (experimental in Megatron-LM)`,
    );
  }
  const dtype = input.dtype ?? 'bf16';
  // fp8: Transformer Engine's fp8 GEMMs (E4M3 forward, E5M2 gradients), bf16 elsewhere.
  if (dtype === 'fp8')
    args.push('--bf16', '--fp8-format', 'hybrid', '--fp8-amax-history-len', '1024', '--fp8-amax-compute-algo', 'max');
  else if (dtype !== 'fp32') args.push(`--${dtype}`);
  const zero = exportZeroStage(input);
  // Megatron's distributed optimizer shards the optimizer state over data-parallel ranks: ZeRO-1.
  if (input.plan.optimizerOffload || zero >= 1) args.push('--use-distributed-optimizer');
  if (zero >= 2)
    warnings.push(
      `the plan shards ${zero === 3 ? 'weights, gradients' : 'gradients'} and optimizer state (ZeRO-${zero}); Megatron-LM's distributed optimizer shards the optimizer state only: ` +
        `use Megatron FSDP (--use-megatron-fsdp --data-parallel-sharding-strategy ${zero === 3 ? 'optim_grads_params' : 'optim_grads'}, recent Megatron-core), or the DeepSpeed or torch export`,
    );
  if (input.plan.optimizerOffload) {
    // Megatron-core's distributed optimizer offload (recent Megatron-LM releases).
    args.push('--optimizer-cpu-offload');
    warnings.push('--optimizer-cpu-offload needs a recent Megatron-LM (Megatron-core 0.10 or later)');
  }
  // Megatron-LM's activation recomputation (Korthikanti et al.): selective recomputes the attention core, full every layer.
  if (input.plan.recompute === 'selective') args.push('--recompute-activations');
  if (input.plan.recompute === 'full')
    args.push('--recompute-granularity', 'full', '--recompute-method', 'uniform', '--recompute-num-layers', '1');
  const commands = torchrunCommands(layout, input, input.script ?? 'pretrain_gpt.py', args);
  return { args, commands, layout: split.layout ?? null, warnings };
}
