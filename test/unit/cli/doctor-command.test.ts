/** `pipedejavu doctor`: one line per check, for people and as JSON, against recorded nvidia-smi output. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURES, makeFakeSmi, type FakeSmi } from '../../helpers/fake-nvidia-smi.js';
import { cli, tempDir } from '../../helpers/cli.js';

interface DoctorJson {
  checks: { name: string; status: 'ok' | 'warn' | 'fail'; detail: string }[];
}

const NAMES = ['node', 'onnxruntime', 'ep cpu', 'ep cuda', 'ep webgpu', 'pytorch', 'nvidia', 'database', 'disk'];

describe.skipIf(process.platform === 'win32')('pipedejavu doctor', () => {
  let smi: FakeSmi;
  const dir = tempDir();
  beforeAll(async () => {
    smi = await makeFakeSmi();
  });
  afterAll(async () => smi.cleanup());

  it('checks runtimes, providers, PyTorch, the GPUs and the database, one line each', async () => {
    const db = path.join(dir, 'doctor.db');
    const env = { ...smi.env(CAPTURES.h100), PATH: process.env.PATH };
    const r = await cli(['doctor', '--db', db, '--nvidia-smi', smi.smiPath, '--json'], env);
    expect(r.code).toBe(0);
    const { checks } = JSON.parse(r.stdout) as DoctorJson;
    expect(checks.map((c) => c.name)).toEqual(NAMES);
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(byName.nvidia?.detail).toMatch(/driver 590\.48\.01, CUDA 13\.\d, 1 GPU: NVIDIA H100 80GB HBM3/);
    expect(byName['ep cpu']?.status).toBe('ok');
    // This workplace has no CUDA provider (the NuGet download is skipped): a warning naming the fix.
    expect(byName['ep cuda']?.detail).toMatch(/install-cuda|cannot load|installed/);
    expect(byName.database?.detail).toContain(db);
    expect(byName.database?.status).toBe('ok');
    expect(byName.disk?.detail).toMatch(/free beside the database/);
    for (const c of checks) expect(c.detail).not.toContain('\n');

    const table = await cli(['doctor', '--db', db, '--nvidia-smi', smi.smiPath], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^CHECK\s+STATUS\s+DETAIL/);
    expect(table.stdout).toMatch(/\nnvidia\s+ok\s+/);
  });

  it('fails, after printing every line, when nvidia-smi hangs', async () => {
    const env = { ...smi.env(CAPTURES.h100, 'hang'), PATH: process.env.PATH };
    const r = await cli(
      ['doctor', '--db', path.join(dir, 'hang.db'), '--nvidia-smi', smi.smiPath, '--timeout', '1', '--json'],
      env,
    );
    expect(r.code).toBe(1);
    const { checks } = JSON.parse(r.stdout) as DoctorJson;
    expect(checks.find((c) => c.name === 'nvidia')?.status).toBe('fail');
    expect(r.stderr).toBe('{"error":{"code":"user","message":"1 check failed: nvidia"}}\n');
  });

  it('refuses a bad --timeout in one line', async () => {
    const r = await cli(['doctor', '--timeout', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
