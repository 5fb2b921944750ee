/**
 * Optimizer offload's time a step (ZeRO-Offload: fp32 master weights and Adam moments in host
 * memory, the step on the CPU). Pure.
 */
import { GRAD_BYTES_PER_PARAM, OFFLOAD_CPU_BYTES_PER_PARAM, WEIGHT_BYTES_PER_PARAM } from '../memory/memory.js';
import type { OptimizerOffload } from '../types.js';

/**
 * Once per step: each device sends its share of fp16 gradients to the host (`shareParams`, its
 * shard over the data-parallel replicas) and gets fp16 weights back (4 bytes per parameter over
 * its host link), and the CPU streams the Adam step over the stage's `stageParams`; the slowest
 * device counts (µs). The Adam steps of all replicas are counted on one CPU (conservative when
 * they sit on several hosts).
 */
export function offloadStepUs(
  o: OptimizerOffload,
  ids: readonly string[],
  shareParams: number,
  stageParams: number,
): number {
  let worst = 0;
  for (const id of ids) {
    const host = o.hostGBps[id] ?? o.defaultHostGBps;
    worst = Math.max(worst, (shareParams * (WEIGHT_BYTES_PER_PARAM + GRAD_BYTES_PER_PARAM)) / (host * 1e3));
  }
  return worst + (stageParams * OFFLOAD_CPU_BYTES_PER_PARAM) / (o.cpuGBps * 1e3);
}
