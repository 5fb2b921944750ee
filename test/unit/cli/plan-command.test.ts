import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { sampleProfileFile } from '../../helpers/sample-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';

async function trainedStore(): Promise<string> {
  const db = path.join(tempDir(), 'plan.db');
  seededDb(db).close();
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
  return db;
}

interface PlanJson {
  plans: { kind: string; stepUs: number; feasible: boolean; reasons: string[]; memory: { device: string }[] }[];
  devices: { id: string; estimate: string }[];
  exports: { deepspeed: { configJson: string } } | null;
}

describe('pipedejavu plan', () => {
  it('ranks plans for a catalog model on this machine plus datasheet GPUs, with exports', async () => {
    const db = await trainedStore();
    const r = await cli([
      'plan',
      '--workload',
      'bert-base',
      '--seq',
      '128',
      '--batch',
      '8',
      '--virtual',
      'RTX 4090,RTX 3090',
      '--db',
      db,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as PlanJson;
    expect(j.plans.length).toBeGreaterThan(1);
    const steps = j.plans.filter((p) => p.feasible).map((p) => p.stepUs);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
    expect(j.devices.filter((d) => d.estimate === 'datasheet')).toHaveLength(2);
    const ds = JSON.parse(j.exports!.deepspeed.configJson) as { train_batch_size: number };
    expect(ds.train_batch_size).toBe(8);
    const text = await cli(['plan', '--workload', 'bert-base', '--seq', '128', '--virtual', 'RTX 4090', '--db', db]);
    expect(text.stdout).toMatch(/datasheet estimate/);
    expect(text.stdout).toMatch(/Best plan: /);
  });

  it('rejects plans that do not fit, saying why', async () => {
    const db = await trainedStore();
    const r = await cli([
      'plan',
      '--workload',
      'llama-13b',
      '--seq',
      '512',
      '--batch',
      '1',
      '--devices',
      'cpu',
      '--db',
      db,
      '--json',
    ]);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as PlanJson;
    expect(j.plans.every((p) => !p.feasible)).toBe(true);
    expect(j.plans[0]?.reasons.join(' ')).toMatch(/needs .*GiB/);
  });

  it('answers bad requests in one line', async () => {
    const db = await trainedStore();
    const none = await cli(['plan', '--workload', 'bert-base', '--devices', 'none', '--db', db]);
    expect(none.stderr).toBe(
      'pipedejavu: error: no devices to plan for: name some with --devices, --machine or --virtual\n',
    );
    const unknownGpu = await cli(['plan', '--workload', 'bert-base', '--virtual', 'Voodoo 5', '--db', db]);
    expect(unknownGpu.code).toBe(1);
    expect(unknownGpu.stderr.trimEnd().split('\n')).toHaveLength(1);
    const cuda = await cli(['plan', '--workload', 'bert-base', '--devices', 'cpu,cuda:0', '--db', db]);
    expect(cuda.stderr).toMatch(/device "cuda:0" was never profiled/);
    const missing = await cli(['plan', '--db', db]);
    expect(missing.stderr).toBe('pipedejavu: error: plan: --workload is required\n');
    const recompute = await cli(['plan', '--workload', 'bert-base', '--recompute', 'sometimes', '--db', db]);
    expect(recompute).toMatchObject({
      code: 2,
      stderr: 'pipedejavu: error: --recompute takes auto, none, selective or full; got "sometimes"\n',
    });
  });

  it('asks for the network when an imported machine joins the plan', async () => {
    const db = await trainedStore();
    const file = path.join(tempDir(), 'lab.json');
    writeFileSync(file, encodeProfile(sampleProfileFile()));
    expect((await cli(['import', file, '--db', db])).code).toBe(0);
    const r = await cli(['plan', '--workload', 'bert-base', '--devices', 'cpu', '--machine', 'lab-ws-01', '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no network is stated .*state one/);
    const ok = await cli([
      'plan',
      '--workload',
      'bert-base',
      '--devices',
      'cpu',
      '--machine',
      'lab-ws-01',
      '--network',
      '25GbE',
      '--db',
      db,
      '--json',
    ]);
    expect(ok.code).toBe(0);
    // Both machines are called lab-ws-01: the second is told apart by its id.
    const ids = (JSON.parse(ok.stdout) as PlanJson).devices.map((d) => d.id);
    expect(new Set(ids).size).toBe(2);
    expect(ids.every((id) => id.startsWith('lab-ws-01') && id.endsWith('/cpu'))).toBe(true);
  });
});
