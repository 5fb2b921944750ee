/**
 * `plan --stack`: the ZeRO-3 collectives that queue behind persistent GEMMs (cost/sharded-sync.ts) are
 * set on the problem for FSDP1 (the fsdp stack) on Hopper, not for FSDP2 (torchtitan) or on Ampere.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
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
  it("sets the stack's bytes a parameter and each GPU's achieved bandwidth; none without a stack", () => {
    const fsdp = plan('8xH100 SXM5', 'fsdp').problem.optimizerStep;
    expect(fsdp?.bytesPerParam).toBe(92);
    const gbps = Object.values(fsdp?.deviceGBps ?? {});
    expect(gbps).toHaveLength(8);
    // H100 SXM5: 3350 GB/s on its datasheet, at its HBM3's achieved fraction.
    for (const g of gbps) expect(g).toBeGreaterThan(2000);
    for (const g of gbps) expect(g).toBeLessThan(3350);
    expect(plan('8xH100 SXM5', 'torchtitan').problem.optimizerStep?.bytesPerParam).toBe(40);
    expect(planWorkload(db, { ...training, virtual: ['8xH100 SXM5'] }).problem.optimizerStep).toBeUndefined();
  });
});
