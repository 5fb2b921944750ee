/**
 * Hybrid sharding (HSDP: ZeRO-3 inside shard groups, replicated across them): `--layout ...,shard=N`
 * (layout.ts), its memory and collectives (stage-cost.ts, sharded-sync.ts) and its exports.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { CostModel } from '../../../../src-main/core/planner/cost/cost-model.js';
import { hybridGroups } from '../../../../src-main/core/planner/cost/sharded-sync.js';
import { exportPlan, type ExportInput } from '../../../../src-main/core/planner/exports/export-plan.js';
import { parseLayout, priceLayout } from '../../../../src-main/core/planner/layout.js';
import { plannerContext } from '../../../../src-main/core/planner/problem/problem.js';
import type { Plan, PlanDevice, PlanProblem } from '../../../../src-main/core/planner/types.js';
import { likeGpus } from '../../../helpers/like-gpus.js';
import { TRAINING_DEFAULTS } from '../../../helpers/two-gpu-problem.js';
import { oracleYaml, paramLayers, planGpu, trainingExports, UNREAD_FIGURES } from '../../../helpers/plan-exports.js';

/** Eight like GPUs; four layers of 1e9 parameters. */
function problem(over: Partial<PlanProblem> = {}, forwardUs = 1000): PlanProblem {
  const { devices, links, times } = likeGpus(8);
  return {
    layers: Array.from({ length: 4 }, (_, i) => ({
      name: `block.${i}`,
      forwardUs: times(forwardUs),
      backwardUs: times(2 * forwardUs),
      params: 1e9,
      outBytesPerSample: 1e6,
      activationBytesPerSample: 1e7,
    })),
    devices,
    links,
    ...TRAINING_DEFAULTS,
    ...over,
  };
}

const price = (text: string, p = problem(), stack?: 'fsdp' | 'megatron') =>
  priceLayout(p, parseLayout(text), { workload: 'toy', ...(stack ? { stack } : {}) });

describe('hybrid groups', () => {
  const ring = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

  it('cuts a shard ring into shard groups of consecutive devices and replica groups across them', () => {
    expect(hybridGroups(ring, 4)).toEqual({
      shards: [
        ['a', 'b', 'c', 'd'],
        ['e', 'f', 'g', 'h'],
      ],
      replicas: [
        ['a', 'e'],
        ['b', 'f'],
        ['c', 'g'],
        ['d', 'h'],
      ],
    });
  });

  it('is one shard group without a group, or with the whole ring', () => {
    for (const g of [undefined, 8, 16]) expect(hybridGroups(ring, g)).toEqual({ shards: [ring], replicas: [] });
  });
});

describe('--layout shard=N', () => {
  it('prices ZeRO-3 over shard groups of N replicas, and says so', () => {
    const r = price('tp=1,pp=1,dp=8,zero=3,shard=4,mb=1');
    expect(r.text).toBe('tp=1,pp=1,dp=8,zero=3,recompute=none,mb=1,schedule=1f1b,shard=4');
    expect(r.plan.shardGroup).toBe(4);
    expect(r.problem.shardGroup).toBe(4);
    // shard = dp is plain ZeRO-3.
    expect(price('dp=8,zero=3,shard=8').plan.shardGroup).toBeUndefined();
  });

  it('holds the state of a shard group: more than ZeRO-3 over all 8, less than DDP', () => {
    const need = (text: string): number => price(text).plan.memory[0]?.neededBytes ?? 0;
    const [full, hybrid, ddp] = [need('dp=8,zero=3,mb=1'), need('dp=8,zero=3,shard=4,mb=1'), need('dp=8,zero=0,mb=1')];
    expect(hybrid).toBeGreaterThan(full);
    expect(hybrid).toBeLessThan(ddp);
    // Weights, gradients and Adam state (16 bytes a parameter) over 4 rather than 8: 4e9 x 16 x (1/4 − 1/8).
    expect(hybrid - full).toBeCloseTo(4e9 * 16 * (1 / 4 - 1 / 8), -3);
  });

  it('refuses what hybrid sharding cannot run, in one line each', () => {
    expect(() => price('dp=8,zero=3,shard=3')).toThrow(
      '--layout shard=3: a shard group must divide dp=8 (shard groups that do: 1, 2, 4, 8)',
    );
    expect(() => price('dp=8,zero=1,shard=4')).toThrow(
      '--layout shard=4: hybrid sharding shards weights, gradients and optimizer state (zero=3); got zero=1',
    );
    expect(() => price('dp=8,zero=3,shard=4', problem(), 'megatron')).toThrow(
      '--layout shard=4: --stack megatron does not run hybrid sharding (fsdp and torchtitan do)',
    );
    expect(() => price('dp=8,zero=3,shard=0')).toThrow('--layout: shard takes a whole number from 1 to 4096; got "0"');
  });
});

describe('hybrid sharding collectives', () => {
  /** Records each collective's devices and bytes; each costs 100 µs. */
  function recording(): { cost: CostModel; calls: string[] } {
    const calls: string[] = [];
    const log = (op: string) => (ids: readonly string[], bytes: number) => {
      calls.push(`${op} ${ids.length} ${bytes}`);
      return 100;
    };
    const cost: CostModel = {
      linkUs: () => 0,
      allReduceUs: log('all_reduce'),
      allGatherUs: log('all_gather'),
      reduceScatterUs: log('reduce_scatter'),
    };
    return { cost, calls };
  }

  it('gathers and reduce-scatters inside a shard group, then all-reduces its shard across the groups', () => {
    const { cost, calls } = recording();
    const ctx = plannerContext(problem({ zeroStage: 3, shardGroup: 4 }, 0), cost);
    // No compute to hide behind: per layer two gathers, and a reduce-scatter followed by the all-reduce.
    expect(ctx.tables.gradientSyncUs([0, 1, 2, 3, 4, 5, 6, 7], 0, 4, 1, 8)).toBe(4 * (2 * 100 + 100 + 100));
    const distinct = [...new Set(calls)].sort();
    expect(distinct).toEqual(['all_gather 4 2000000000', 'all_reduce 2 500000000', 'reduce_scatter 4 2000000000']);
  });

  it('is ZeRO-3 over all the replicas without a shard group', () => {
    const { cost, calls } = recording();
    plannerContext(problem({ zeroStage: 3 }, 0), cost).tables.gradientSyncUs([0, 1, 2, 3, 4, 5, 6, 7], 0, 4, 1, 8);
    expect([...new Set(calls)].sort()).toEqual(['all_gather 8 2000000000', 'reduce_scatter 8 2000000000']);
  });
});

describe('exports', () => {
  const gpu = (i: number, machine: string): PlanDevice => planGpu(machine, i, 'NVIDIA H100 SXM5 80GB', 80, 'datasheet');

  /** Eight GPUs on `machines` machines, data parallel under ZeRO-3 with shard groups of 4. */
  function hybridInput(machines: number): ExportInput {
    const devices = Array.from({ length: 8 }, (_, i) => gpu(i % (8 / machines), `m${Math.floor(i / (8 / machines))}`));
    const plan: Plan = {
      kind: 'data-parallel',
      stages: [{ from: 0, to: 4, devices: devices.map((d) => d.id), timeUs: 1, memoryBytes: {} }],
      microbatches: 1,
      schedule: '1f1b',
      ...UNREAD_FIGURES,
      zeroStage: 3,
      shardGroup: 4,
    };
    const layers = paramLayers(Array.from({ length: 4 }, (_, i) => ({ name: `block.${i}`, params: 500 })));
    return { plan, problem: { layers, devices, mode: 'training', batch: 8, zeroStage: 0 } };
  }

  it('runs FSDP HYBRID_SHARD over shard and replicate groups in the torch script', () => {
    const py = trainingExports(exportPlan(hybridInput(2))).torch.python;
    execFileSync('/usr/bin/python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { input: py });
    expect(py).toContain('SHARD_GROUP = 4');
    expect(py).toContain('strategy, group = ShardingStrategy.HYBRID_SHARD, (GROUPS["shard"], GROUPS["replicate"])');
    const full = trainingExports(
      exportPlan({ ...hybridInput(2), plan: { ...hybridInput(2).plan, shardGroup: undefined } }),
    );
    expect(full.torch.python).toContain('SHARD_GROUP = 0');
  });

  it('writes HYBRID_SHARD in the accelerate config, and warns where a shard group is not a machine', () => {
    const onMachines = trainingExports(exportPlan(hybridInput(2))).accelerate;
    expect(oracleYaml(onMachines.yaml).fsdp_config).toMatchObject({ fsdp_sharding_strategy: 'HYBRID_SHARD' });
    expect(onMachines.warnings.join('\n')).not.toContain('HYBRID_SHARD');
    expect(trainingExports(exportPlan(hybridInput(1))).accelerate.warnings).toContain(
      "accelerate's HYBRID_SHARD shards over each machine's GPUs; the plan's shard groups are of 4 (the torch export runs them)",
    );
  });
});
