/**
 * Exports carry the plan's ZeRO stage: DeepSpeed zero_optimization.stage, torch FSDP
 * (FULL_SHARD / SHARD_GRAD_OP) or ZeroRedundancyOptimizer, an accelerate config, Megatron's
 * distributed optimizer. Emitted Python and YAML are checked with /usr/bin/python3.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exportPlan, type ExportInput } from '../../../../../src-main/core/planner/exports/export-plan.js';
import type { Plan, PlanDevice } from '../../../../../src-main/core/planner/types.js';
import { oracleYaml, paramLayers, planGpu, trainingExports, UNREAD_FIGURES } from '../../../../helpers/plan-exports.js';

const PYTHON = '/usr/bin/python3';

function assertParses(source: string): void {
  execFileSync(PYTHON, ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { input: source, stdio: 'pipe' });
}

const LAYERS = paramLayers([
  { name: 'embeddings', params: 1000 },
  ...Array.from({ length: 4 }, (_, i) => ({ name: `block.${i}`, params: 500 })),
  { name: 'head', params: 10 },
]);

const gpu = (i: number, machine = 'lab'): PlanDevice => planGpu(machine, i, 'NVIDIA H100 SXM5 80GB', 80, 'datasheet');

/** The whole model data parallel on four GPUs (or in two pipeline stages of two), at a ZeRO stage. */
function zeroInput(zeroStage: 0 | 1 | 2 | 3, stages = 1, machine = 'lab'): ExportInput {
  const devices = [0, 1, 2, 3].map((i) => gpu(i, machine));
  const bounds = stages === 1 ? [0, 6] : [0, 3, 6];
  const per = 4 / stages;
  const plan: Plan = {
    kind: stages === 1 ? 'data-parallel' : 'hybrid',
    stages: bounds.slice(1).map((to, s) => ({
      from: bounds[s] as number,
      to,
      devices: devices.slice(s * per, (s + 1) * per).map((d) => d.id),
      timeUs: 1,
      memoryBytes: {},
    })),
    microbatches: 2,
    schedule: '1f1b',
    ...UNREAD_FIGURES,
    zeroStage,
  };
  // The problem's stage differs: the plan's is the one exported.
  return { plan, problem: { layers: LAYERS, devices, mode: 'training', batch: 16, zeroStage: 0 } };
}

describe('DeepSpeed', () => {
  it('takes zero_optimization.stage from the plan', () => {
    for (const z of [0, 1, 2, 3] as const)
      expect(trainingExports(exportPlan(zeroInput(z))).deepspeed.config.zero_optimization.stage).toBe(z);
  });
});

describe('torch', () => {
  it('shards with FSDP: FULL_SHARD for ZeRO-3, SHARD_GRAD_OP for ZeRO-2', () => {
    const full = trainingExports(exportPlan(zeroInput(3))).torch.python;
    const gradOp = trainingExports(exportPlan(zeroInput(2))).torch.python;
    for (const py of [full, gradOp]) {
      assertParses(py);
      expect(py).toContain(
        'strategy = ShardingStrategy.FULL_SHARD if ZERO_STAGE == 3 else ShardingStrategy.SHARD_GRAD_OP',
      );
    }
    expect(full).toContain('ZERO_STAGE = 3');
    expect(gradOp).toContain('ZERO_STAGE = 2');
  });

  it('shards the optimizer state for ZeRO-1 and keeps it whole (DDP) for ZeRO-0', () => {
    const z1 = trainingExports(exportPlan(zeroInput(1))).torch.python;
    const z0 = trainingExports(exportPlan(zeroInput(0))).torch.python;
    assertParses(z1);
    assertParses(z0);
    expect(z1).toContain('ZERO_STAGE = 1');
    expect(z1).toContain('ZeroRedundancyOptimizer(');
    expect(z0).toContain('ZERO_STAGE = 0');
  });
});

describe('accelerate config', () => {
  it('is FSDP with the sharding strategy for ZeRO-3 and ZeRO-2', () => {
    const full = oracleYaml(trainingExports(exportPlan(zeroInput(3))).accelerate.yaml);
    expect(full.distributed_type).toBe('FSDP');
    expect(full.num_processes).toBe(4);
    expect(full.fsdp_config).toMatchObject({ fsdp_sharding_strategy: 'FULL_SHARD' });
    const gradOp = oracleYaml(trainingExports(exportPlan(zeroInput(2))).accelerate.yaml);
    expect(gradOp.fsdp_config).toMatchObject({ fsdp_sharding_strategy: 'SHARD_GRAD_OP' });
  });

  it('is DeepSpeed with its zero_stage for ZeRO-1, and plain multi-GPU for ZeRO-0', () => {
    const z1 = oracleYaml(trainingExports(exportPlan(zeroInput(1))).accelerate.yaml);
    expect(z1.distributed_type).toBe('DEEPSPEED');
    expect(z1.deepspeed_config).toMatchObject({ zero_stage: 1, gradient_accumulation_steps: 2 });
    expect(oracleYaml(trainingExports(exportPlan(zeroInput(0))).accelerate.yaml).distributed_type).toBe('MULTI_GPU');
  });

  it('holds a hostile machine name as a quoted string', () => {
    const name = 'lab"\n: x\u2028#';
    const e = trainingExports(exportPlan({ ...zeroInput(3, 1, name), masterAddr: name }));
    expect(oracleYaml(e.accelerate.yaml).main_process_ip).toBe(name);
  });

  it('says accelerate cannot run the pipeline', () => {
    expect(trainingExports(exportPlan(zeroInput(1, 2))).accelerate.warnings.join('\n')).toContain('pipeline');
  });
});

describe('Megatron-LM', () => {
  it('uses the distributed optimizer for ZeRO-1 only', () => {
    expect(trainingExports(exportPlan(zeroInput(1))).megatron.args).toContain('--use-distributed-optimizer');
    expect(trainingExports(exportPlan(zeroInput(0))).megatron.args).not.toContain('--use-distributed-optimizer');
  });
});
