/**
 * The optimizer step on the GPUs (cost/optimizer-step.ts): bytes a parameter of each device's share over
 * its achieved bandwidth, the slowest device counting; sharded over the replicas from ZeRO-1 on, whole
 * on each DDP replica; the first pipeline stage's only (the later stages step during the drain).
 */
import { describe, expect, it } from 'vitest';
import type { CostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { optimizerStepUs } from '../../../../../src-main/core/planner/cost/optimizer-step.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { TRAINING_STACK_RULES as STACK_RULES } from '../../../../../src-main/core/planner/stacks/stacks.js';
import type { PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { likeGpus, likeGpuTraining } from '../../../../helpers/like-gpus.js';

describe('optimizerStepUs', () => {
  const step = { bytesPerParam: 80, deviceGBps: { a: 2000, b: 1000 } };

  it('streams the share at each device bandwidth, the slowest counting', () => {
    // 1e9 parameters x 80 B = 80 GB: 40 ms at 2000 GB/s, 80 ms at 1000 GB/s.
    expect(optimizerStepUs(step, ['a'], 1e9)).toBeCloseTo(40_000, 6);
    expect(optimizerStepUs(step, ['a', 'b'], 1e9)).toBeCloseTo(80_000, 6);
  });

  it('adds nothing without a rule, a share, or a device with a bandwidth', () => {
    expect(optimizerStepUs(undefined, ['a'], 1e9)).toBe(0);
    expect(optimizerStepUs(step, ['a'], 0)).toBe(0);
    expect(optimizerStepUs(step, ['cpu'], 1e9)).toBe(0);
  });
});

describe('the optimizer step in a training step', () => {
  /** Eight like GPUs, four layers of 1e9 parameters; collectives free so only the step shows. */
  function problem(over: Partial<PlanProblem> = {}): PlanProblem {
    return likeGpuTraining({
      optimizerStep: { bytesPerParam: 40, deviceGBps: Object.fromEntries(likeGpus(8).ids.map((id) => [id, 2000])) },
      ...over,
    });
  }
  const cost: CostModel = { linkUs: () => 0, allReduceUs: () => 0, allGatherUs: () => 0, reduceScatterUs: () => 0 };
  const sync = (p: PlanProblem, devices: number[], from = 0, to = 4) =>
    plannerContext(p, cost).tables.gradientSyncUs(devices, from, to, 1, 8);
  const all = [0, 1, 2, 3, 4, 5, 6, 7];

  it('steps each replica shard under ZeRO-1 (4e9 / 8 parameters x 40 B at 2000 GB/s)', () => {
    expect(sync(problem(), all)).toBeCloseTo((0.5e9 * 40) / 2e6, 6);
  });

  it('steps the whole state on every replica under DDP', () => {
    expect(sync(problem({ zeroStage: 0 }), all)).toBeCloseTo((4e9 * 40) / 2e6, 6);
  });

  it('counts the first stage only: a later stage steps while the first drains', () => {
    expect(sync(problem(), [0, 1, 2, 3], 0, 2)).toBeCloseTo(((2e9 / 4) * 40) / 2e6, 6);
    expect(sync(problem(), [4, 5, 6, 7], 2, 4)).toBe(0);
  });

  it('adds nothing without the rule (no stack), or in inference', () => {
    expect(sync(problem({ optimizerStep: undefined }), all)).toBe(0);
    expect(sync(problem({ mode: 'inference' }), all)).toBe(0);
  });
});

describe('the stacks state their optimizer step', () => {
  it('counts more bytes for a multi-pass (foreach) step than for a fused one', () => {
    for (const rule of Object.values(STACK_RULES)) {
      expect(rule.optimizerStep.bytesPerParam).toBeGreaterThanOrEqual(28);
      expect(rule.optimizerStep.how).not.toBe('');
    }
    expect(STACK_RULES.fsdp.optimizerStep.bytesPerParam).toBeGreaterThan(
      STACK_RULES.torchtitan.optimizerStep.bytesPerParam,
    );
  });
});
