import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../../src-main/core/errors.js';
import { planAll } from '../../../../../src-main/core/planner/search/index.js';
import { hybridSpace } from '../../../../../src-main/core/planner/search/group-space.js';
import { pipelineSearch } from '../../../../../src-main/core/planner/search/pipeline-search.js';
import { plannerContext } from '../../../../../src-main/core/planner/problem/problem.js';
import { dataParallelPlans, singleDevicePlans } from '../../../../../src-main/core/planner/search/whole-model.js';
import type { Plan, PlanDevice, PlanLayer, PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { randomProblem } from '../random-problem.js';

const GiB = 1024 ** 3;

function gpus(n: number, memoryBytes: number, name = 'GPU'): PlanDevice[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `g${i}`,
    name,
    kind: 'gpu',
    machine: 'm',
    memoryBytes,
    estimate: 'profiled',
  }));
}

function layers(n: number, devices: PlanDevice[], params: number, us = 100): PlanLayer[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `l${i}`,
    forwardUs: Object.fromEntries(devices.map((d) => [d.id, us])),
    backwardUs: Object.fromEntries(devices.map((d) => [d.id, 2 * us])),
    params,
    outBytesPerSample: 1e5,
    activationBytesPerSample: 1e6,
  }));
}

function fullLinks(devices: PlanDevice[], gbps = 100): PlanProblem['links'] {
  return devices.flatMap((a, i) =>
    devices.slice(i + 1).map((b) => ({ a: a.id, b: b.id, alphaUs: 5, gbps, kind: 'x' })),
  );
}

function problem(devices: PlanDevice[], nLayers: number, params: number, us = 100): PlanProblem {
  return {
    layers: layers(nLayers, devices, params, us),
    devices,
    links: fullLinks(devices),
    mode: 'training',
    batch: 8,
    bytesPerParam: 16,
    zeroStage: 0,
    overheadBytes: 0.5 * GiB,
  };
}

describe('planAll', () => {
  it('refuses an empty device list with a clear error', () => {
    const p = problem([], 4, 1e6);
    expect(() => planAll(p)).toThrow(UserError);
    expect(() => planAll(p)).toThrow(/no devices/);
  });

  it('ranks feasible plans by step time, at most topN, each priced and labelled', () => {
    const p = randomProblem(21, { layers: 6, devices: 4, memoryShare: [0.3, 1.5] });
    const clock = [1000, 1042];
    const r = planAll(p, undefined, { topN: 7, now: () => clock.shift() ?? Number.NaN });
    expect(r.plans.length).toBeGreaterThan(1);
    expect(r.plans.length).toBeLessThanOrEqual(7);
    const feasible = r.plans.filter((x) => x.feasible);
    expect(feasible.length).toBeGreaterThan(0);
    expect(r.plans.slice(0, feasible.length).every((x) => x.feasible)).toBe(true);
    for (let i = 1; i < feasible.length; i++)
      expect(feasible[i]!.stepUs).toBeGreaterThanOrEqual(feasible[i - 1]!.stepUs);
    for (const x of r.plans) {
      expect(['single', 'data-parallel', 'tensor-parallel', 'pipeline', 'hybrid']).toContain(x.kind);
      expect(x.stages.length).toBeGreaterThan(0);
      expect(Number.isFinite(x.stepUs) && x.stepUs > 0).toBe(true);
      expect(x.throughputSamplesPerS).toBeCloseTo(p.batch / (x.stepUs * 1e-6), 6);
    }
    // The search reads the clock once before and once after: searchMs is the time between.
    expect(r.searchMs).toBe(42);
  });

  it('splits a model that fits no single device into a pipeline', () => {
    // 4 layers of 1e8 parameters: 6.4 GB of training state; 5 GiB per device.
    const devices = gpus(2, 5 * GiB);
    devices[1]!.name = 'Other GPU';
    const r = planAll(problem(devices, 4, 1e8));
    expect(r.plans[0]?.kind).toBe('pipeline');
    expect(r.plans[0]?.feasible).toBe(true);
    expect(r.rejected.filter((x) => x.kind === 'single')).toHaveLength(2);
    expect(r.rejected[0]?.reason).toMatch(/^g0 \(GPU, 5\.0 GiB\): needs 6\.\d GiB: 6\.0 GiB parameters\/optimizer/);
  });

  it('finds a pipeline of data-parallel groups when that is fastest', () => {
    // Each device holds one layer's training state; two pairs of twins share each stage's samples,
    // and compute (30 ms per sample and layer) outweighs the 2 ms gradient all-reduce.
    const devices = gpus(4, 2.2 * GiB);
    const r = planAll(problem(devices, 2, 1e8, 10_000));
    expect(r.plans[0]?.kind).toBe('hybrid');
    expect(r.plans[0]?.stages.map((s) => s.devices.length)).toEqual([2, 2]);
  });

  it('says why when nothing fits', () => {
    const r = planAll(problem(gpus(3, 1 * GiB), 4, 1e8));
    expect(r.plans.length).toBeGreaterThan(0);
    expect(r.plans.every((x) => !x.feasible && x.reasons.length > 0)).toBe(true);
    expect(r.plans[0]?.reasons[0]).toMatch(/needs .* GiB parameters\/optimizer/);
    expect(r.rejected.map((x) => x.kind)).toEqual(
      expect.arrayContaining(['single', 'data-parallel', 'pipeline', 'hybrid']),
    );
    expect(r.rejected.find((x) => x.kind === 'pipeline')?.reason).toMatch(/no split of the 4 layers/);
  });

  it('plans a one-layer workload on one device or in data parallel only', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const r = planAll(randomProblem(seed, { layers: 1, memoryShare: [0.5, 3] }));
      expect(r.plans.length).toBeGreaterThan(0);
      for (const p of r.plans) expect(['single', 'data-parallel']).toContain(p.kind);
    }
  });

  it('puts first the best of the single, data-parallel, pipeline and hybrid optima', () => {
    for (let seed = 30; seed < 40; seed++) {
      const p = randomProblem(seed, { twins: true, memoryShare: [0.3, 2] });
      const ctx = plannerContext(p);
      const candidates = [
        ...singleDevicePlans(ctx),
        ...dataParallelPlans(ctx).plans,
        pipelineSearch(ctx).best,
        pipelineSearch(ctx, { space: hybridSpace(p) }).best,
      ].filter((x): x is Plan => !!x && x.feasible);
      const best = planAll(p).plans[0];
      if (candidates.length === 0) {
        expect(best?.feasible).toBe(false);
        continue;
      }
      const expected = Math.min(...candidates.map((x) => x.stepUs));
      expect(best?.stepUs).toBe(expected);
    }
  });
});
