/**
 * The scripts `plan --emit` writes run their step (issue 59). A tiny decoder, given as a Hugging
 * Face folder (config.json: 2 blocks of 64, grouped-query attention, vocab 256), is planned through
 * the CLI for training on two A100s (DDP with ZeRO-1; ZeRO-3, FSDP; two pipeline stages), and
 * train_pipeline.py runs ONE optimizer step on the CPU with Debian's python3-torch (gloo, synthetic
 * tokens): at world size 1, and at the plan's own two ranks started as torchrun starts them (its
 * environment variables). torchrun.sh's line is parsed by that torch's own torchrun parser (Debian's
 * torchrun cannot start workers under Python 3.11: bench/runs/h66-step.md). The scripts whose
 * packages are not installed here (DeepSpeed, accelerate; LoRA's transformers, peft, datasets;
 * QLoRA's bitsandbytes; torch itself) exit 1 with one line naming what is missing, not a
 * traceback; their launch lines are checked against the tools' argument fixtures in
 * plan-emit-tool-flags.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir, words } from '../../helpers/cli.js';
import { splitShell } from '../../helpers/engine-flags.js';
import { needOracle, ORACLE_PYTHON } from '../../helpers/oracle.js';
import { envWithoutTorch, runRanks } from '../../helpers/torch-python.js';
import { TINY_LLAMA_CONFIG } from '../../helpers/tiny-llama-config.js';

const torch = needOracle('torch');

const CONFIG = TINY_LLAMA_CONFIG;

const root = tempDir('pdjv-emit-run-');
const folder = path.join(root, 'tiny-llama');
mkdirSync(folder);
writeFileSync(path.join(folder, 'config.json'), JSON.stringify(CONFIG));

/** `plan` on the tiny folder with --emit: the folder written. */
async function emit(name: string, extra: string): Promise<string> {
  const dir = path.join(root, name);
  const db = path.join(root, `${name}.db`);
  const args = words`plan --workload ${folder} --devices none --seq 16 --batch 4 --emit ${dir} --db ${db}`;
  const r = await cli([...args, ...extra.split(' ')]);
  expect(r.code, r.stderr).toBe(0);
  return dir;
}

const STEP = ['--steps', '1', '--seq', '16', '--save-every', '0'];

/** What a run that stops on a missing package must print: one line on stderr, no traceback, exit 1. */
function expectOneLine(r: { codes: number[]; stderr: string }, line: RegExp): void {
  expect(r.codes, r.stderr).toEqual([1]);
  expect(r.stderr).not.toContain('Traceback');
  expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(line);
}

describe('plan --emit: the training scripts run one step on the CPU', () => {
  it.skipIf(!torch)(
    "DDP with ZeRO-1 on two A100s: train_pipeline.py at 1 rank and at the plan's 2, torchrun.sh parsed by torch's torchrun",
    async () => {
      const dir = await emit('ddp', '--virtual 2xA100 --zero 1');
      const launch = readFileSync(path.join(dir, 'torchrun.sh'), 'utf8').trimEnd().split('\n').pop() ?? '';
      expect(launch).toBe('torchrun --standalone --nnodes 1 --nproc_per_node 2 train_pipeline.py');
      const parser = [
        'import sys',
        'from torch.distributed.run import get_args_parser',
        'a = get_args_parser().parse_args(sys.argv[1:])',
        'print(a.nnodes, a.nproc_per_node, a.standalone, a.training_script)',
      ].join('\n');
      const parsed = spawnSync(ORACLE_PYTHON, ['-c', parser, ...splitShell(launch).slice(1)], { encoding: 'utf8' });
      expect(parsed.stderr).toBe('');
      expect(parsed.stdout.trim()).toBe('1 2 True train_pipeline.py');
      for (const world of [1, 2]) {
        const r = await runRanks('train_pipeline.py', world, [...STEP, '--ckpt-dir', `ckpt-${world}`], dir);
        expect(r.codes, r.out).toEqual(Array.from({ length: world }, () => 0));
        expect(r.out).toContain('data: synthetic random tokens (no --data given)');
        expect(r.out).toContain(`1 stages x ${world} data-parallel x 1 tensor-parallel; torch.float32 on cpu`);
        expect(r.out).toMatch(/^step 1\/1 loss \d+\.\d+ /m);
      }
    },
    180_000,
  );

  it.skipIf(!torch)(
    'ZeRO-3 (FSDP) runs its step under DDP on the CPU, saying so; two pipeline stages run 1F1B at their two ranks',
    async () => {
      const fsdp = await emit('fsdp', '--virtual 2xA100 --zero 3');
      expect(readFileSync(path.join(fsdp, 'train_pipeline.py'), 'utf8')).toContain('ZERO_STAGE = 3\n');
      const one = await runRanks('train_pipeline.py', 1, STEP, fsdp);
      expect(one.codes, one.out).toEqual([0]);
      expect(one.out).toContain('note: FSDP (ZeRO-3) needs CUDA GPUs; on the CPU the model runs under DDP');
      expect(one.out).toMatch(/^step 1\/1 loss \d+\.\d+ /m);
      const pipe = await emit('pipeline', '--virtual 2xA100 --layout tp=1,pp=2,dp=1,zero=0 --no-search');
      expect(readFileSync(path.join(pipe, 'train_pipeline.py'), 'utf8')).toContain('PP = 2\n');
      const two = await runRanks('train_pipeline.py', 2, STEP, pipe);
      expect(two.codes, two.out).toEqual([0, 0]);
      expect(two.out).toContain('2 stages x 1 data-parallel x 1 tensor-parallel');
      expect(two.out).toMatch(/^step 1\/1 loss \d+\.\d+ /m);
    },
    180_000,
  );

  it.skipIf(!torch)(
    '--stack fsdp and torchtitan: the script clips at max norm 1.0 as their rules price it, through a step at their ranks',
    async () => {
      const fsdp = await emit('stack-fsdp', '--virtual 2xA100 --stack fsdp --zero 3');
      const fsdpPy = readFileSync(path.join(fsdp, 'train_pipeline.py'), 'utf8');
      expect(fsdpPy).toContain('\nFUSED_ADAMW = False\nCLIP_GRAD_NORM = 1.0\n');
      const one = await runRanks('train_pipeline.py', 1, STEP, fsdp);
      expect(one.codes, one.out).toEqual([0]);
      expect(one.out).toMatch(/^step 1\/1 loss \d+\.\d+ /m);
      const titan = await emit(
        'stack-titan',
        '--virtual 2xA100 --stack torchtitan --layout tp=1,pp=2,dp=1,zero=0 --no-search',
      );
      expect(readFileSync(path.join(titan, 'train_pipeline.py'), 'utf8')).toContain(
        '\nFUSED_ADAMW = True\nCLIP_GRAD_NORM = 1.0\n',
      );
      const two = await runRanks('train_pipeline.py', 2, STEP, titan);
      expect(two.codes, two.out).toEqual([0, 0]);
      expect(two.out).toMatch(/^step 1\/1 loss \d+\.\d+ /m);
      // A plan without a stack clips nothing and runs AdamW's default (foreach), as NO_STACK_OPTIMIZER_STEP prices.
      const none = readFileSync(
        path.join(await emit('stack-none', '--virtual 2xA100 --zero 1'), 'train_pipeline.py'),
        'utf8',
      );
      expect(none).toContain('\nFUSED_ADAMW = False\nCLIP_GRAD_NORM = None\n');
      // clip_split_gradients (pipeline and tensor parallelism) scales the gradients to the max norm, as
      // torch.nn.utils.clip_grad_norm_ does, counting a tensor every tensor-parallel rank holds once.
      const check = [
        'import runpy, torch, torch.distributed as dist',
        'dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)',
        'g = runpy.run_path("train_pipeline.py", run_name="check")',
        'g["RUN"].update(tp=2, dp=1)',
        'm = torch.nn.Module(); m.a = torch.nn.Parameter(torch.zeros(3)); m.b = torch.nn.Parameter(torch.zeros(4))',
        'm.a.tp_split = True; m.a.grad = torch.full((3,), 4.0); m.b.grad = torch.full((4,), 3.0)',
        'g["clip_split_gradients"](m, [m.a.grad, m.b.grad])',
        // norm^2 = 48 + 36 / 2 = 66: both scaled by 1 / sqrt(66).
        'print(round(m.a.grad[0].item() * 66 ** 0.5, 4), round(m.b.grad[0].item() * 66 ** 0.5, 4))',
      ].join('\n');
      const r = spawnSync(ORACLE_PYTHON, ['-c', check], { cwd: titan, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe('4.0 3.0');
    },
    180_000,
  );

  it.skipIf(!torch)(
    'train_deepspeed.py and train_accelerate.py without their packages, and train_pipeline.py without torch, say so in one line',
    async () => {
      const dir = await emit('tools', '--virtual 2xA100 --zero 1');
      const ds = await runRanks('train_deepspeed.py', 1, STEP, dir);
      expectOneLine(ds, /^train_deepspeed\.py needs deepspeed, not installed here \(pip install deepspeed\)$/m);
      const acc = await runRanks('train_accelerate.py', 1, STEP, dir);
      expectOneLine(acc, /^train_accelerate\.py needs accelerate, not installed here \(pip install accelerate\)$/m);
      const noTorch = await runRanks('train_pipeline.py', 1, STEP, dir, envWithoutTorch());
      expectOneLine(noTorch, /^train_pipeline\.py needs torch, which does not import here: No module named 'torch'/m);
    },
    180_000,
  );
});

describe('plan --emit: train_lora.py without its packages', () => {
  it.skipIf(!needOracle('python'))(
    'LoRA and QLoRA name every missing package in one line, and only those missing',
    async () => {
      const lora = await emit('lora', '--virtual 1xA100 --mode finetune --adapter lora');
      const qlora = await emit('qlora', '--virtual 1xA100 --mode finetune --adapter qlora');
      // Which of the packages this Python has (torch, where python3-torch is installed) decides what is missing.
      const has = (m: string): boolean =>
        spawnSync(ORACLE_PYTHON, [
          '-c',
          `import importlib.util, sys; sys.exit(importlib.util.find_spec("${m}") is None)`,
        ]).status === 0;
      const needs = ['torch', 'transformers', 'peft', 'datasets', 'accelerate'];
      const missing = (list: string[]): string => list.filter((m) => !has(m)).join(', ');
      expect(missing(needs), 'this check needs a Python without peft').toContain('peft');
      const l = await runRanks('train_lora.py', 1, [], lora);
      expectOneLine(
        l,
        new RegExp(`^train_lora\\.py needs ${needs.join(', ')}; not installed here: ${missing(needs)} \\(pip install `),
      );
      const q = await runRanks('train_lora.py', 1, [], qlora);
      const qneeds = [...needs, 'bitsandbytes'];
      expectOneLine(
        q,
        new RegExp(`^train_lora\\.py needs ${qneeds.join(', ')}; not installed here: ${missing(qneeds)} \\(`),
      );
      expect(q.stderr).toContain('bitsandbytes (pip install');
      // A package that is there (an empty peft here) is not named.
      const fake = tempDir('pdjv-fake-peft-');
      mkdirSync(path.join(fake, 'peft'));
      writeFileSync(path.join(fake, 'peft', '__init__.py'), '');
      const withPeft = await runRanks('train_lora.py', 1, [], lora, { ...process.env, PYTHONPATH: fake });
      expectOneLine(withPeft, /not installed here: /);
      expect(withPeft.stderr.split('not installed here:')[1]).not.toMatch(/\bpeft\b/);
    },
    120_000,
  );
});
