// probeNvidia when nvidia-smi is missing, hangs, lies or fails: it never throws.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NvidiaInfoSchema } from '../../../../src-main/core/domain/hardware.js';
import { probeNvidia, type NvidiaProbe } from '../../../../src-main/adapters/nvidia-smi/probe-nvidia.js';
import { CAPTURES, makeFakeSmi, type FakeSmi } from '../../../helpers/fake-nvidia-smi.js';

describe.skipIf(process.platform === 'win32')('probeNvidia failure handling', () => {
  let fake: FakeSmi;
  let emptyDir: string;
  beforeAll(async () => {
    fake = await makeFakeSmi();
    emptyDir = await mkdtemp(path.join(os.tmpdir(), 'no-smi-'));
  });
  afterAll(async () => {
    await fake.cleanup();
    await rm(emptyDir, { recursive: true, force: true });
  });

  const probe = async (modes: string[], timeoutMs?: number): Promise<NvidiaProbe> => {
    const r = await probeNvidia({ smiPath: fake.smiPath, env: fake.env(CAPTURES.h100, ...modes), timeoutMs });
    NvidiaInfoSchema.parse(r.nvidia);
    return r;
  };

  describe('finding the binary', () => {
    it('no nvidia-smi anywhere: not-installed, no warning', async () => {
      const r = await probeNvidia({ env: { PATH: emptyDir }, wellKnownPaths: [] });
      expect(r).toEqual({
        nvidia: {
          status: 'not-installed',
          smiPath: null,
          driverVersion: null,
          cudaVersion: null,
          gpus: [],
          topology: null,
        },
        warnings: [],
      });
    });

    it('an explicit path to nothing: not-installed plus a warning naming the path', async () => {
      const missing = path.join(emptyDir, 'nvidia-smi');
      const r = await probeNvidia({ smiPath: missing, env: { PATH: fake.dir } });
      expect(r.nvidia.status).toBe('not-installed');
      expect(r.nvidia.smiPath).toBe(missing);
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toContain(missing);
    });

    it('an explicit path to a directory, or with a NUL byte: not-installed, no throw', async () => {
      for (const smiPath of [emptyDir, 'nvidia-smi\0evil']) {
        const r = await probeNvidia({ smiPath, env: { PATH: fake.dir } });
        expect(r.nvidia.status).toBe('not-installed');
        expect(r.warnings).toHaveLength(1);
      }
    });

    it('PIPEDEJAVU_NVIDIA_SMI names the binary', async () => {
      const env = { ...fake.env(CAPTURES.rtx4080Super), PATH: emptyDir, PIPEDEJAVU_NVIDIA_SMI: fake.smiPath };
      const r = await probeNvidia({ env, wellKnownPaths: [] });
      expect(r.nvidia.status).toBe('ok');
      expect(r.nvidia.smiPath).toBe(fake.smiPath);
      expect(r.nvidia.gpus[0]?.name).toBe('NVIDIA GeForce RTX 4080 SUPER');
    });

    it('PIPEDEJAVU_NVIDIA_SMI to nothing: not-installed plus a warning naming the variable', async () => {
      const env = { PATH: fake.dir, PIPEDEJAVU_NVIDIA_SMI: path.join(emptyDir, 'x') };
      const r = await probeNvidia({ env, wellKnownPaths: [] });
      expect(r.nvidia.status).toBe('not-installed');
      expect(r.warnings[0]).toContain('PIPEDEJAVU_NVIDIA_SMI');
    });

    it('finds nvidia-smi on PATH', async () => {
      const env = { ...fake.env(CAPTURES.h100), PATH: `${emptyDir}${path.delimiter}${fake.dir}` };
      const r = await probeNvidia({ env, wellKnownPaths: [] });
      expect(r.nvidia.status).toBe('ok');
      expect(r.nvidia.smiPath).toBe(path.join(fake.dir, 'nvidia-smi'));
    });

    it('falls back to the well-known locations', async () => {
      const env = { ...fake.env(CAPTURES.h100), PATH: emptyDir };
      const r = await probeNvidia({ env, wellKnownPaths: [path.join(emptyDir, 'nope'), fake.smiPath] });
      expect(r.nvidia.smiPath).toBe(fake.smiPath);
      expect(r.nvidia.status).toBe('ok');
    });
  });

  describe('nvidia-smi misbehaving', () => {
    it('a hung nvidia-smi: failed, says so, does not hang', async () => {
      const start = Date.now();
      const r = await probe(['hang'], 500);
      expect(Date.now() - start).toBeLessThan(2500);
      expect(r.nvidia.status).toBe('failed');
      expect(r.nvidia.gpus).toEqual([]);
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toContain('nvidia-smi did not answer within 0.5 s');
    });

    it('a hung topo -m: the probe succeeds with a null topology and a warning', async () => {
      const r = await probe(['hang-topo'], 1000);
      expect(r.nvidia.status).toBe('ok');
      expect(r.nvidia.gpus).toHaveLength(1);
      expect(r.nvidia.topology).toBeNull();
      expect(r.warnings).toEqual(['nvidia-smi topo -m did not answer within 1 s']);
    });

    it('garbage output: failed plus a warning', async () => {
      const r = await probe(['garbage']);
      expect(r.nvidia.status).toBe('failed');
      expect(r.nvidia.gpus).toEqual([]);
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toContain('could not be parsed');
    });

    it('an old driver without compute_cap: the field is dropped, the rest is read', async () => {
      const r = await probe(['exit2-field']);
      expect(r.nvidia.status).toBe('ok');
      expect(r.nvidia.gpus[0]).toMatchObject({
        name: 'NVIDIA H100 80GB HBM3',
        computeCapability: null,
        memoryTotalMiB: 81559,
        powerLimitW: 700,
      });
      expect(r.nvidia.gpus[0]?.nvlinks).toHaveLength(18);
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toContain('"compute_cap"');
    });

    it('an old driver without --version: versions from the CSV and the plain header', async () => {
      const r = await probe(['exit2-field', 'no-version']);
      expect(r.nvidia).toMatchObject({ status: 'ok', driverVersion: '590.48.01', cudaVersion: '13.1' });
    });

    it("the driver not loaded: failed, with nvidia-smi's message", async () => {
      const r = await probe(['driver-fail']);
      expect(r.nvidia.status).toBe('failed');
      expect(r.nvidia.smiPath).toBe(fake.smiPath);
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toContain("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver");
      expect(r.warnings[0]).toContain('exit 9');
    });

    it('a GPU fallen off the bus: the GPUs that answer are kept, with a warning', async () => {
      const r = await probe(['lost-gpu']);
      expect(r.nvidia.status).toBe('ok');
      expect(r.nvidia.gpus.map((g) => g.name)).toEqual(['NVIDIA H100 80GB HBM3']);
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toContain('exit 15');
      expect(r.warnings[0]).toContain('Unable to determine the device handle');
    });

    it('no GPU: no-gpu, no GPUs, no failure', async () => {
      const r = await probe(['no-devices']);
      expect(r.nvidia.status).toBe('no-gpu');
      expect(r.nvidia.gpus).toEqual([]);
      expect(r.nvidia.topology).toBeNull();
    });
  });
});
