/** `pipedejavu plan` on an imported multi-GPU profile, with an ONNX model, and measured nccl-tests results. */
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { gpuServerProfile, ncclTwoRanks, GPU_BOX } from '../../helpers/gpu-profile.js';
import { sampleProfileFile } from '../../helpers/sample-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';

const ONNX = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

interface PlanJson {
  plans: {
    kind: string;
    stepUs: number;
    feasible: boolean;
    stages: { devices: string[] }[];
    optimizerOffload?: boolean;
  }[];
  devices: { id: string; estimate: string }[];
  exports: { torch: { commands: string[] }; llamaCpp: unknown } | null;
  warnings: string[];
}

async function storeWithGpuBox(): Promise<{ db: string; dir: string }> {
  const dir = tempDir();
  const db = path.join(dir, 'plan.db');
  seededDb(db).close();
  const file = path.join(dir, 'gpu-box.json');
  writeFileSync(file, encodeProfile(gpuServerProfile()));
  expect((await cli(['import', file, '--db', db])).code).toBe(0);
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
  return { db, dir };
}

describe('pipedejavu plan on an imported multi-GPU machine', () => {
  it('plans a catalog model over its two GPUs, and uses measured all-reduce from nccl-tests', async () => {
    const { db, dir } = await storeWithGpuBox();
    // Every plan listed (tensor-parallel and hybrid variants would crowd data parallel out of the top 5).
    const args = [
      'plan',
      '--workload',
      'gpt2-small',
      '--devices',
      'none',
      '--machine',
      GPU_BOX,
      '--batch',
      '16',
      '--top',
      '50',
    ];
    const modelled = await cli([...args, '--db', db, '--json']);
    expect(modelled.code).toBe(0);
    const m = JSON.parse(modelled.stdout) as PlanJson;
    expect(m.devices.map((d) => d.id)).toEqual([`${GPU_BOX}/cuda:0`, `${GPU_BOX}/cuda:1`]);
    expect(m.plans[0]?.feasible).toBe(true);
    expect(m.exports?.torch.commands.join('\n')).toMatch(/torchrun/);

    const nccl = path.join(dir, 'all_reduce.txt');
    writeFileSync(nccl, ncclTwoRanks());
    const measured = await cli([...args, '--nccl', nccl, '--db', db, '--json']);
    expect(measured.code).toBe(0);
    const j = JSON.parse(measured.stdout) as PlanJson;
    expect(j.warnings.some((w) => /all_reduce\.txt: measured all-reduce over 2 devices/.test(w))).toBe(true);
    const dp = (p: PlanJson): number | undefined => p.plans.find((x) => x.kind === 'data-parallel')?.stepUs;
    // 2 GB/s measured is slower than the modelled PCIe gen3 x8 link: data parallel gets dearer.
    expect(dp(m)).toBeDefined();
    expect(dp(j)).toBeGreaterThan(dp(m) as number);

    const foreign = path.join(dir, 'other.txt');
    writeFileSync(foreign, ncclTwoRanks('some-other-host'));
    const other = await cli([...args, '--nccl', `${foreign}`, '--db', db, '--json']);
    // One machine in the plan: ranks are taken as its GPUs whatever the host is called.
    expect(other.code).toBe(0);
    const missing = await cli([...args, '--nccl', path.join(dir, 'nope.txt'), '--db', db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--nccl: cannot read/);
  });

  it('plans an imported ONNX model for inference on the GPUs and this machine', async () => {
    const { db } = await storeWithGpuBox();
    const r = await cli([
      'plan',
      '--workload',
      ONNX,
      '--input',
      'x=1x3x48x192',
      '--devices',
      'cpu',
      '--machine',
      GPU_BOX,
      '--network',
      '25GbE',
      '--mode',
      'inference',
      '--batch',
      '32',
      '--db',
      db,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as PlanJson;
    expect(j.devices).toHaveLength(3);
    expect(j.plans.filter((p) => p.feasible).length).toBeGreaterThan(0);
    expect(j.exports).not.toBeNull();
  });
});

describe('optimizer offload to the CPU', () => {
  it('makes GPT-2 XL trainable on the two GPUs, exported with DeepSpeed offload', async () => {
    const { db } = await storeWithGpuBox();
    const base = [
      'plan',
      '--workload',
      'gpt2-xl',
      '--seq',
      '512',
      '--batch',
      '8',
      '--devices',
      'cpu',
      '--machine',
      GPU_BOX,
      '--network',
      '25GbE',
    ];
    const without = await cli([...base, '--offload', 'no', '--db', db, '--json']);
    expect(without.code).toBe(0);
    const w = JSON.parse(without.stdout) as PlanJson & { plans: { optimizerOffload?: boolean }[] };
    const gpuOnly = (p: { stages: { devices: string[] }[] }): boolean =>
      p.stages.every((s) => s.devices.every((d) => d.includes('/cuda:')));
    expect(w.plans.filter((p) => p.feasible && gpuOnly(p))).toHaveLength(0);

    const withOffload = await cli([...base, '--offload', 'yes', '--db', db, '--json']);
    expect(withOffload.code).toBe(0);
    const o = JSON.parse(withOffload.stdout) as PlanJson & {
      plans: { optimizerOffload?: boolean }[];
      exports: { deepspeed: { configJson: string }; torch: { warnings: string[] } } | null;
    };
    expect(o.plans.every((p) => p.optimizerOffload === true)).toBe(true);
    expect(o.plans.some((p) => p.feasible && gpuOnly(p))).toBe(true);
    const ds = JSON.parse(o.exports?.deepspeed.configJson ?? '{}') as {
      zero_optimization: { stage: number; offload_optimizer?: { device: string } };
    };
    expect(ds.zero_optimization.offload_optimizer?.device).toBe('cpu');
    expect(ds.zero_optimization.stage).toBeGreaterThanOrEqual(1);
    expect(o.exports?.torch.warnings.join(' ')).toMatch(/offloads the optimizer/);

    const bad = await cli([...base, '--offload', 'maybe', '--db', db]);
    expect(bad.code).toBe(2);
  });
});

describe('a virtual cluster of imported machines', () => {
  it('plans over several imported machines joined by the stated network', async () => {
    const { db, dir } = await storeWithGpuBox();
    const lab = path.join(dir, 'lab.json');
    writeFileSync(lab, encodeProfile(sampleProfileFile()));
    expect((await cli(['import', lab, '--label', 'lab-cpu', '--db', db])).code).toBe(0);
    const args = ['plan', '--workload', 'bert-base', '--devices', 'none', '--machine', `${GPU_BOX},lab-cpu`];
    const noNet = await cli([...args, '--db', db]);
    expect(noNet.code).toBe(1);
    expect(noNet.stderr).toMatch(/network/);
    const r = await cli([...args, '--network', '100GbE', '--db', db, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as PlanJson;
    expect(j.devices.map((d) => d.id).sort()).toEqual([`${GPU_BOX}/cuda:0`, `${GPU_BOX}/cuda:1`, 'lab-cpu/cpu']);
    const unknown = await cli([
      'plan',
      '--workload',
      'bert-base',
      '--devices',
      'none',
      '--machine',
      `${GPU_BOX},nope`,
      '--db',
      db,
    ]);
    expect(unknown.stderr).toMatch(/no machine "nope"/);
  });
});
