/**
 * The training stacks' rules by name, and what a request restricted to one may search: its ZeRO
 * stages, recomputations, tensor degrees, pipelines and optimizer offload, each refused with the
 * stack's reason when asked for outside it. Without a stack the search runs every layout any of the
 * four runs (NO_STACK). Pure.
 */
import { UserError } from '../../errors.js';
import type { Layout } from '../layout.js';
import type { PlanProblem, Recompute } from '../types.js';
import { DEEPSPEED_STACK } from './deepspeed-stack.js';
import { FSDP_STACK } from './fsdp-stack.js';
import { MEGATRON_STACK } from './megatron-stack.js';
import type { TrainingStack } from './stack-names.js';
import type { OptimizerStepRule, StackRule, ZeroStage } from './stack-rule.js';
import { TORCHTITAN_STACK } from './torchtitan-stack.js';

export const TRAINING_STACK_RULES: Record<TrainingStack, StackRule> = {
  megatron: MEGATRON_STACK,
  torchtitan: TORCHTITAN_STACK,
  fsdp: FSDP_STACK,
  deepspeed: DEEPSPEED_STACK,
};

/**
 * The optimizer step a plan without --stack prices: what its job.sbatch runs (train_pipeline.py,
 * exports/python/torch-py.ts), counted in fp32 elements as fsdp-stack.ts counts torch's:
 * torch.optim.AdamW at its defaults (foreach on CUDA, torch 2.x _multi_tensor_adamw: mul_ 8, lerp_ 12,
 * mul_ 8, addcmul_ 12, sqrt 8, div_ 8, add_ 8, addcdiv_ 16), no gradient clipping. Beside it, over the
 * gradients of the whole shard: with pipeline or tensor parallelism finish_step divides them
 * (g /= dp x scale: 8) and checks them for overflow (ATen's isfinite, (g == g) * (g.abs() != inf): 5 +
 * 8 + 5 + 3 over bool tensors, then ~ 2 and .any() 1: 24); without, fp16's GradScaler unscales them
 * (_amp_foreach_non_finite_check_and_unscale_, in place: 8).
 */
export const NO_STACK_OPTIMIZER_STEP: OptimizerStepRule = {
  bytesPerParam: 80,
  gradientPass: { split: 32, fp16: 8 },
  how: "train_pipeline.py's torch.optim.AdamW (foreach, torch 2.x _multi_tensor_adamw: eight passes over fp32 state, 80 bytes a parameter), no gradient clipping; with pipeline or tensor parallelism its finish_step divides the gradients and checks them for overflow (32 bytes a parameter of the shard), in fp16 without them GradScaler unscales them (8)",
};

/** What a plan without --stack assumes: the union of the four, priced as today's torch DDP buckets. */
export const NO_STACK = {
  title: 'any stack',
  assumes: `every layout Megatron-LM, torchtitan, FSDP or DeepSpeed runs; gradients in torch DDP's 25 MB buckets overlapped with the backward pass, ZeRO-3 gathers prefetched, tensor-parallel collectives not overlapped; optimizer step on the GPUs: ${NO_STACK_OPTIMIZER_STEP.bytesPerParam} bytes of memory traffic a parameter of a GPU's share, as job.sbatch's train_pipeline.py runs it (torch.optim.AdamW, no gradient clipping; ${NO_STACK_OPTIMIZER_STEP.gradientPass?.split ?? 0} more a parameter of its shard with pipeline or tensor parallelism, ${NO_STACK_OPTIMIZER_STEP.gradientPass?.fp16 ?? 0} in fp16 without); exports for every tool`,
} as const;

/** One line of what a stack runs and assumes, as the plan states it. */
export function stackAssumes(rule: StackRule): string {
  const stages = (Object.keys(rule.sharding) as `${ZeroStage}`[]).map((z) => `ZeRO-${z}`).join('/');
  const axes = [rule.tensorParallel ? 'TP' : null, rule.pipelineParallel ? 'PP' : null, 'DP'].filter(Boolean);
  return [
    `${axes.join('+')} at ${stages}`,
    `recompute ${['none', ...rule.recompute].join('/')}`,
    rule.gradientSync.overlapped
      ? 'gradient reduction overlapped in buckets'
      : 'gradient reduction after the backward pass',
    `optimizer step on the GPUs: ${rule.optimizerStep.bytesPerParam} bytes of memory traffic a parameter of a GPU's share`,
    rule.tensorOverlap
      ? `tensor-parallel collectives overlapped with their GEMMs (${rule.tensorOverlap.flag}, compute capability ${rule.tensorOverlap.minComputeMajor}.0 and later)`
      : 'tensor-parallel collectives not overlapped',
    rule.attention.fused === 'flash-attention-2'
      ? 'attention by FlashAttention-2 (slower than cuDNN and FlashAttention-3 on Hopper)'
      : "attention by the GPU's newest fused kernel (cuDNN, FlashAttention-3 on Hopper)",
    ...(rule.gatherStream.priority === 'default'
      ? [
          'ZeRO-3 gathers and reduce-scatters not hidden on Hopper and later (default-priority streams wait for its GEMMs)',
        ]
      : []),
  ].join('; ');
}

const refuse = (rule: StackRule, what: string): never => {
  throw new UserError(`--stack ${rule.name}: ${rule.title} does not run ${what}`);
};

/** The problem's gradient synchronization under the stack (PlanProblem.gradientSync). */
export function gradientSyncOf(rule: StackRule): NonNullable<PlanProblem['gradientSync']> {
  const { overlapped, bucketBytes, bucketBytesPerReplica } = rule.gradientSync;
  return { overlapped, bucketBytes, bucketBytesPerReplica };
}

/** The ZeRO stages to search: the asked one (refused outside the stack), or every stage the stack runs. */
export function stackZeroStages(rule: StackRule, asked: ZeroStage | undefined): ZeroStage[] {
  const stages = (Object.keys(rule.sharding) as `${ZeroStage}`[]).map((z) => Number(z) as ZeroStage);
  if (asked === undefined) return stages;
  return stages.includes(asked)
    ? [asked]
    : refuse(rule, `ZeRO-${asked} (it runs ${stages.map((z) => `ZeRO-${z}`).join(', ')})`);
}

/** The recomputations to search: the asked one, or 'auto' as the stack offers (none and its own). */
export function stackRecompute(rule: StackRule, asked: 'auto' | 'none' | Recompute): 'none' | readonly Recompute[] {
  if (asked === 'none') return 'none';
  if (asked === 'auto') return rule.recompute;
  return rule.recompute.includes(asked) ? [asked] : refuse(rule, `${asked} recomputation`);
}

/** The tensor degrees to search: the asked ones, [1] when the stack does not split layers. */
export function stackTensorDegrees(rule: StackRule, asked: readonly number[] | undefined): number[] | undefined {
  if (rule.tensorParallel) return asked ? [...asked] : undefined;
  if (asked && asked.some((t) => t > 1)) refuse(rule, 'tensor parallelism');
  return [1];
}

/** The optimizer offload to search: 'no' when the stack has none (refusing 'yes'). */
export function stackOffload(rule: StackRule, asked: 'auto' | 'yes' | 'no'): 'auto' | 'yes' | 'no' {
  if (rule.optimizerOffload) return asked;
  if (asked === 'yes') refuse(rule, 'optimizer offload to the CPU');
  return 'no';
}

/** Why a --layout is outside what the stack runs, or null. */
export function stackLayoutRefusal(rule: StackRule, layout: Layout): string | null {
  const no = (what: string) => `--stack ${rule.name}: ${rule.title} does not run ${what}`;
  if (layout.tp > 1 && !rule.tensorParallel) return no('tensor parallelism');
  if (layout.pp > 1 && !rule.pipelineParallel) return no('pipeline parallelism');
  if ((layout.vp ?? 1) > 1 && !rule.interleaved) return no('interleaved 1F1B');
  if (layout.zero !== undefined && rule.sharding[layout.zero] === undefined) return no(`ZeRO-${layout.zero}`);
  if (layout.pp > 1 && layout.zero !== undefined && !rule.pipelineZeroStages.includes(layout.zero))
    return no(`ZeRO-${layout.zero} with a pipeline`);
  if (layout.recompute !== undefined && layout.recompute !== 'none' && !rule.recompute.includes(layout.recompute))
    return no(`${layout.recompute} recomputation`);
  return null;
}
