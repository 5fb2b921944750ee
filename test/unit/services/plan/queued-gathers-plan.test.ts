/**
 * `plan --stack`: the ZeRO-3 collectives that queue behind persistent GEMMs (cost/sharded-sync.ts) are
 * set on the problem for FSDP1 (the fsdp stack) on Hopper, not for FSDP2 (torchtitan) or on Ampere;
 * the optimizer step on the GPUs, the stack's or without one the step its export runs.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { pricePlan } from '../../../../src-main/core/planner/cost/plan-cost.js';
import { TORCH_PY } from '../../../../src-main/core/planner/exports/python/torch-py.js';
import { plannerContext } from '../../../../src-main/core/planner/problem/problem.js';
import type { Plan, PlanProblem } from '../../../../src-main/core/planner/types.js';
import { planWorkload, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';

const db = openDatabase(':memory:');
const training: PlanRequest = {
  workload: 'gpt2-small',
  devices: 'none',
  mode: 'training',
  batch: 16,
  seq: 256,
  dtype: 'bf16',
  offload: 'no',
  topN: 1,
  layout: 'dp=8,zero=3',
  search: false,
};

const plan = (cluster: string, stack: 'fsdp' | 'torchtitan') =>
  planWorkload(db, { ...training, virtual: [cluster], stack });

describe('plan --stack: collectives queued behind the GEMMs', () => {
  it('sets every H100 for FSDP1, fully sharded only, and prices a slower step than FSDP2', () => {
    const fsdp = plan('8xH100 SXM5', 'fsdp');
    expect(fsdp.problem.queuedGathers?.devices).toHaveLength(8);
    expect(fsdp.problem.queuedGathers).toMatchObject({ sharded: true, hybrid: false });
    const titan = plan('8xH100 SXM5', 'torchtitan');
    expect(titan.problem.queuedGathers).toBeUndefined();
    expect(fsdp.layout?.plan.stepUs).toBeGreaterThan(titan.layout?.plan.stepUs ?? Infinity);
  });

  it('sets none on A100s', () => {
    expect(plan('8xA100 SXM4 80GB', 'fsdp').problem.queuedGathers).toBeUndefined();
  });
});

describe('plan --stack: the optimizer step on the GPUs', () => {
  it("sets the stack's bytes a parameter and each GPU's achieved bandwidth", () => {
    const fsdp = plan('8xH100 SXM5', 'fsdp').problem.optimizerStep;
    expect(fsdp?.bytesPerParam).toBe(92);
    const gbps = Object.values(fsdp?.deviceGBps ?? {});
    expect(gbps).toHaveLength(8);
    // H100 SXM5: 3350 GB/s on its datasheet, at its HBM3's achieved fraction.
    for (const g of gbps) expect(g).toBeGreaterThan(2000);
    for (const g of gbps) expect(g).toBeLessThan(3350);
    expect(plan('8xH100 SXM5', 'torchtitan').problem.optimizerStep?.bytesPerParam).toBe(40);
  });

  it('without a stack, sets the step its export runs: AdamW without clipping, the fp16 unscale in fp16 only', () => {
    const any = planWorkload(db, { ...training, virtual: ['8xH100 SXM5'] });
    const fsdp = plan('8xH100 SXM5', 'fsdp').problem.optimizerStep;
    expect(any.problem.optimizerStep).toEqual({
      bytesPerParam: 80,
      deviceGBps: fsdp?.deviceGBps,
      gradientPass: { split: 32, unsplit: 0 },
    });
    const fp16 = planWorkload(db, { ...training, dtype: 'fp16', virtual: ['8xH100 SXM5'] });
    expect(fp16.problem.optimizerStep?.gradientPass).toEqual({ split: 32, unsplit: 8 });
    // The step is priced: the same layout without it is faster.
    // ZeRO-3 over 8 GPUs: each steps its eighth of the parameters, 80 B each, at its achieved bandwidth.
    const params = any.problem.layers.reduce((sum, l) => sum + l.params, 0);
    const gbps = Object.values(fsdp?.deviceGBps ?? {})[0] ?? 0;
    const added = pricedWith(any.problem, any.layout?.plan) - pricedWithout(any.problem, any.layout?.plan);
    expect(added).toBeCloseTo(((params / 8) * 80) / (gbps * 1e3), 3);
  });
});

describe('the no-stack step matches the script its job.sbatch runs (train_pipeline.py)', () => {
  it('runs torch.optim.AdamW at its defaults (foreach, not fused) and clips no gradients', () => {
    expect(TORCH_PY).toContain('return torch.optim.AdamW(params, **kwargs)');
    expect(TORCH_PY).toContain('kwargs = dict(lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)');
    expect(TORCH_PY).not.toMatch(/fused=|foreach=/);
    // Fused and clipping only where a stack's rule asks (FUSED_ADAMW, CLIP_GRAD_NORM: plan-emit-run.test.ts).
    expect(TORCH_PY).toContain('if FUSED_ADAMW and params and params[0].is_cuda:');
    // Both steps (data parallel, and finish_step's) clip only under CLIP_GRAD_NORM.
    expect(TORCH_PY.match(/^ +if CLIP_GRAD_NORM is not None:$/gm)).toHaveLength(2);
    // finish_step's passes over the gradients, counted in NO_STACK_OPTIMIZER_STEP.gradientPass.split.
    expect(TORCH_PY).toContain('g /= RUN["dp"] * scale');
    expect(TORCH_PY).toContain('overflow += (~torch.isfinite(g)).any().float()');
  });
});

/** The plan's step time on the same problem and layout with no optimizer step priced. */
function pricedWithout(problem: PlanProblem, plan: Plan | undefined): number {
  if (!plan) throw new Error('no plan');
  const { optimizerStep: _, ...rest } = problem;
  return pricePlan(plannerContext({ ...rest, zeroStage: plan.zeroStage ?? rest.zeroStage }), plan).stepUs;
}

/** The same, with the step priced. */
function pricedWith(problem: PlanProblem, plan: Plan | undefined): number {
  if (!plan) throw new Error('no plan');
  return pricePlan(plannerContext({ ...problem, zeroStage: plan.zeroStage ?? problem.zeroStage }), plan).stepUs;
}
