import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../../src-main/core/domain/hardware.js';
import type { Device, Link } from '../../../src-main/core/domain/devices.js';
import { CAPTURES, makeFakeSmi, type FakeSmi } from '../../helpers/fake-nvidia-smi.js';
import { cli, tempDir } from '../../helpers/cli.js';

interface ProbeJson {
  machineId: string;
  probe: ProbeResult;
  devices: Device[];
  links: Link[];
}

describe.skipIf(process.platform === 'win32')('pipedejavu probe with recorded nvidia-smi output', () => {
  let smi: FakeSmi;
  const dir = tempDir();
  beforeAll(async () => {
    smi = await makeFakeSmi();
  });
  afterAll(async () => smi.cleanup());

  it('probes an H100 machine: table for people, JSON for programs, recorded in the store', async () => {
    const db = path.join(dir, 'h100.db');
    const env = { ...smi.env(CAPTURES.h100), PATH: process.env.PATH };
    const table = await cli(['probe', '--db', db, '--nvidia-smi', smi.smiPath], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/cuda:0\s+NVIDIA H100 80GB HBM3\s+79\.6 GiB\s+9\.0/);
    expect(table.stdout).toMatch(/gen5 x16/);
    expect(table.stdout).toMatch(/18 x 26\.562 GB\/s/);
    const json = await cli(['probe', '--db', db, '--nvidia-smi', smi.smiPath, '--json'], env);
    const r = JSON.parse(json.stdout) as ProbeJson;
    expect(r.probe.nvidia.status).toBe('ok');
    expect(r.devices.map((d) => d.key)).toEqual(['cpu', 'cuda:0']);
    expect(r.links.find((l) => l.b === 'cuda:0')?.bandwidthGBps).toBeCloseTo(63.008, 3);
    const exported = await cli(['export', '--db', db]);
    expect(exported.stdout).toContain('"name": "NVIDIA H100 80GB HBM3"');
  });

  it('finds nvidia-smi through PIPEDEJAVU_NVIDIA_SMI', async () => {
    const env = { ...smi.env(CAPTURES.rtx4080Super), PATH: process.env.PATH, PIPEDEJAVU_NVIDIA_SMI: smi.smiPath };
    const r = await cli(['probe', '--db', path.join(dir, 'env.db'), '--json'], env);
    expect((JSON.parse(r.stdout) as ProbeJson).probe.nvidia.gpus[0]?.name).toBe('NVIDIA GeForce RTX 4080 SUPER');
  });

  it('treats --nvidia-smi pointing at nothing as a CPU-only machine, with a warning', async () => {
    const r = await cli([
      'probe',
      '--db',
      path.join(dir, 'none.db'),
      '--nvidia-smi',
      '/nonexistent/nvidia-smi',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const p = JSON.parse(r.stdout) as ProbeJson;
    expect(p.probe.nvidia.status).toBe('not-installed');
    expect(p.devices.map((d) => d.key)).toEqual(['cpu']);
    expect(p.probe.warnings.join('\n')).toContain('/nonexistent/nvidia-smi');
  });

  it('does not hang on a hung driver: the probe succeeds and says so', async () => {
    const env = { ...smi.env(CAPTURES.h100, 'hang'), PATH: process.env.PATH };
    const started = Date.now();
    const r = await cli(
      ['probe', '--db', path.join(dir, 'hang.db'), '--nvidia-smi', smi.smiPath, '--timeout', '0.5'],
      env,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/nvidia-smi failed/);
    expect(r.stdout).toMatch(/did not answer within/);
  });

  it('rejects a nonsensical --timeout', async () => {
    const r = await cli(['probe', '--timeout', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'pipedejavu: error: probe: --timeout takes seconds, more than 0 and at most 600; got "soon"\n',
    );
  });
});
