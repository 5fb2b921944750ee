/**
 * The optimizer step on the GPUs (cost/optimizer-step.ts): bytes a parameter of each device's share over
 * its achieved bandwidth, the slowest device counting; sharded over the replicas from ZeRO-1 on, whole
 * on each DDP replica; the first pipeline stage's only (the later stages step during the drain).
 */
import { describe, expect, it } from 'vitest';
import type { CostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import {
  optimizerStepBytes,
  optimizerStepUs,
  type StepShares,
} from '../../../../../src-main/core/planner/cost/optimizer-step.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import {
  NO_STACK,
  NO_STACK_OPTIMIZER_STEP,
  TRAINING_STACK_RULES as STACK_RULES,
} from '../../../../../src-main/core/planner/stacks/stacks.js';
import type { PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { likeGpus, likeGpuTraining } from '../../../../helpers/like-gpus.js';

/** A DDP replica's stage of n parameters (no split, ZeRO-0): the optimizer steps all of them. */
const whole = (n: number): StepShares => ({ whole: n, share: n, zeroStage: 0, split: false });

describe('optimizerStepUs', () => {
  const step = { bytesPerParam: 80, deviceGBps: { a: 2000, b: 1000 } };

  it('streams the share at each device bandwidth, the slowest counting', () => {
    // 1e9 parameters x 80 B = 80 GB: 40 ms at 2000 GB/s, 80 ms at 1000 GB/s.
    expect(optimizerStepUs(step, ['a'], whole(1e9))).toBeCloseTo(40_000, 6);
    expect(optimizerStepUs(step, ['a', 'b'], whole(1e9))).toBeCloseTo(80_000, 6);
  });

  it('adds nothing without a rule, a share, or a device with a bandwidth', () => {
    expect(optimizerStepUs(undefined, ['a'], whole(1e9))).toBe(0);
    expect(optimizerStepUs(step, ['a'], whole(0))).toBe(0);
    expect(optimizerStepUs(step, ['cpu'], whole(1e9))).toBe(0);
  });
});

describe('optimizerStepBytes: the gradient passes beside the optimizer', () => {
  const step = { bytesPerParam: 80, deviceGBps: {}, gradientPass: { split: 32, unsplit: 8 } };
  const shares = { whole: 1e9, share: 0.25e9 };

  it('steps the ZeRO share, and passes over the whole shard under a pipeline or tensor split', () => {
    expect(optimizerStepBytes(step, { ...shares, zeroStage: 1, split: true })).toBe(0.25e9 * 80 + 1e9 * 32);
    expect(optimizerStepBytes(step, { ...shares, zeroStage: 0, split: true })).toBe(1e9 * 80 + 1e9 * 32);
  });

  it('without a split: the unsplit pass over the whole shard, over the flat share under FSDP (ZeRO-2/3)', () => {
    expect(optimizerStepBytes(step, { ...shares, zeroStage: 1, split: false })).toBe(0.25e9 * 80 + 1e9 * 8);
    expect(optimizerStepBytes(step, { ...shares, zeroStage: 3, split: false })).toBe(0.25e9 * (80 + 8));
  });

  it('a rule without gradient passes steps the optimizer only', () => {
    const plain = { bytesPerParam: 40, deviceGBps: {} };
    expect(optimizerStepBytes(plain, { ...shares, zeroStage: 1, split: true })).toBe(0.25e9 * 40);
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

  it('adds nothing without the rule, or in inference', () => {
    expect(sync(problem({ optimizerStep: undefined }), all)).toBe(0);
    expect(sync(problem({ mode: 'inference' }), all)).toBe(0);
  });

  it("adds the gradient passes over the first stage's whole shard when a pipeline splits the model", () => {
    const gbps = Object.fromEntries(likeGpus(8).ids.map((id) => [id, 2000]));
    const p = problem({
      optimizerStep: { bytesPerParam: 80, deviceGBps: gbps, gradientPass: { split: 32, unsplit: 0 } },
    });
    // Two stages of four replicas (ZeRO-1): the optimizer over 2e9 / 4, the passes over all 2e9.
    expect(sync(p, [0, 1, 2, 3], 0, 2)).toBeCloseTo((0.5e9 * 80 + 2e9 * 32) / 2e6, 6);
    // One stage of eight replicas: no split, no fp16 pass.
    expect(sync(p, all)).toBeCloseTo((0.5e9 * 80) / 2e6, 6);
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

describe('a plan without a stack steps as its export runs (train_pipeline.py)', () => {
  it("counts torch.optim.AdamW's foreach passes without clipping: the fsdp rule's bytes less clip_grad_norm_'s 12", () => {
    expect(NO_STACK_OPTIMIZER_STEP.bytesPerParam).toBe(80);
    expect(STACK_RULES.fsdp.optimizerStep.bytesPerParam - NO_STACK_OPTIMIZER_STEP.bytesPerParam).toBe(12);
    // finish_step: g /= dp x scale (8) and the isfinite overflow check (24); GradScaler's unscale (8).
    expect(NO_STACK_OPTIMIZER_STEP.gradientPass).toEqual({ split: 32, fp16: 8 });
  });

  it('states it where the stack rules are stated', () => {
    expect(NO_STACK.assumes).toContain(
      "optimizer step on the GPUs: 80 bytes of memory traffic a parameter of a GPU's share, as job.sbatch's train_pipeline.py runs it",
    );
  });
});
