/**
 * Gradient synchronization with sharded data parallelism (stage-cost.ts gradientSyncUs): DDP and
 * ZeRO-1/2 all-reduce overlapped with the backward in buckets; ZeRO-3/FSDP per-layer all-gathers
 * and reduce-scatters overlapped with the neighbouring layers' compute.
 */
import { describe, expect, it } from 'vitest';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { GRADIENT_BUCKET_BYTES } from '../../../../../src-main/core/planner/cost/stage-shapes.js';
import { pricePlan } from '../../../../../src-main/core/planner/cost/plan-cost.js';
import type { PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { twoGpuProblem, type TwoGpus } from '../../../../helpers/two-gpu-problem.js';

/** Two GPUs, four layers of 1e8 parameters (2e8 gradient bytes each), a 100 GB/s link with no latency. */
function problem(zeroStage: 0 | 1 | 2 | 3, forwardUs: number, batch = 2): PlanProblem {
  const gpus: TwoGpus = {
    forwardUs: { a: forwardUs, b: forwardUs },
    names: ['G', 'G'],
    memoryBytes: 80e9,
    link: { alphaUs: 0, gbps: 100, kind: 'NV' },
  };
  return twoGpuProblem(gpus, { batch, zeroStage });
}

// A ring all-reduce of S bytes over two devices at 100 GB/s: S / 1e5 µs; an all-gather or reduce-scatter half of it.
const allReduceUs = (bytes: number): number => bytes / 1e5;

describe('DDP and ZeRO-1/2 gradient sync', () => {
  it('hides behind the backward pass but for the last bucket', () => {
    // All gradients: 8e8 bytes, 8000 µs; one sample per replica does 4 x 2000 µs of backward.
    const sync = plannerContext(problem(0, 1000)).tables.gradientSyncUs([0, 1], 0, 4, 1, 2);
    expect(sync).toBeCloseTo(allReduceUs(GRADIENT_BUCKET_BYTES), 6);
  });

  it('exposes what exceeds the backward pass', () => {
    // 8000 µs of all-reduce against 4 x 200 µs of backward.
    const sync = plannerContext(problem(0, 100)).tables.gradientSyncUs([0, 1], 0, 4, 1, 2);
    expect(sync).toBeCloseTo(8000 - 800, 6);
  });

  it('costs ZeRO-1 and ZeRO-2 the same time as DDP, and less memory', () => {
    const stage = { stages: [{ from: 0, to: 4, devices: ['a', 'b'] }], microbatches: 1, schedule: '1f1b' as const };
    const [ddp, z1, z2] = ([0, 1, 2] as const).map((z) => pricePlan(plannerContext(problem(z, 100)), stage));
    expect(z1?.stepUs).toBe(ddp?.stepUs);
    expect(z2?.stepUs).toBe(ddp?.stepUs);
    expect(z1?.memory[0]?.neededBytes).toBeLessThan(ddp?.memory[0]?.neededBytes as number);
    expect(z2?.memory[0]?.neededBytes).toBeLessThan(z1?.memory[0]?.neededBytes as number);
  });
});

describe('ZeRO-3 / FSDP FULL_SHARD', () => {
  const gather = allReduceUs(2e8) / 2; // one layer's weights (or gradients): 1000 µs

  it('hides each layer’s all-gathers and reduce-scatter behind its neighbours’ compute', () => {
    // Compute of 1000 µs forward and 2000 µs backward per layer covers every prefetch: exposed are
    // the first layer's gather forward, the last layer's gather backward and the first layer's
    // reduce-scatter after the backward ends.
    const sync = plannerContext(problem(3, 1000)).tables.gradientSyncUs([0, 1], 0, 4, 1, 2);
    expect(sync).toBeCloseTo(3 * gather, 6);
  });

  it('exposes all of it without compute to hide behind, once per microbatch', () => {
    // Two gathers and one reduce-scatter per layer per microbatch.
    const one = plannerContext(problem(3, 0)).tables.gradientSyncUs([0, 1], 0, 4, 1, 2);
    expect(one).toBeCloseTo(4 * 3 * gather, 6);
    const two = plannerContext(problem(3, 0, 4)).tables.gradientSyncUs([0, 1], 0, 4, 1, 2);
    expect(two).toBeCloseTo(2 * 4 * 3 * gather, 6);
  });

  it('costs more than ZeRO-1 when compute hides little, and holds a quarter of the state', () => {
    const stage = { stages: [{ from: 0, to: 4, devices: ['a', 'b'] }], microbatches: 1, schedule: '1f1b' as const };
    const z1 = pricePlan(plannerContext(problem(1, 10)), stage);
    const z3 = pricePlan(plannerContext(problem(3, 10)), stage);
    expect(z3.stepUs).toBeGreaterThan(z1.stepUs);
    expect(z3.memory[0]?.neededBytes).toBeLessThan(z1.memory[0]?.neededBytes as number);
  });
});
