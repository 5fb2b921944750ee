/**
 * A cluster's GPUs of one kind share one key in the layers' time records (PlanProblem.timesOf):
 * the layout and the search price it exactly as they price the same problem keyed device by device.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { createCostModel } from '../../../../src-main/core/planner/cost/cost-model.js';
import { parseLayout, priceLayout } from '../../../../src-main/core/planner/layout.js';
import { timesKey } from '../../../../src-main/core/planner/problem/time-keys.js';
import { searchRanked } from '../../../../src-main/core/planner/search/plan-ranking.js';
import type { PlanProblem } from '../../../../src-main/core/planner/types.js';
import { planWorkload } from '../../../../src-main/services/plan/plan-service.js';

const db = openDatabase(':memory:');

/** The problem with every device's times under its own id, as before keys by kind. */
function perDevice(problem: PlanProblem): PlanProblem {
  const { timesOf: _keys, ...rest } = problem;
  const spread = (r: Record<string, number>): Record<string, number> =>
    Object.fromEntries(problem.devices.map((d) => [d.id, r[timesKey(problem, d.id)] as number]));
  return {
    ...rest,
    layers: problem.layers.map((l) => ({
      ...l,
      forwardUs: spread(l.forwardUs),
      backwardUs: spread(l.backwardUs),
      ...(l.selective ? { selective: { ...l.selective, recomputeUs: spread(l.selective.recomputeUs) } } : {}),
    })),
  };
}

/** gpt2-small training on datasheet GPUs, a given layout priced without the search: the plan's problem. */
function layoutProblem(virtual: string[]): PlanProblem {
  return planWorkload(db, {
    workload: 'gpt2-small',
    devices: 'none',
    virtual,
    mode: 'training',
    batch: 32,
    seq: 256,
    dtype: 'bf16',
    offload: 'no',
    layout: 'tp=2,pp=2,dp=4,zero=1,recompute=full',
    search: false,
  }).problem;
}

describe('layer times keyed by GPU kind', () => {
  // 16 datasheet H100s: two nodes of 8 (plan --virtual's nodes).
  const byKind = layoutProblem(['16xH100 SXM5']);
  const byDevice = perDevice(byKind);

  it('keys the GPUs of one kind once', () => {
    expect(Object.keys(byKind.layers[0]?.forwardUs ?? {})).toHaveLength(1);
    expect(Object.keys(byKind.timesOf ?? {})).toHaveLength(15);
    expect(Object.keys(byDevice.layers[0]?.forwardUs ?? {})).toHaveLength(16);
  });

  it.each([
    'tp=2,pp=2,dp=4,zero=1,recompute=full',
    'tp=4,pp=1,dp=4,zero=2,recompute=selective',
    'tp=4,pp=4,dp=1,zero=1,recompute=none,schedule=gpipe',
    'tp=1,pp=1,dp=16,zero=3,recompute=full',
    'tp=2,pp=1,dp=4,cp=2,zero=1,recompute=selective',
  ])('prices %s as it does device by device, and replica by replica', (text) => {
    const price = (p: PlanProblem, routeKeys = true) => {
      // Without the cost model's route keys every replica and shard ring is priced on its own.
      const { allReduceKey, ...plain } = createCostModel(p.links);
      const costModel = routeKeys ? { ...plain, allReduceKey } : plain;
      const { plan, notes } = priceLayout(p, parseLayout(text), { workload: 'gpt2-small', costModel });
      return { plan, notes };
    };
    const kind = price(byKind);
    expect(Number.isFinite(kind.plan.stepUs) && kind.plan.stepUs > 0).toBe(true);
    expect(kind).toEqual(price(byDevice));
    expect(kind).toEqual(price(byDevice, false));
  });

  it('searches to the same ranked plans', () => {
    const search = (p: PlanProblem) =>
      searchRanked(p, createCostModel(p.links), {
        topN: 5,
        offload: 'no',
        settings: null,
        recompute: 'auto',
      }).result.plans;
    const kind = search(byKind);
    expect(kind.length).toBeGreaterThan(0);
    expect(kind).toEqual(search(byDevice));
  });
});

describe('layer times keyed by GPU kind, two kinds', () => {
  const byKind = layoutProblem(['8xH100 SXM5', '8xA100 SXM4 80GB']);

  it('keys each kind once and prices a layout over both as device by device', () => {
    expect(Object.keys(byKind.layers[0]?.forwardUs ?? {})).toHaveLength(2);
    const price = (p: PlanProblem) =>
      priceLayout(p, parseLayout('tp=2,pp=2,dp=4,zero=1,recompute=full'), {
        workload: 'gpt2-small',
        costModel: createCostModel(p.links),
      }).plan;
    const kind = price(byKind);
    expect(Number.isFinite(kind.stepUs) && kind.stepUs > 0).toBe(true);
    expect(kind).toEqual(price(perDevice(byKind)));
  });
});
