/**
 * The emitted training scripts run: a tiny decoder (2 blocks of 64, vocab 256, from a config.json
 * read as the CLI reads one) planned four ways (one GPU, FSDP over two, two pipeline stages, two
 * tensor-parallel ranks) is exported, and train_pipeline.py runs one step on the CPU with
 * Debian's python3-torch 1.13 (gloo): at world size 1 every time, and at the plan's own two ranks
 * for the pipeline and tensor-parallel plans. Each run exits 0 and prints its loss. DeepSpeed and
 * accelerate are not installed here: their scripts are compiled, and their launch lines checked.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportPlan, type ExportInput } from '../../../../../../src-main/core/planner/exports/export-plan.js';
import { exportModelOf } from '../../../../../../src-main/core/planner/exports/python/model-config.js';
import { hfConfigDecoder } from '../../../../../../src-main/core/catalog/hf-config.js';
import type { Plan, PlanDevice } from '../../../../../../src-main/core/planner/types.js';
import { needOracle, ORACLE_PYTHON } from '../../../../../helpers/oracle.js';
import { runRanks } from '../../../../../helpers/torch-python.js';
import { paramLayers, pipelinePlan, planGpu, trainingExports } from '../../../../../helpers/plan-exports.js';
import { TINY_LLAMA_CONFIG } from '../../../../../helpers/tiny-llama-config.js';

const torch = needOracle('torch');

const CONFIG = TINY_LLAMA_CONFIG;

const LAYERS = paramLayers([
  { name: 'embed', params: 16_384 },
  { name: 'block.0', params: 40_960 },
  { name: 'block.1', params: 40_960 },
  { name: 'head', params: 16_448 },
]);
const gpus = (n: number): PlanDevice[] =>
  Array.from({ length: n }, (_, i) => planGpu('node', i, 'NVIDIA A100-SXM4-80GB', 80, 'profiled'));

function input(plan: Plan, devices: PlanDevice[], zeroStage: 0 | 1 | 2 | 3): ExportInput {
  const { entry } = hfConfigDecoder(CONFIG, 'config.json', 'tiny');
  return {
    plan,
    problem: { layers: LAYERS, devices, mode: 'training', batch: 4, zeroStage },
    dtype: 'bf16',
    model: exportModelOf(entry, 'tiny', 16),
  };
}

const tensorParallel: Plan = {
  ...pipelinePlan([0, 4], [['node/cuda:0', 'node/cuda:1']], 2),
  stages: [{ ...pipelinePlan([0, 4], [['node/cuda:0', 'node/cuda:1']], 2).stages[0]!, tp: 2 }],
};

/** The plans, with the ranks each runs at: 1 (a check run of any plan) and the plan's own where it is 2. */
const PLANS: { name: string; input: ExportInput; worlds: number[] }[] = [
  { name: 'one GPU (DDP)', input: input(pipelinePlan([0, 4], [['node/cuda:0']], 2), gpus(1), 0), worlds: [1] },
  {
    name: 'ZeRO-3 over two (FSDP; DDP on the CPU)',
    input: input(pipelinePlan([0, 4], [['node/cuda:0', 'node/cuda:1']], 1), gpus(2), 3),
    worlds: [1, 2],
  },
  {
    name: 'two pipeline stages (1F1B)',
    input: input(pipelinePlan([0, 2, 4], [['node/cuda:0'], ['node/cuda:1']], 2), gpus(2), 1),
    worlds: [1, 2],
  },
  { name: 'two tensor-parallel ranks', input: input(tensorParallel, gpus(2), 1), worlds: [1, 2] },
];

const dir = mkdtempSync(path.join(tmpdir(), 'pdj-train-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the emitted training scripts', () => {
  for (const [k, p] of PLANS.entries()) {
    for (const world of p.worlds) {
      it.skipIf(!torch)(
        `train_pipeline.py runs a step of ${p.name} at ${world} rank(s)`,
        async () => {
          const file = `train-${k}-${world}.py`;
          writeFileSync(path.join(dir, file), trainingExports(exportPlan(p.input)).torch.python);
          const r = await runRanks(
            file,
            world,
            ['--steps', '1', '--seq', '16', '--ckpt-dir', `ckpt-${k}-${world}`],
            dir,
          );
          expect(r.codes, r.out).toEqual(Array.from({ length: world }, () => 0));
          expect(r.out).toMatch(/step 1\/1 loss \d+\.\d+/);
          expect(r.out).toContain('data: synthetic random tokens (no --data given)');
        },
        120_000,
      );
    }
  }

  it.skipIf(!torch)(
    'saves a checkpoint, resumes from it, and reads the model from --config and tokens from --data',
    async () => {
      writeFileSync(path.join(dir, 'config.json'), JSON.stringify(CONFIG));
      // 2,000 token ids as a raw uint16 file, the .bin format the script documents.
      writeFileSync(
        path.join(dir, 'tokens.bin'),
        Buffer.from(new Uint16Array(2000).map((_, i) => (i * 7) % 256).buffer),
      );
      writeFileSync(path.join(dir, 'train-resume.py'), trainingExports(exportPlan(PLANS[0]!.input)).torch.python);
      const args = [
        '--seq',
        '16',
        '--ckpt-dir',
        'ckpt-resume',
        '--config',
        'config.json',
        '--data',
        'tokens.bin',
        '--save-every',
        '1',
      ];
      const first = await runRanks('train-resume.py', 1, ['--steps', '1', ...args], dir);
      expect(first.codes, first.out).toEqual([0]);
      expect(first.out).toContain('data: 2,000 tokens from tokens.bin');
      expect(first.out).toContain('step 1: checkpoint saved');
      const second = await runRanks('train-resume.py', 1, ['--max-steps', '2', ...args], dir);
      expect(second.codes, second.out).toEqual([0]);
      expect(second.out).toContain('resumed from step 1');
      expect(second.out).toMatch(/step 2\/2 loss \d/);
    },
    120_000,
  );

  it.skipIf(!needOracle('python'))('compiles the DeepSpeed and accelerate scripts, which cannot run here', () => {
    for (const [k, p] of PLANS.entries()) {
      const e = trainingExports(exportPlan(p.input));
      for (const [name, text] of [
        [`ds-${k}.py`, e.deepspeed.script],
        [`acc-${k}.py`, e.accelerate.script],
      ] as const) {
        writeFileSync(path.join(dir, name), text);
        execFileSync(ORACLE_PYTHON, ['-m', 'py_compile', path.join(dir, name)]);
      }
      expect(e.deepspeed.commands[0]).toContain('train_deepspeed.py --deepspeed_config ds_config.json');
      expect(e.accelerate.command).toBe('accelerate launch --config_file accelerate.yaml train_accelerate.py');
    }
  });
});
