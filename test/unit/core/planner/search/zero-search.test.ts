/** Sharded data parallelism (ZeRO-1/2/3, FSDP) searched with the other variants (plan-ranking.ts). */
import { describe, expect, it } from 'vitest';
import { alphaBetaCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import { searchRanked, type ZeroRequest } from '../../../../../src-main/core/planner/search/plan-ranking.js';
import type { PlanProblem } from '../../../../../src-main/core/planner/types.js';

/** Four like GPUs of `memoryGB`, all linked, and `layers` layers of `params` parameters each. */
function problem(layers: number, params: number, memoryGB: number): PlanProblem {
  const ids = ['g0', 'g1', 'g2', 'g3'];
  return {
    layers: Array.from({ length: layers }, (_, i) => ({
      name: `block.${i}`,
      forwardUs: Object.fromEntries(ids.map((id) => [id, 20_000])),
      backwardUs: Object.fromEntries(ids.map((id) => [id, 40_000])),
      params,
      outBytesPerSample: 1e6,
      activationBytesPerSample: 1e7,
    })),
    devices: ids.map((id) => ({
      id,
      name: 'G',
      kind: 'gpu',
      machine: 'm',
      memoryBytes: memoryGB * 1e9,
      estimate: 'datasheet',
    })),
    links: ids.flatMap((a, i) => ids.slice(i + 1).map((b) => ({ a, b, alphaUs: 5, gbps: 100, kind: 'NV' }))),
    mode: 'training',
    batch: 8,
    bytesPerParam: 16,
    zeroStage: 0,
    overheadBytes: 0,
  };
}

const search = (p: PlanProblem, zero?: ZeroRequest) =>
  searchRanked(p, alphaBetaCostModel(p), {
    topN: 200,
    offload: 'no',
    settings: null,
    recompute: 'none',
    ...(zero !== undefined ? { zero } : {}),
  });

const replicated = (p: { stages: { devices: string[]; tp?: number }[] }): boolean =>
  p.stages.some((s) => s.devices.length / (s.tp ?? 1) >= 2);

describe('ZeRO stages in the search', () => {
  it('tries ZeRO-1, 2 and 3 on two or more GPUs, ZeRO-2 and 3 on one stage only', () => {
    const { result } = search(problem(4, 1e8, 80), 'auto');
    const stages = new Set(result.plans.filter(replicated).map((p) => p.zeroStage));
    expect([...stages].sort()).toEqual([1, 2, 3]);
    for (const p of result.plans) {
      if ((p.zeroStage ?? 0) >= 2) expect(p.stages).toHaveLength(1);
      if (!replicated(p)) expect(p.zeroStage).toBe(0);
    }
    expect(result.plans.some((p) => p.zeroStage === 1 && p.stages.length > 1)).toBe(true);
  });

  it('finds the data-parallel plan only ZeRO-3 fits, holding the gathered layer beside the shards', () => {
    // 16 layers of 5e8 parameters: 128 GB of state; over four GPUs ZeRO-1 needs 56 GB a GPU,
    // ZeRO-2 44 GB, ZeRO-3 32 GB and a gathered layer of 6 · 5e8 = 3 GB (weights, gradients, the next prefetched).
    const p = problem(16, 5e8, 40);
    const dataParallel = search(p, 'auto').result.plans.filter((x) => x.kind === 'data-parallel');
    const fitting = dataParallel.filter((x) => x.feasible);
    expect(fitting.length).toBeGreaterThan(0);
    expect(fitting.every((x) => x.zeroStage === 3 && x.stages[0]?.devices.length === 4)).toBe(true);
    const need = fitting[0]?.memory[0]?.neededBytes ?? 0;
    expect(need).toBeGreaterThanOrEqual(32e9 + 3e9);
    expect(need).toBeLessThan(40e9);
  });

  it('counts one gathered layer per stage: a model of one layer gathers it whole, and ZeRO-3 holds more than ZeRO-2', () => {
    // One layer of 8e9 parameters: ZeRO-3 32 GB + 48 GB gathered; ZeRO-2 44 GB.
    const p = problem(1, 8e9, 45);
    expect(search(p, 'auto').best?.plan.zeroStage).toBe(2);
  });

  it('never ranks plain DDP above ZeRO-1, which moves the same bytes and holds less', () => {
    const p = problem(4, 1e8, 80);
    const ddp = search(p, 0).best?.plan;
    const auto = search(p, 'auto').best?.plan;
    expect(auto?.stepUs).toBeLessThanOrEqual(ddp?.stepUs as number);
  });

  it('keeps a fixed ZeRO-2 off pipelines, and says so', () => {
    const r = search(problem(4, 1e8, 80), 2);
    expect(r.result.plans.every((p) => p.stages.length === 1)).toBe(true);
    expect(r.result.rejected.map((x) => x.reason).join('\n')).toContain(
      'ZeRO-2: pipelines not searched (DeepSpeed and Megatron-LM run ZeRO stages 2 and 3 without pipeline parallelism; --stack torchtitan pipelines FSDP',
    );
  });

  it('leaves one GPU and inference at the problem’s stage', () => {
    const one = { ...problem(4, 1e8, 80), devices: problem(4, 1e8, 80).devices.slice(0, 1) };
    expect(search(one, 'auto').result.plans.every((p) => p.zeroStage === 0)).toBe(true);
    const serve = { ...problem(4, 1e8, 80), mode: 'inference' as const, bytesPerParam: 2 };
    expect(search(serve, 'auto').result.plans.every((p) => p.zeroStage === undefined)).toBe(true);
  });
});
