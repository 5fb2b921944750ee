import { describe, expect, it } from 'vitest';
import {
  parameterStateBytes,
  OFFLOAD_CPU_BYTES_PER_PARAM,
} from '../../../../../src-main/core/planner/memory/memory.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { planAll } from '../../../../../src-main/core/planner/search/index.js';
import {
  simStagesOfPlan,
  simulatePipeline,
} from '../../../../../src-main/core/planner/simulator/pipeline-simulator.js';
import { closedFormStepUs } from '../reference/pipeline-bounds.js';
import type { PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { SMALL_GPUS, twoGpuProblem } from '../../../../helpers/two-gpu-problem.js';

const offload = { hostGBps: { a: 10 }, defaultHostGBps: 5, cpuGBps: 20 };

/** SMALL_GPUS, their optimizer state offloaded or not. */
function problem(withOffload: boolean): PlanProblem {
  return twoGpuProblem(SMALL_GPUS, withOffload ? { optimizerOffload: offload } : {});
}

describe('optimizer offload', () => {
  it('keeps only fp16 weights and gradients on the device', () => {
    const s = { mode: 'training' as const, bytesPerParam: 16, zeroStage: 0 as const, overheadBytes: 0 };
    expect(parameterStateBytes(1e9, 1, s)).toBe(16e9);
    expect(parameterStateBytes(1e9, 1, { ...s, optimizerOffload: offload })).toBe(4e9);
    expect(parameterStateBytes(1e9, 4, { ...s, zeroStage: 2, optimizerOffload: offload })).toBe(2e9 + 0.5e9);
    expect(parameterStateBytes(1e9, 1, { ...s, mode: 'inference', bytesPerParam: 2, optimizerOffload: offload })).toBe(
      2e9,
    );
  });

  it('prices the host transfers and the CPU Adam step once per step', () => {
    const ctx = plannerContext(problem(true));
    // One stage of all 4e8 parameters on device a: 4 bytes each over 10 GB/s, 28 bytes each at 20 GB/s.
    const expected = (4e8 * 4) / (10 * 1e3) + (4e8 * OFFLOAD_CPU_BYTES_PER_PARAM) / (20 * 1e3);
    expect(ctx.tables.gradientSyncUs([0], 0, 4, 1, 8)).toBeCloseTo(expected, 6);
    expect(plannerContext(problem(false)).tables.gradientSyncUs([0], 0, 4, 1, 8)).toBe(0);
  });

  it('turns a plan that does not fit into one that does, and the simulator agrees with the formula', () => {
    const without = planAll(problem(false));
    expect(without.plans.some((p) => p.feasible)).toBe(false);
    const withIt = planAll(problem(true));
    const best = withIt.plans.find((p) => p.feasible);
    expect(best).toBeDefined();
    if (!best) return;
    const ctx = plannerContext(problem(true));
    const stages = simStagesOfPlan(ctx, best);
    const sim = simulatePipeline(stages, {
      microbatches: best.microbatches,
      schedule: best.schedule,
      mode: 'training',
    });
    expect(sim.stepUs).toBeGreaterThanOrEqual(closedFormStepUs(stages, best.microbatches, 'training') * 0.999);
    expect(sim.timeline.some((e) => e.phase === 'allreduce')).toBe(true);
  });
});
