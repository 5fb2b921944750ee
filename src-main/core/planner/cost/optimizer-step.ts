/**
 * The optimizer step on the GPUs (training without optimizer offload): a memory-bound pass over
 * each device's share of the fp32 optimizer state, once per step, after the last microbatch's
 * gradients are reduced. The bytes it moves per parameter are the stack's (stacks/*:
 * optimizerStep, counted from its optimizer's kernels); the rate is each device's achieved memory
 * bandwidth. Pure.
 */
import type { PlanProblem } from '../types.js';

/**
 * The slowest device's step over `shareParams` parameters (µs): bytes / achieved bandwidth.
 * Devices without a bandwidth (no datasheet: a CPU) add nothing; 0 without `step`.
 */
export function optimizerStepUs(
  step: PlanProblem['optimizerStep'],
  ids: readonly string[],
  shareParams: number,
): number {
  if (!step || shareParams <= 0) return 0;
  let worst = 0;
  for (const id of ids) {
    const gbps = step.deviceGBps[id];
    if (gbps !== undefined && gbps > 0) worst = Math.max(worst, (shareParams * step.bytesPerParam) / (gbps * 1e3));
  }
  return worst;
}
