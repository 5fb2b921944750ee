/**
 * Optimizer offload puts fp32 master weights and Adam moments in host memory: a plan whose
 * offloaded state does not fit the host's RAM does not fit, is never the best plan, and says so.
 */
import { describe, expect, it } from 'vitest';
import { planAll } from '../../../../../src-main/core/planner/search/index.js';
import { searchRanked } from '../../../../../src-main/core/planner/search/plan-ranking.js';
import { alphaBetaCostModel } from '../../../../../src-main/core/planner/cost/cost-model.js';
import type { OptimizerOffload, PlanProblem } from '../../../../../src-main/core/planner/types.js';
import { SMALL_GPUS, twoGpuProblem } from '../../../../helpers/two-gpu-problem.js';

const GIB = 2 ** 30;

/** Two GPUs too small for the full optimizer state of 4 x 1e8 parameters (6.4 GB), large enough for fp16 weights and grads. */
function problem(hostBytes: number | null): PlanProblem {
  const offload: OptimizerOffload = {
    hostGBps: {},
    defaultHostGBps: 12,
    cpuGBps: 20,
    ...(hostBytes !== null ? { hostMemory: { m: { bytes: hostBytes, source: 'probed' as const } } } : {}),
  };
  return twoGpuProblem(SMALL_GPUS, { optimizerOffload: offload });
}

describe('host memory of an optimizer offload', () => {
  it('fits when the host holds the 12 bytes per parameter of fp32 master weights and Adam moments', () => {
    const r = planAll(problem(64 * GIB));
    expect(r.plans.some((p) => p.feasible)).toBe(true);
  });

  it('rejects every offloaded plan when the host is too small, stating both figures', () => {
    // 4e8 parameters x 12 bytes = 4.8e9 bytes = 4.5 GiB of host memory; the host has 2 GiB.
    const r = planAll(problem(2 * GIB));
    expect(r.plans.filter((p) => p.feasible)).toEqual([]);
    const reasons = r.plans.flatMap((p) => p.reasons).join('\n');
    expect(reasons).toMatch(/host memory/);
    expect(reasons).toMatch(/4\.5 GiB/);
    expect(reasons).toMatch(/2\.0 GiB \(probed\)/);
    expect(r.rejected.map((x) => x.reason).join('\n')).toMatch(/host memory.*4\.5 GiB.*2\.0 GiB/);
  });

  it('never ranks an offloaded plan that overflows the host as best, nor among plans that fit', () => {
    const p = problem(2 * GIB);
    const plain: PlanProblem = { ...p, devices: p.devices.map((d) => ({ ...d, memoryBytes: 8e9 })) };
    const { optimizerOffload: _o, ...noOffload } = plain;
    const ranked = searchRanked(noOffload, alphaBetaCostModel(noOffload), {
      topN: 20,
      offload: 'auto',
      settings: plain.optimizerOffload ?? null,
    });
    expect(ranked.best).not.toBeNull();
    expect(ranked.best?.plan.optimizerOffload).toBeUndefined();
    const firstBad = ranked.result.plans.findIndex((x) => !x.feasible);
    const offloaded = ranked.result.plans.filter((x) => x.optimizerOffload);
    expect(offloaded.every((x) => !x.feasible)).toBe(true);
    if (firstBad >= 0) expect(ranked.result.plans.slice(firstBad).every((x) => !x.feasible)).toBe(true);
  });
});
