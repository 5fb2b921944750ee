/**
 * `pipedejavu plan --layout` (the user's configuration priced beside the recommendation) and
 * `--zero` (auto, 0-3, fsdp, fsdp-grad-op) through the built CLI, on datasheet GPUs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';

interface PlanJson {
  plans: { feasible: boolean; stepUs: number; zeroStage?: number; stages: { devices: string[]; tp?: number }[] }[];
  layout: {
    text: string;
    fits: boolean;
    stepUs: number;
    vsBest: number | null;
    plan: { zeroStage?: number; microbatches: number; stages: { from: number; to: number; tp?: number }[] };
  } | null;
}

let db = '';
const base = [
  'plan',
  '--workload',
  'gpt2-small',
  '--devices',
  'none',
  '--virtual',
  '4xH100 SXM5',
  '--mode',
  'training',
];

beforeAll(async () => {
  db = path.join(tempDir(), 'plan.db');
  seededDb(db).close();
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
});

describe('plan --layout', () => {
  it('prices the layout beside the best plan, in the table and in JSON', async () => {
    const layout = ['--layout', 'tp=2,pp=2,dp=1,zero=1,mb=4'];
    const text = await cli([...base, ...layout, '--db', db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^your layout\s+hybrid/m);
    expect(text.stdout).toContain('Your layout tp=2,pp=2,dp=1,zero=1,recompute=none,mb=4,schedule=1f1b (1F1B): ');
    // Its band (as the ranked plans') and its memory per device, in the row and under it.
    expect(text.stdout).toMatch(/^your layout +hybrid +[\d.]+ m?s +[\d.]+ m?s - [\d.]+ m?s +\d/m);
    expect(text.stdout).toMatch(/^Your layout tp=2,pp=2.*a step \(band \S+ m?s - \S+ m?s\).*; memory per device:$/m);
    const after = text.stdout.slice(text.stdout.indexOf('Your layout tp=2'));
    expect(after.split('\n').filter((l) => l.startsWith('virtual/h100-sxm5-80gb:'))).toHaveLength(4);
    const json = await cli([...base, ...layout, '--json', '--db', db]);
    const r = JSON.parse(json.stdout) as PlanJson;
    expect(r.layout?.fits).toBe(true);
    expect(r.layout?.plan.microbatches).toBe(4);
    expect(r.layout?.plan.stages.map((s) => s.tp)).toEqual([2, 2]);
    expect(r.layout?.vsBest).toBeGreaterThanOrEqual(1 - 1e-9);
  });

  it('prices the layout alone under --no-search: the same figures, no ranked plan, no suggestion', async () => {
    const layout = ['--layout', 'tp=2,pp=2,dp=1,zero=1,mb=4'];
    const text = await cli([...base, ...layout, '--no-search', '--db', db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/; your layout priced alone, not searched$/m);
    expect(text.stdout).toMatch(/^your layout\s+hybrid/m);
    expect(text.stdout).not.toMatch(/^1\s/m);
    expect(text.stdout).not.toContain('No plan fits');
    expect(text.stdout).not.toContain('slower than the best plan');
    const [searched, alone] = await Promise.all(
      [[], ['--no-search']].map(
        async (x) => JSON.parse((await cli([...base, ...layout, ...x, '--json', '--db', db])).stdout) as PlanJson,
      ),
    );
    expect(alone?.plans).toEqual([]);
    expect(alone?.layout?.stepUs).toBe(searched?.layout?.stepUs);
    expect(alone?.layout?.vsBest).toBeNull();
    // A layout that does not fit fails the command, naming why.
    const seventy = base.map((a) => (a === 'gpt2-small' ? 'llama-3.1-70b' : a));
    const big = await cli([...seventy, '--layout', 'tp=1,pp=1,dp=4', '--no-search', '--db', db]);
    expect(big.code).not.toBe(0);
    expect(big.stderr).toMatch(/error: your layout does not fit: /);
    const none = await cli([...base, '--no-search', '--db', db]);
    expect(none.stderr).toContain('--no-search prices the --layout given, and there is none');
  });

  it('refuses a tensor-parallel degree that does not divide the heads in one line naming those that do', async () => {
    const r = await cli([...base, '--layout', 'tp=8,pp=1,dp=1', '--db', db]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(
      "--layout tp=8: a tensor-parallel degree must divide gpt2-small's 12 attention heads and 12 KV heads",
    );
    expect(r.stderr).toContain('degrees that do: 1, 2, 3, 4, 6, 12');
  });

  it('refuses a layout that does not use the plan’s GPUs, and an unknown key', async () => {
    const few = await cli([...base, '--layout', 'tp=2,pp=1,dp=1', '--db', db]);
    expect(few.stderr).toContain('make tp x pp x dp = 4');
    const odd = await cli([...base, '--layout', 'tp=2,sp=2', '--db', db]);
    expect(odd.stderr).toContain('unknown key "sp"; keys: tp, pp, dp, zero, recompute, mb, schedule');
  });
});

describe('plan --layout --emit', () => {
  it('writes the layout it was given, not the recommendation, and says so', async () => {
    const out = path.join(tempDir(), 'emit');
    const r = await cli([...base, '--layout', 'tp=2,pp=2,dp=1,zero=1,mb=4', '--emit', out, '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Wrote \d+ files to .* \(your layout, not the recommendation\): /m);
    expect(readFileSync(path.join(out, 'README.txt'), 'utf8')).toContain(
      'These files launch the layout you gave: tp=2,pp=2,dp=1,zero=1,recompute=none,mb=4,schedule=1f1b.',
    );
    const megatron = readFileSync(path.join(out, 'megatron-args.txt'), 'utf8');
    expect(megatron).toMatch(/--tensor-model-parallel-size 2\b/);
    expect(megatron).toMatch(/--pipeline-model-parallel-size 2\b/);
  });

  it('refuses in one line, writing nothing, when the layout does not fit', async () => {
    const out = path.join(tempDir(), 'emit-none');
    const big = ['plan', '--workload', 'llama-7b', '--devices', 'none', '--virtual', '2xA100', '--mode', 'training'];
    const r = await cli([...big, '--layout', 'tp=1,pp=1,dp=2,zero=0', '--offload', 'no', '--emit', out, '--db', db]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /the layout tp=1,pp=1,dp=2,zero=0.* does not fit \(.*needs .*\): nothing to emit; drop --layout/,
    );
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });
});

describe('plan --layout with a pp that does not divide the blocks', () => {
  it("prints each stage's blocks and how they were split, and emits Megatron-LM's first and last stage layers", async () => {
    const out = path.join(tempDir(), 'emit-uneven');
    const five = ['plan', '--workload', 'gpt2-small', '--devices', 'none', '--virtual', '5xH100 SXM5'];
    const r = await cli([...five, '--mode', 'training', '--layout', 'tp=1,pp=5,dp=1', '--emit', out, '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\[0-2\] \(2 blocks\) \S+ \| \[3-5\] \(3 blocks\) .* \| \[12-13\] \(1 block\) \S+$/m);
    expect(r.stdout).toContain('pp=5 does not divide the 12 blocks: stages of 2, 3 x3, 1 blocks');
    const megatron = readFileSync(path.join(out, 'megatron-args.txt'), 'utf8');
    expect(megatron).toMatch(/--decoder-first-pipeline-num-layers 2 --decoder-last-pipeline-num-layers 1\b/);
  });
});

describe('plan --zero', () => {
  it('searches ZeRO stages by default and fixes one with fsdp', async () => {
    const auto = JSON.parse((await cli([...base, '--json', '--top', '20', '--db', db])).stdout) as PlanJson;
    expect(auto.plans.some((p) => (p.zeroStage ?? 0) >= 1)).toBe(true);
    const fsdp = JSON.parse((await cli([...base, '--zero', 'fsdp', '--json', '--db', db])).stdout) as PlanJson;
    for (const p of fsdp.plans) {
      expect(p.stages).toHaveLength(1);
      expect([0, 3]).toContain(p.zeroStage);
    }
  });

  it('says what --zero takes', async () => {
    const r = await cli([...base, '--zero', 'full', '--db', db]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      '--zero takes auto, a ZeRO stage 0, 1, 2 or 3, fsdp (= 3) or fsdp-grad-op (= 2); got "full"',
    );
  });
});
