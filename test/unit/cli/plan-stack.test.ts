/**
 * `plan --stack`: the search keeps to what the training stack runs, the plan says which stack and
 * what it assumes, what it does not run is refused in one line, and --emit writes its launcher only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';

let dir = '';
let db = '';
const on8 = ['--workload', 'gpt2-medium', '--devices', 'none', '--virtual', '8xA100', '--top', '10'];

beforeAll(() => {
  dir = tempDir();
  db = path.join(dir, 's.db');
});

interface Listed {
  kind: string;
  zeroStage?: number;
  recompute?: string;
  stages: { tp?: number }[];
}
const plansOf = (stdout: string): Listed[] => (JSON.parse(stdout) as { plans: Listed[] }).plans;

describe('plan --stack', () => {
  it('searches only what PyTorch FSDP runs: no tensor split, no pipeline, ZeRO 0/2/3, no selective recomputation', async () => {
    const r = await cli(['plan', '--db', db, ...on8, '--stack', 'fsdp', '--recompute', 'auto', '--json']);
    expect(r.code).toBe(0);
    const plans = plansOf(r.stdout);
    expect(plans.length).toBeGreaterThan(0);
    for (const p of plans) {
      expect(p.stages).toHaveLength(1);
      expect(p.stages[0]?.tp ?? 1).toBe(1);
      expect([undefined, 0, 2, 3]).toContain(p.zeroStage);
      expect(p.recompute).not.toBe('selective');
    }
    expect(JSON.parse(r.stdout)).toMatchObject({
      assumptions: { trainingStack: { name: 'fsdp', title: 'PyTorch FSDP (data parallel only)' } },
    });
  });

  it('names the stack and what it assumes; without one, any stack', async () => {
    const r = await cli(['plan', '--db', db, ...on8, '--stack', 'Megatron']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/, stack Megatron-LM \(Megatron-Core\)$/);
    expect(lines[2]).toMatch(/^Stack Megatron-LM \(Megatron-Core\): TP\+PP\+DP at ZeRO-0\/ZeRO-1\/ZeRO-3; /);
    expect(r.stdout).toMatch(/^Megatron: {2}torchrun .*pretrain_gpt\.py/m);
    expect(r.stdout).not.toMatch(/^DeepSpeed: /m);
    const plain = await cli(['plan', '--db', db, ...on8]);
    expect(plain.stdout.split('\n')[2]).toMatch(/^Stack: any \(--stack to pick one\): /);
  });

  it('states the optimizer step with a stack and without one (the step job.sbatch runs)', async () => {
    const fsdp = await cli(['plan', '--db', db, ...on8, '--stack', 'fsdp']);
    expect(fsdp.stdout.split('\n')[2]).toContain(
      "optimizer step on the GPUs: 92 bytes of memory traffic a parameter of a GPU's share",
    );
    const plain = await cli(['plan', '--db', db, ...on8]);
    expect(plain.stdout.split('\n')[2]).toContain(
      "optimizer step on the GPUs: 80 bytes of memory traffic a parameter of a GPU's share, as job.sbatch's train_pipeline.py runs it (torch.optim.AdamW, no gradient clipping;",
    );
  });

  it('refuses what the stack does not run, in one line', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['--stack', 'fsdp', '--tp', '1,2'],
        /--stack fsdp: PyTorch FSDP \(data parallel only\) does not run tensor parallelism/,
      ],
      [['--stack', 'megatron', '--zero', '2'], /does not run ZeRO-2/],
      [['--stack', 'deepspeed', '--layout', 'tp=2,pp=1'], /--stack deepspeed: .* does not run tensor parallelism/],
      [['--stack', 'torchtitan', '--offload', 'yes'], /does not run optimizer offload/],
      [['--stack', 'axolotl'], /--stack takes megatron, torchtitan, fsdp, deepspeed \(training\)/],
      [['--stack', 'fsdp', '--mode', 'inference'], /training stack/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['plan', '--db', db, ...on8, ...args]);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('emits the launcher of the stack, and job.sbatch runs it', async () => {
    const out = (name: string) => path.join(dir, name);
    const megatron = await cli(['plan', '--db', db, ...on8, '--stack', 'megatron', '--emit', out('m')]);
    expect(megatron.code).toBe(0);
    expect(readdirSync(out('m')).sort()).toEqual(
      ['README.txt', 'job.sbatch', 'megatron-args.txt', 'megatron.sh', 'timeline.trace.json'].sort(),
    );
    expect(readFileSync(path.join(out('m'), 'job.sbatch'), 'utf8')).toMatch(/pretrain_gpt\.py.*--overlap-grad-reduce/);
    const ds = await cli(['plan', '--db', db, ...on8, '--stack', 'deepspeed', '--emit', out('d')]);
    expect(ds.code).toBe(0);
    expect(readdirSync(out('d'))).toContain('ds_config.json');
    expect(readdirSync(out('d'))).not.toContain('megatron.sh');
    expect(readFileSync(path.join(out('d'), 'job.sbatch'), 'utf8')).toMatch(
      / train_deepspeed\.py --deepspeed_config ds_config\.json$/m,
    );
    const fsdp = await cli(['plan', '--db', db, ...on8, '--stack', 'fsdp', '--emit', out('f')]);
    expect(fsdp.code).toBe(0);
    expect(readdirSync(out('f')).sort()).toEqual(
      ['README.txt', 'job.sbatch', 'timeline.trace.json', 'torchrun.sh', 'train_pipeline.py'].sort(),
    );
  });
});
