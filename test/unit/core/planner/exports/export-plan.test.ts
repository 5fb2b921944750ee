/**
 * Engine exports: the DeepSpeed JSON parses with consistent batch math, the Python parses
 * (/usr/bin/python3's ast), command lines carry their flags, and DeepSpeed's partitioning is
 * reproduced exactly (checked against its own code run by Python).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportPlan, type ExportInput } from '../../../../../src-main/core/planner/exports/export-plan.js';
import {
  exportDeepSpeed,
  partitionBalanced,
  partitionUniform,
} from '../../../../../src-main/core/planner/exports/deepspeed.js';
import { exportMegatron, megatronSplit } from '../../../../../src-main/core/planner/exports/megatron.js';
import { exportSlurm } from '../../../../../src-main/core/planner/exports/slurm.js';
import { exportTorchPipelining } from '../../../../../src-main/core/planner/exports/torch.js';
import type { Plan, PlanDevice, Stage } from '../../../../../src-main/core/planner/types.js';
import type { ServingLaunch } from '../../../../../src-main/core/planner/exports/serving/serving-launch.js';
import type { EngineName } from '../../../../../src-main/core/engines/engine-names.js';
import { needOracle, ORACLE_PYTHON } from '../../../../helpers/oracle.js';
import { paramLayers, pipelinePlan, planGpu } from '../../../../helpers/plan-exports.js';

const PYTHON = ORACLE_PYTHON;
/** DeepSpeed's own partition_uniform / partition_balanced (numpy). */
const DEEPSPEED_PARTITION = fileURLToPath(
  new URL('../../../../helpers/python/deepspeed_partition.py', import.meta.url),
);

function assertParses(source: string): void {
  execFileSync(PYTHON, ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], {
    input: source,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Shell words: whitespace-separated, single quotes group (what shellQuote writes). */
function tokenize(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g))
    out.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] ?? ''));
  return out;
}
const flag = (tokens: string[], name: string): string | undefined => {
  const i = tokens.indexOf(name);
  return i < 0 ? undefined : tokens[i + 1];
};

/** The plan served by `engine` (an inference plan of a served decoder): its launch line. */
function serve(
  i: ExportInput,
  engine: EngineName,
  model = 'model.gguf',
  weights?: ExportInput['weights'],
): ServingLaunch {
  const e = exportPlan({
    ...i,
    problem: { ...i.problem, mode: 'inference' },
    ...(weights ? { weights } : {}),
    serving: { engine, model, prompt: 1024, tokens: 256 },
  });
  if (e.kind !== 'serving') throw new Error('not a serving export');
  return e.launch;
}

/** GPT-2-small-like layers: embeddings, block.0..11, head. */
const LAYERS = paramLayers([
  { name: 'embeddings', params: 39_383_808 },
  ...Array.from({ length: 12 }, (_, i) => ({ name: `block.${i}`, params: 7_087_872 })),
  { name: 'head', params: 1536 },
]);

const gpu = (machine: string, i: number, name = 'NVIDIA GeForce RTX 4090'): PlanDevice =>
  planGpu(machine, i, name, 24, 'profiled');
const cpu = (machine: string): PlanDevice => ({ ...gpu(machine, 0), id: `${machine}/cpu`, name: 'CPU', kind: 'cpu' });

function input(p: Plan, devices: PlanDevice[], extra: Partial<ExportInput['problem']> = {}): ExportInput {
  return { plan: p, problem: { layers: LAYERS, devices, mode: 'training', batch: 32, zeroStage: 1, ...extra } };
}

/** 3 stages on one machine: [embeddings, block.0-3] [block.4-8] [block.9-11, head] = blocks 4, 5, 3. */
const ONE_MACHINE = input(pipelinePlan([0, 5, 10, 14], [['lab/cuda:2'], ['lab/cuda:0'], ['lab/cuda:1']], 8), [
  gpu('lab', 0),
  gpu('lab', 1),
  gpu('lab', 2),
]);

/** 2 stages x 2 replicas on two machines, 4 microbatches of 64. */
const TWO_MACHINES = input(
  pipelinePlan(
    [0, 7, 14],
    [
      ['a/cuda:0', 'a/cuda:1'],
      ['b/cuda:0', 'b/cuda:1'],
    ],
    4,
  ),
  [gpu('a', 0), gpu('a', 1), gpu('b', 0), gpu('b', 1)],
  { batch: 64 },
);

describe('torch.distributed.pipelining export', () => {
  it('writes a script that parses, with a split point at each later stage', () => {
    const t = exportTorchPipelining(ONE_MACHINE);
    assertParses(t.python);
    expect(t.splitPoints).toEqual(['block.4', 'block.9']);
    expect(t.python).toContain('STAGE_BLOCKS = [(0, 4), (4, 9), (9, 12)]');
    expect(t.python).toContain('SCHEDULE = "1f1b"');
    expect(t.python).toContain('N_MICROBATCHES = 8');
    expect(t.python).toContain('MICROBATCH_SIZE = 4');
    expect(t.warnings).toEqual([]);
  });

  it('launches one torchrun on the plan GPUs in stage order', () => {
    const [cmd, ...rest] = exportTorchPipelining(ONE_MACHINE).commands;
    expect(rest).toEqual([]);
    const tokens = tokenize(cmd ?? '');
    expect(tokens).toContain('CUDA_VISIBLE_DEVICES=2,0,1');
    expect(tokens).toContain('CUDA_DEVICE_ORDER=PCI_BUS_ID');
    expect(tokens).toContain('--standalone');
    expect(flag(tokens, '--nproc_per_node')).toBe('3');
    expect(tokens[tokens.length - 1]).toBe('train_pipeline.py');
  });

  it('launches one torchrun per machine with node ranks and the rendezvous host', () => {
    const t = exportTorchPipelining({ ...TWO_MACHINES, script: 'my train.py' });
    assertParses(t.python);
    expect(t.python).toContain('DP = 2');
    expect(t.commands).toHaveLength(2);
    t.commands.forEach((c, nodeRank) => {
      const tokens = tokenize(c);
      expect(flag(tokens, '--nnodes')).toBe('2');
      expect(flag(tokens, '--node_rank')).toBe(String(nodeRank));
      expect(flag(tokens, '--nproc_per_node')).toBe('2');
      expect(flag(tokens, '--master_addr')).toBe('a');
      expect(flag(tokens, '--master_port')).toBe('29500');
      expect(tokens[tokens.length - 1]).toBe('my train.py');
    });
  });

  it('warns once per machine whose devices have no CUDA index, even when its ranks are not contiguous', () => {
    const t = exportTorchPipelining(
      input(pipelinePlan([0, 5, 10, 14], [['a/cpu'], ['b/cuda:0'], ['a/cpu']], 4), [cpu('a'), gpu('b', 0)]),
    );
    const unindexed = t.warnings.filter((w) => w.startsWith('a: devices without a CUDA index'));
    expect(unindexed).toHaveLength(1);
    expect(t.warnings.some((w) => /not contiguous/.test(w))).toBe(true);
  });

  it('runs the forward passes only for inference', () => {
    const t = exportTorchPipelining(input(ONE_MACHINE.plan, ONE_MACHINE.problem.devices, { mode: 'inference' }));
    assertParses(t.python);
    expect(t.python).toContain('TRAINING = False');
    expect(t.warnings.join(' ')).toMatch(/1F1B/);
  });
});

describe('DeepSpeed export', () => {
  const check = (e: ReturnType<typeof exportDeepSpeed>, dp: number): void => {
    const c = JSON.parse(e.configJson) as Record<string, number>;
    expect(c.train_batch_size).toBe(
      (c.train_micro_batch_size_per_gpu as number) * (c.gradient_accumulation_steps as number) * dp,
    );
  };

  it('writes a config whose batch sizes agree, and a uniform PipelineModule when that is the plan', () => {
    const e = exportDeepSpeed(ONE_MACHINE);
    check(e, 1);
    expect(e.config).toMatchObject({
      train_batch_size: 32,
      train_micro_batch_size_per_gpu: 4,
      gradient_accumulation_steps: 8,
      zero_optimization: { stage: 1 },
      bf16: { enabled: true },
      // AdamW (DeepSpeed's FusedAdam) and no clipping, as deepspeed-stack.ts prices the step.
      optimizer: { type: 'AdamW', params: { lr: 3e-4, betas: [0.9, 0.95], weight_decay: 0.1 } },
    });
    expect(e.config).not.toHaveProperty('gradient_clipping');
    expect(e.partition).toEqual({ method: 'uniform', parts: [0, 5, 10, 14] });
    expect(e.pipelineModule).toContain('partition_method="uniform"');
    assertParses(e.pipelineModule);
  });

  it('counts data parallelism in the batch and caps ZeRO at 1 under pipelining', () => {
    const e = exportDeepSpeed({ ...TWO_MACHINES, dtype: 'fp16', problem: { ...TWO_MACHINES.problem, zeroStage: 3 } });
    check(e, 2);
    expect(e.config.train_batch_size).toBe(64);
    expect(e.config.train_micro_batch_size_per_gpu).toBe(8);
    expect(e.config.zero_optimization.stage).toBe(1);
    expect(e.config.fp16).toEqual({ enabled: true });
    expect(e.warnings.join(' ')).toMatch(/ZeRO stage 0 or 1/);
    expect(flag(tokenize(e.commands[0] ?? ''), '--deepspeed_config')).toBe('ds_config.json');
  });

  it('writes explicit boundaries when neither uniform nor parameters gives them', () => {
    const e = exportDeepSpeed(
      input(
        pipelinePlan([0, 3, 10, 14], [['lab/cuda:0'], ['lab/cuda:1'], ['lab/cuda:2']], 8),
        ONE_MACHINE.problem.devices,
      ),
    );
    expect(e.partition).toEqual({ method: 'custom', parts: [0, 3, 10, 14] });
    expect(e.pipelineModule).toContain('PARTS = [0, 3, 10, 14]');
    assertParses(e.pipelineModule);
    expect(e.warnings.join(' ')).toMatch(/private API/);
  });

  it('keeps the batch math consistent when the batch does not split evenly, with a warning', () => {
    const e = exportDeepSpeed(input(ONE_MACHINE.plan, ONE_MACHINE.problem.devices, { batch: 30 }));
    check(e, 1);
    expect(e.config.train_batch_size).toBe(24);
    expect(e.warnings.join(' ')).toMatch(/batch 30 does not split/);
  });

  it('splits 14 layers uniformly into 3 as DeepSpeed does', () => {
    expect(partitionUniform(14, 3)).toEqual([0, 5, 10, 14]);
  });

  it.skipIf(!needOracle('numpy'))(
    'partitions exactly as DeepSpeed does (its partition_uniform / partition_balanced run by Python)',
    () => {
      const cases: [number[], number][] = [
        [LAYERS.map((l) => l.params), 3],
        [[5, 1, 1, 1, 1, 1, 1, 5], 3],
        [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4],
        [[3, 3, 3], 5],
        [[0, 7, 0, 7, 0, 7, 1], 2],
      ];
      const expected = JSON.parse(
        execFileSync(PYTHON, [DEEPSPEED_PARTITION], { input: JSON.stringify(cases) }).toString(),
      ) as [number[], number[]][];
      cases.forEach(([w, m], i) => {
        expect(partitionUniform(w.length, m)).toEqual(expected[i]?.[0]);
        expect(partitionBalanced(w, m)).toEqual(expected[i]?.[1]);
      });
    },
  );
});

describe('Megatron-LM export', () => {
  it('sets the pipeline, batch and uneven end stages with first/last layer counts', () => {
    const m = exportMegatron(ONE_MACHINE);
    const t = m.args;
    expect(flag(t, '--pipeline-model-parallel-size')).toBe('3');
    expect(flag(t, '--tensor-model-parallel-size')).toBe('1');
    expect(flag(t, '--num-layers')).toBe('12');
    expect(flag(t, '--micro-batch-size')).toBe('4');
    expect(flag(t, '--global-batch-size')).toBe('32');
    expect(flag(t, '--decoder-first-pipeline-num-layers')).toBe('4');
    expect(flag(t, '--decoder-last-pipeline-num-layers')).toBe('3');
    expect(t).toContain('--bf16');
    // Clipping by norm at 1.0, as megatron-stack.ts prices the step (Megatron-LM's default, written out).
    expect(flag(t, '--clip-grad')).toBe('1.0');
    expect(m.layout).toBeNull();
    const cmd = tokenize(m.commands[0] ?? '');
    expect(cmd).toContain('pretrain_gpt.py');
    expect(flag(cmd, '--num-layers')).toBe('12');
  });

  it('needs a layout when middle stages differ', () => {
    expect(megatronSplit([4, 4, 4])).toEqual({});
    expect(megatronSplit([5, 7])).toEqual({ first: 5 });
    expect(megatronSplit([2, 4, 4, 4])).toEqual({ first: 2 });
    expect(megatronSplit([3, 3, 4, 2])).toEqual({ layout: 'Ettt|ttt|tttt|ttL' });
    const m = exportMegatron(
      input(
        pipelinePlan([0, 4, 7, 11, 14], [['lab/cuda:0'], ['lab/cuda:1'], ['lab/cuda:2'], ['lab/cuda:3']], 8),
        [0, 1, 2, 3].map((i) => gpu('lab', i)),
      ),
    );
    expect(flag(m.args, '--pipeline-model-parallel-layout')).toBe('Ettt|ttt|tttt|ttL');
    expect(m.args).not.toContain('--decoder-first-pipeline-num-layers');
    expect(m.warnings.join(' ')).toMatch(/pipeline-model-parallel-layout/);
  });

  it('warns about what Megatron-LM cannot express: GPU types, CPU stages, per-stage dp', () => {
    const devices = [gpu('lab', 0), gpu('lab', 1, 'NVIDIA GeForce RTX 2080 SUPER'), gpu('lab', 2), cpu('lab')];
    const m = exportMegatron(
      input(pipelinePlan([0, 5, 10, 14], [['lab/cuda:0', 'lab/cuda:2'], ['lab/cuda:1'], ['lab/cpu']], 8), devices),
    );
    const w = m.warnings.join('\n');
    expect(w).toMatch(/one GPU type/);
    expect(w).toMatch(/cannot include a CPU: stage 2/);
    expect(w).toMatch(/2, 1, 1 devices per stage/);
  });
});

describe('llama.cpp launch line', () => {
  it('splits layers across GPUs in stage order with -ts proportional to their blocks', () => {
    const l = serve(input(ONE_MACHINE.plan, ONE_MACHINE.problem.devices), 'llama.cpp', 'gpt2.gguf', 'q8_0');
    expect(l.env).toEqual({ CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: '2,0,1' });
    expect(flag(l.args, '-ts')).toBe('4,5,3');
    expect(flag(l.args, '-sm')).toBe('layer');
    expect(flag(l.args, '-ngl')).toBe('13');
    const tokens = tokenize(l.command);
    expect(tokens.slice(0, 3)).toEqual(['CUDA_DEVICE_ORDER=PCI_BUS_ID', 'CUDA_VISIBLE_DEVICES=2,0,1', 'llama-server']);
    expect(flag(tokens, '-m')).toBe('gpt2.gguf');
  });

  it('keeps leading CPU stages on the CPU (-ngl counts only offloaded blocks)', () => {
    const devices = [cpu('lab'), gpu('lab', 0), gpu('lab', 1)];
    const p = pipelinePlan([0, 5, 10, 14], [['lab/cpu'], ['lab/cuda:0'], ['lab/cuda:1']], 1);
    const l = serve(input(p, devices), 'llama.cpp', 'gpt2.gguf', 'q4_k');
    expect(flag(l.args, '-ngl')).toBe('8');
    expect(flag(l.args, '-ts')).toBe('5,3');
    expect(l.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/output layer on the CPU/)]));
  });

  it('warns for data parallelism, several machines and CPU stages after GPUs', () => {
    const devices = [gpu('lab', 0), cpu('lab')];
    const l = serve(
      input(pipelinePlan([0, 7, 14], [['lab/cuda:0'], ['lab/cpu']], 1), devices),
      'llama.cpp',
      'gpt2.gguf',
      'q8_0',
    );
    expect(l.warnings.join('\n')).toMatch(/CPU stage after a GPU stage/);
    const two = serve(TWO_MACHINES, 'llama.cpp', 'gpt2.gguf', 'q8_0');
    expect(two.warnings.join('\n')).toMatch(/no data parallelism[\s\S]*RPC|RPC[\s\S]*no data parallelism/);
    expect(two.env).toEqual({});
  });
});

describe('all exports of a plan', () => {
  it('gives a training plan its training launchers, and no fine-tuning export without a fine-tuning spec', () => {
    const all = exportPlan(ONE_MACHINE);
    expect(Object.keys(all)).toEqual([
      'kind',
      'torch',
      'deepspeed',
      'megatron',
      'slurm',
      'accelerate',
      'finetune',
      'launcher',
    ]);
    if (all.kind !== 'training') throw new Error('not training');
    expect(all.finetune).toBeNull();
    // Without a stack: every launcher, job.sbatch running the torch script.
    expect(all.launcher).toBeNull();
    expect(all.slurm.sbatch).toMatch(/ train_pipeline\.py/);
    expect(all.deepspeed.config.train_batch_size).toBe(32);
  });

  it("makes job.sbatch run the stack's launcher (plan --stack)", () => {
    const megatron = exportPlan({ ...ONE_MACHINE, launcher: 'megatron' });
    if (megatron.kind !== 'training') throw new Error('not training');
    expect(megatron.launcher).toBe('megatron');
    expect(megatron.slurm.sbatch).toMatch(/ pretrain_gpt\.py --tensor-model-parallel-size /);
    const deepspeed = exportPlan({ ...ONE_MACHINE, launcher: 'deepspeed' });
    if (deepspeed.kind !== 'training') throw new Error('not training');
    expect(deepspeed.slurm.sbatch).toMatch(/ train_deepspeed\.py --deepspeed_config ds_config\.json/);
  });

  it("gives a serving plan its engine's launch line only", () => {
    const all = exportPlan({
      ...ONE_MACHINE,
      problem: { ...ONE_MACHINE.problem, mode: 'inference' },
      serving: { engine: 'vllm', model: 'gpt2', prompt: 100, tokens: 28 },
    });
    expect(Object.keys(all)).toEqual(['kind', 'launch']);
    expect(JSON.stringify(all)).not.toMatch(/torchrun|deepspeed|megatron|pretrain_gpt/i);
  });
});

/** Tensor parallelism: 2 stages of TP 4 over 8 GPUs of one machine, serving. */
function tensorPlan(tp: number[], devicesPerStage: number, bounds = [0, 7, 14]): ExportInput {
  const devices = Array.from({ length: 2 * devicesPerStage }, (_, i) => gpu('node', i, 'NVIDIA H100 80GB HBM3'));
  const p = pipelinePlan(
    bounds,
    [devices.slice(0, devicesPerStage).map((d) => d.id), devices.slice(devicesPerStage).map((d) => d.id)],
    1,
  );
  p.stages.forEach((s, i) => (s.tp = tp[i] ?? 1));
  return input(p, devices, { mode: 'inference', batch: 8 });
}

describe('tensor-parallel exports', () => {
  it('Megatron-LM: --tensor-model-parallel-size with sequence parallelism, ranks with TP innermost', () => {
    const e = exportMegatron(tensorPlan([4, 4], 4));
    const t = tokenize(e.commands.join(' '));
    expect(flag(t, '--tensor-model-parallel-size')).toBe('4');
    expect(flag(t, '--pipeline-model-parallel-size')).toBe('2');
    expect(t).toContain('--sequence-parallel');
    expect(flag(t, '--nproc_per_node')).toBe('8');
    expect(flag(t, '--global-batch-size')).toBe('8');
  });

  it('Megatron-LM: --tp-comm-overlap where the stack overlaps TP communication on every rank', () => {
    const plain = tensorPlan([4, 4], 4);
    const ids = plain.problem.devices.map((d) => d.id);
    const on = (smCount: Record<string, number>): ExportInput => ({
      ...plain,
      problem: { ...plain.problem, tensorOverlap: { pipelineSplits: 4, commSms: 16, smCount } },
    });
    const all = Object.fromEntries(ids.map((id) => [id, 132]));
    expect(exportMegatron(on(all)).args).toContain('--tp-comm-overlap');
    expect(exportMegatron(plain).args).not.toContain('--tp-comm-overlap');
    expect(exportMegatron(on({ [ids[0] as string]: 132 })).args).not.toContain('--tp-comm-overlap');
  });

  it('vLLM: tensor and pipeline sizes, the uneven layer partition and GPUs in rank order', () => {
    const e = serve(tensorPlan([4, 4], 4, [0, 5, 14]), 'vllm', 'meta-llama/Llama-3.1-70B-Instruct', 'bf16');
    const t = tokenize(e.command);
    expect(t.slice(t.indexOf('vllm'), t.indexOf('vllm') + 3)).toEqual([
      'vllm',
      'serve',
      'meta-llama/Llama-3.1-70B-Instruct',
    ]);
    expect(flag(t, '--tensor-parallel-size')).toBe('4');
    expect(flag(t, '--pipeline-parallel-size')).toBe('2');
    expect(e.env.VLLM_PP_LAYER_PARTITION).toBe('4,8');
    expect(e.env.CUDA_VISIBLE_DEVICES).toBe('0,1,2,3,4,5,6,7');
    expect(e.warnings).toEqual([]);
  });

  it('vLLM: replicas become --data-parallel-size', () => {
    const e = serve(tensorPlan([2, 2], 4), 'vllm', 'm', 'bf16');
    expect(flag(tokenize(e.command), '--data-parallel-size')).toBe('2');
  });

  it('llama.cpp: one tensor-parallel stage is a row split over its GPUs; with a pipeline, a warning', () => {
    const devices = Array.from({ length: 4 }, (_, i) => gpu('node', i));
    const p = pipelinePlan([0, 14], [devices.map((d) => d.id)], 1);
    (p.stages[0] as Stage).tp = 4;
    const e = serve(input(p, devices, { batch: 1 }), 'llama.cpp', 'm.gguf', 'q4_k');
    const t = tokenize(e.command);
    expect(flag(t, '-sm')).toBe('row');
    expect(flag(t, '-ts')).toBe('1,1,1,1');
    expect(e.env.CUDA_VISIBLE_DEVICES).toBe('0,1,2,3');
    const piped = serve(tensorPlan([4, 4], 4), 'llama.cpp', 'm.gguf', 'q4_k');
    expect(flag(tokenize(piped.command), '-sm')).toBe('layer');
    expect(piped.warnings.join(' ')).toMatch(/either by layer or by row/);
  });

  it("torch: the plan's pipeline and tensor-parallel degrees, with Megatron's splits in the script", () => {
    const e = exportTorchPipelining(tensorPlan([4, 4], 4));
    assertParses(e.python);
    expect(e.python).toContain('TP = 4');
    expect(e.python).toContain('PP = 2');
    expect(e.python).toContain('class _ReduceFromTP(torch.autograd.Function):');
  });

  it('DeepSpeed: the pipe topology carries the model-parallel axis', () => {
    const e = exportDeepSpeed(tensorPlan([4, 4], 4));
    assertParses(e.pipelineModule);
    expect(e.pipelineModule).toContain('PipeModelDataParallelTopology(num_pp=2, num_mp=4, num_dp=1)');
    expect(e.config.train_micro_batch_size_per_gpu * e.config.gradient_accumulation_steps).toBe(8);
  });

  it('stages of different tensor-parallel degrees export the smallest, with a warning', () => {
    const e = exportMegatron(tensorPlan([4, 2], 4));
    expect(flag(tokenize(e.commands.join(' ')), '--tensor-model-parallel-size')).toBe('2');
    expect(e.warnings.join(' ')).toMatch(/one tensor-parallel degree on every stage; the plan has 4, 2/);
  });
});

describe('Slurm export', () => {
  const bashParses = (script: string): void => {
    execFileSync('bash', ['-n'], { input: script, stdio: ['pipe', 'pipe', 'pipe'] });
  };

  it('one job on one kind of node: torchrun per node with a static rendezvous in rank order', () => {
    const e = exportSlurm(TWO_MACHINES, { time: '02:00:00' });
    bashParses(e.sbatch);
    expect(e.sbatch).not.toContain('hetjob');
    expect(e.sbatch).toContain('#SBATCH --nodes=2 --nodelist=a,b --ntasks-per-node=1');
    expect(e.sbatch).toContain('#SBATCH --gres=gpu:2');
    expect(e.sbatch).toContain('#SBATCH --time=02:00:00');
    expect(e.sbatch).toContain('  a) NODE_RANK=0; NPROC=2; DEVICES=0,1; ;;');
    expect(e.sbatch).toContain('  b) NODE_RANK=1; NPROC=2; DEVICES=0,1; ;;');
    expect(e.sbatch).toMatch(/exec torchrun --nnodes 2 --node_rank "\$NODE_RANK" --nproc_per_node "\$NPROC"/);
    expect(e.hostfile).toBe('a slots=2\nb slots=2\n');
  });

  it('a heterogeneous job, one component per kind of node, when the GPU models differ', () => {
    const devices = [gpu('a', 0, 'NVIDIA H100 80GB HBM3'), gpu('b', 0), gpu('b', 1)];
    const p = input(pipelinePlan([0, 7, 14], [['a/cuda:0'], ['b/cuda:0']], 4), devices);
    const e = exportSlurm(p);
    bashParses(e.sbatch);
    expect(e.sbatch.match(/#SBATCH hetjob/g)).toHaveLength(1);
    expect(e.sbatch).toContain('# component 0: NVIDIA H100 80GB HBM3');
    expect(e.sbatch).toContain('# component 1: NVIDIA GeForce RTX 4090');
    expect(e.sbatch).toContain('srun --het-group=0-1 bash -c');
    expect(e.sbatch).toContain('SLURM_JOB_NODELIST_HET_GROUP_0');
    expect(e.hostfile).toBe('a slots=1\nb slots=1\n');
  });

  it('quotes a hostname a shell would read as more than a word', () => {
    const devices = [gpu("node'1", 0)];
    const p = input(pipelinePlan([0, 14], [["node'1/cuda:0"]], 1), devices);
    const e = exportSlurm(p);
    bashParses(e.sbatch);
  });
});

describe('Slurm export of a plan that goes back and forth between nodes', () => {
  it('warns that one torchrun per node cannot keep the planned rank order', () => {
    const devices = [gpu('a', 0), gpu('b', 0), gpu('a', 1)];
    const p = input(pipelinePlan([0, 5, 10, 14], [['a/cuda:0'], ['b/cuda:0'], ['a/cuda:1']], 4), devices);
    expect(exportSlurm(p).warnings.join(' ')).toMatch(/go back and forth between nodes \(a, b, a\)/);
  });
});
