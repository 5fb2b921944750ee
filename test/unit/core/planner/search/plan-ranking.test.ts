/**
 * The ranked search on a mixed cluster: two kinds of GPU (two nodes of each), searched with every
 * recomputation and ZeRO stage. Devices are grouped by their layer times (cost/time-classes.ts)
 * and a recomputed layer's backward times are read from their parts (memory/recompute.ts); the
 * plan must be the one found before either (pinned from main at 6606bd5), and the same as on
 * layers whose recomputed times are written out in full.
 */
import { describe, expect, it } from 'vitest';
import { searchRanked } from '../../../../../src-main/core/planner/search/plan-ranking.js';
import { createCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { virtualDevice } from '../../../../../src-main/core/planner/cost/datasheets.js';
import { buildPlanLinks } from '../../../../../src-main/core/planner/cost/links.js';
import { recomputeProblem } from '../../../../../src-main/core/planner/memory/recompute.js';
import type { PlanLayer, PlanProblem } from '../../../../../src-main/core/planner/types.js';

const kinds = ['H100 SXM5 80GB', 'H100 SXM5 80GB', 'A100 SXM4 80GB', 'A100 SXM4 80GB'];
const gpus = kinds.flatMap((name, node) =>
  [0, 1].map((index) => virtualDevice(name, { machine: `node${node}`, index }).device),
);
/** Per-sample µs of a block on each kind: the A100 about 2.5x the H100's. */
const times = (h100: number): Record<string, number> =>
  Object.fromEntries(gpus.map((g) => [g.id, g.name.startsWith('A100') ? 2.5 * h100 : h100]));

function mixedProblem(): PlanProblem {
  const block = (i: number): PlanLayer => ({
    name: `block.${i}`,
    forwardUs: times(900 + 10 * i),
    backwardUs: times(1800 + 20 * i),
    params: 4e8,
    outBytesPerSample: 16e6,
    activationBytesPerSample: 6e9,
    selective: { activationBytesPerSample: 2e9, recomputeUs: times(200) },
    tensor: { divides: [32], forwardAllReduces: 2, backwardAllReduces: 2 },
  });
  return {
    layers: Array.from({ length: 12 }, (_, i) => block(i)),
    devices: gpus,
    links: buildPlanLinks(gpus, { network: '200Gb-IB' }).links,
    mode: 'training',
    batch: 16,
    bytesPerParam: 16,
    zeroStage: 1,
    overheadBytes: 2 ** 30,
    tensorDegrees: [1, 2],
  };
}

const search = (problem: PlanProblem, recompute: 'auto' | 'none') =>
  searchRanked(problem, createCostModel(problem.links), {
    topN: 5,
    offload: 'no',
    settings: null,
    recompute,
    zero: 'auto',
  });

const described = (p: NonNullable<ReturnType<typeof search>['best']>['plan']) => ({
  stepUs: p.stepUs,
  microbatches: p.microbatches,
  zeroStage: p.zeroStage,
  recompute: p.recompute,
  stages: p.stages.map((s) => `${s.from}-${s.to} tp${s.tp ?? 1} ${s.devices.join('+')}`),
});

describe('searchRanked on a mixed cluster', () => {
  it('finds the plans it found before time classes and recomputed parts', () => {
    const r = search(mixedProblem(), 'auto');
    expect(r.best && described(r.best.plan)).toEqual({
      stepUs: 101477.33333333331,
      microbatches: 16,
      zeroStage: 0,
      recompute: undefined,
      stages: [
        '0-3 tp2 node3/a100-sxm4-80gb:0+node3/a100-sxm4-80gb:1',
        '3-6 tp2 node2/a100-sxm4-80gb:0+node2/a100-sxm4-80gb:1',
        '6-9 tp2 node1/h100-sxm5-80gb:0+node1/h100-sxm5-80gb:1',
        '9-12 tp2 node0/h100-sxm5-80gb:0+node0/h100-sxm5-80gb:1',
      ],
    });
    // The five listed (several recomputations and ZeRO stages among them), by step.
    const listed = r.listed.map(({ plan: p }) => `${p.stepUs.toFixed(3)} ZeRO-${p.zeroStage} ${p.recompute ?? 'none'}`);
    expect(listed).toEqual([
      '101477.333 ZeRO-0 none',
      '107177.333 ZeRO-0 selective',
      '120588.667 ZeRO-1 selective',
      '128681.556 ZeRO-1 none',
      '128703.111 ZeRO-0 none',
    ]);
  });

  it('prices recomputed layers read from their parts as layers with their times written out', () => {
    for (const kind of ['full', 'selective'] as const) {
      const problem = mixedProblem();
      const recomputed = recomputeProblem(problem, kind) as PlanProblem;
      // A copy of every field, the backward sums built: plain records, no parts.
      const written: PlanProblem = { ...recomputed, layers: recomputed.layers.map((l) => ({ ...l })) };
      const a = search(recomputed, 'none').best;
      const b = search(written, 'none').best;
      expect(a && described(a.plan)).toEqual(b && described(b.plan));
      expect(a?.plan.stepUs).toBeGreaterThan(0);
    }
  });
});
