/** Expert parallelism's all-to-alls, experts held and optimizer shards (cost/expert-parallel.ts). */
import { describe, expect, it } from 'vitest';
import {
  allToAllUs,
  expertAllToAllUs,
  expertProblem,
  expertStateBytes,
} from '../../../../../src-main/core/planner/cost/expert-parallel.js';
import { parameterStateBytes } from '../../../../../src-main/core/planner/memory/memory.js';
import { createCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import type { PlanLink, PlanProblem } from '../../../../../src-main/core/planner/types.js';

/** Two nodes of two GPUs: NVLink 400 GB/s, 2 µs inside; 50 GB/s, 10 µs across. */
const ids = ['a/gpu:0', 'a/gpu:1', 'b/gpu:0', 'b/gpu:1'];
const times = (us: number): Record<string, number> => Object.fromEntries(ids.map((id) => [id, us]));
const links: PlanLink[] = ids.flatMap((x, i) =>
  ids
    .slice(i + 1)
    .map((y) =>
      x[0] === y[0]
        ? { a: x, b: y, alphaUs: 2, gbps: 400, kind: 'NVLink' }
        : { a: x, b: y, alphaUs: 10, gbps: 50, kind: 'IB', rails: { count: 2, gbps: 50, perGpu: 1 } },
    ),
);

/** A MoE block: 8 experts of 2e7 parameters each (1.6e8 of its 2e8), top-2. */
function problem(): PlanProblem {
  return {
    layers: [
      {
        name: 'block.0',
        forwardUs: times(1000),
        backwardUs: times(2000),
        params: 2e8,
        outBytesPerSample: 1e6,
        activationBytesPerSample: 1e7,
        experts: { params: 1.6e8, count: 8, topK: 2 },
        tensor: { divides: [8, 8, 8], forwardAllReduces: 3, backwardAllReduces: 3, experts: 8 },
      },
    ],
    devices: ids.map((id) => ({
      id,
      name: 'H100',
      kind: 'gpu',
      machine: id.slice(0, 1),
      memoryBytes: 80e9,
      estimate: 'datasheet',
    })),
    links,
    mode: 'training',
    batch: 8,
    bytesPerParam: 16,
    zeroStage: 1,
    overheadBytes: 0,
  };
}

describe('allToAllUs', () => {
  it('sends S/e to each peer at once: NVLink to the node’s peers, the rails to the others; the slower plus the largest latency', () => {
    const ctx = plannerContext(problem(), createCostModel(links));
    const S = 4e6;
    // Each GPU: 1 peer on its node (1e6 / 4e5 = 2.5 µs), 2 across (2 x 1e6 / 5e4 = 40 µs), 10 µs latency.
    expect(allToAllUs(ctx, ids, S)).toBeCloseTo(40 + 10, 9);
    // Inside one node: 2e6 / 4e5 + 2.
    expect(allToAllUs(ctx, ['a/gpu:0', 'a/gpu:1'], S)).toBeCloseTo(5 + 2, 9);
    expect(allToAllUs(ctx, ['a/gpu:0'], S)).toBe(0);
  });
});

describe('expertAllToAllUs', () => {
  it('prices 2 all-to-alls forward and 2 backward a MoE block, of samples x output x topK / tp, over groups of ep devices', () => {
    const ctx = plannerContext(problem(), createCostModel(links));
    // 2 samples a replica: 2 x 1e6 x 2 = 4e6 bytes a GPU over the 4: 50 µs each.
    expect(expertAllToAllUs(ctx, ids, { from: 0, to: 1 }, 2, 1, 4)).toBeCloseTo(4 * 50, 9);
    // ep = 2: each group inside a node, 4e6 over 2: 7 µs.
    expect(expertAllToAllUs(ctx, ids, { from: 0, to: 1 }, 2, 1, 2)).toBeCloseTo(4 * 7, 9);
    const recomputed = plannerContext({ ...problem(), recompute: 'full' }, createCostModel(links));
    expect(expertAllToAllUs(recomputed, ids, { from: 0, to: 1 }, 2, 1, 4)).toBeCloseTo(6 * 50, 9);
  });
});

describe('expertProblem and expertStateBytes', () => {
  it('leaves a GPU the experts of its share, expertParams / ep, and the attention’s one all-reduce a way', () => {
    const l = expertProblem(problem(), 2, 8).layers[0];
    // Split over tp = 2: (2e8 − 1.6e8) / 2 dense + 1.6e8 / 8 experts.
    expect((l?.params ?? 0) / 2).toBeCloseTo(2e7 + 2e7, 0);
    expect(l?.tensor?.forwardAllReduces).toBe(1);
    expect(l?.tensor?.backwardAllReduces).toBe(1);
  });

  it('shards the experts’ optimizer state over tp·R/ep expert-data-parallel ranks, not the R replicas', () => {
    const p = problem();
    const held = 1.6e8 / 4;
    // tp 1, 4 replicas, ep 4: one expert-data-parallel rank holds all of its experts' state.
    expect(expertStateBytes(p.layers, { from: 0, to: 1 }, { replicas: 4, tp: 1, ep: 4 }, p)).toBeCloseTo(
      parameterStateBytes(held, 1, p) - parameterStateBytes(held, 4, p),
      0,
    );
    expect(expertStateBytes(p.layers, { from: 0, to: 1 }, { replicas: 4, tp: 1, ep: 4 }, { ...p, zeroStage: 0 })).toBe(
      0,
    );
  });
});
