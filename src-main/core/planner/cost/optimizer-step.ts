/**
 * The optimizer step on the GPUs (training without optimizer offload): a memory-bound pass over
 * each device's share of the fp32 optimizer state, once per step, after the last microbatch's
 * gradients are reduced. The bytes it moves per parameter are the stack's (stacks/*:
 * optimizerStep, counted from its optimizer's kernels), or without a stack its export's
 * (stacks.ts NO_STACK_OPTIMIZER_STEP, with the passes that script makes over the gradients);
 * the rate is each device's achieved memory bandwidth. Pure.
 */
import type { PlanProblem } from '../types.js';

/** A stage's parameters on one device: its tensor-parallel shard (`whole`) and its ZeRO share of it. */
export interface StepShares {
  whole: number;
  share: number;
  zeroStage: number;
  /** The layout splits the model (pipeline or tensor parallelism). */
  split: boolean;
}

/**
 * The bytes one device's step moves: the optimizer over its share from ZeRO-1 on (DDP steps the
 * whole state on every replica), and the gradient passes over the whole shard, or under FSDP
 * (ZeRO-2/3 without a split) over its flat share.
 */
export function optimizerStepBytes(step: NonNullable<PlanProblem['optimizerStep']>, s: StepShares): number {
  const optimizer = (s.zeroStage > 0 ? s.share : s.whole) * step.bytesPerParam;
  const pass = step.gradientPass;
  if (!pass) return optimizer;
  if (s.split) return optimizer + pass.split * s.whole;
  return optimizer + pass.unsplit * (s.zeroStage >= 2 ? s.share : s.whole);
}

/**
 * The slowest device's step (µs): bytes / achieved bandwidth. Devices without a bandwidth (no
 * datasheet: a CPU) add nothing; 0 without `step`.
 */
export function optimizerStepUs(
  step: PlanProblem['optimizerStep'],
  ids: readonly string[],
  shares: StepShares,
): number {
  if (!step) return 0;
  const bytes = optimizerStepBytes(step, shares);
  if (bytes <= 0) return 0;
  let worst = 0;
  for (const id of ids) {
    const gbps = step.deviceGBps[id];
    if (gbps !== undefined && gbps > 0) worst = Math.max(worst, bytes / (gbps * 1e3));
  }
  return worst;
}
