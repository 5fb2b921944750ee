// probeNvidia against real captures, replayed by the fake nvidia-smi.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NvidiaInfoSchema, type GpuInfo } from '../../../../src-main/core/domain/hardware.js';
import { probeNvidia, type NvidiaProbe } from '../../../../src-main/adapters/nvidia-smi/probe-nvidia.js';
import { CAPTURES, makeFakeSmi, type FakeSmi } from '../../../helpers/fake-nvidia-smi.js';

describe.skipIf(process.platform === 'win32')('probeNvidia on real captures', () => {
  let fake: FakeSmi;
  beforeAll(async () => {
    fake = await makeFakeSmi();
  });
  afterAll(() => fake.cleanup());

  const probe = async (capture: string, ...modes: string[]): Promise<NvidiaProbe> => {
    const r = await probeNvidia({ smiPath: fake.smiPath, env: fake.env(capture, ...modes) });
    NvidiaInfoSchema.parse(r.nvidia);
    return r;
  };
  const onlyGpu = (r: NvidiaProbe): GpuInfo => {
    expect(r.nvidia.gpus).toHaveLength(1);
    const gpu = r.nvidia.gpus[0];
    if (!gpu) throw new Error('no GPU');
    return gpu;
  };

  it('H100 80GB HBM3: every field, 18 NVLinks, versions, topology', async () => {
    const r = await probe(CAPTURES.h100);
    expect(r.warnings).toEqual([]);
    expect(r.nvidia).toMatchObject({
      status: 'ok',
      smiPath: fake.smiPath,
      driverVersion: '590.48.01',
      cudaVersion: '13.1',
    });
    const gpu = onlyGpu(r);
    expect(gpu).toMatchObject({
      index: 0,
      name: 'NVIDIA H100 80GB HBM3',
      uuid: 'GPU-00000000-0000-0000-0000-000000000000',
      pciBusId: '00000000:00:09.0',
      memoryTotalMiB: 81559,
      memoryFreeMiB: 81081,
      computeCapability: '9.0',
      maxSmClockMHz: 1980,
      maxMemoryClockMHz: 2619,
      maxGraphicsClockMHz: 1980,
      pcieGenMax: 5,
      pcieGenGpuMax: 5,
      pcieWidthMax: 16,
      powerLimitW: 700,
      migMode: 'Disabled',
    });
    expect(gpu.nvlinks).toHaveLength(18);
    expect(gpu.nvlinks.every((l) => l.active && l.speedGBps === 26.562)).toBe(true);
    expect(r.nvidia.topology?.labels).toEqual(['GPU0']);
    expect(r.nvidia.topology?.cpuAffinity).toEqual(['0-19']);
  });

  it('H100 in MIG mode: listed with migMode Enabled, the NVLink refusal is a warning', async () => {
    const r = await probe(CAPTURES.h100Mig);
    expect(r.nvidia.status).toBe('ok');
    const gpu = onlyGpu(r);
    expect(gpu.migMode).toBe('Enabled');
    expect(gpu.name).toBe('NVIDIA H100 80GB HBM3');
    expect(gpu.memoryFreeMiB).toBe(81022);
    expect(gpu.nvlinks).toEqual([]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('not supported for Devices in MIG mode');
  });

  it('RTX 4080 SUPER', async () => {
    const r = await probe(CAPTURES.rtx4080Super);
    expect(r.warnings).toEqual([]);
    expect(r.nvidia).toMatchObject({ status: 'ok', driverVersion: '595.71.05', cudaVersion: '13.2' });
    expect(onlyGpu(r)).toEqual({
      index: 0,
      name: 'NVIDIA GeForce RTX 4080 SUPER',
      uuid: 'GPU-00000000-0000-0000-0000-000000000000',
      pciBusId: '00000000:01:00.0',
      memoryTotalMiB: 16376,
      memoryFreeMiB: 15348,
      computeCapability: '8.9',
      maxSmClockMHz: 3165,
      maxMemoryClockMHz: 11501,
      maxGraphicsClockMHz: 3165,
      pcieGenMax: 4,
      pcieGenGpuMax: 4,
      pcieWidthMax: 16,
      powerLimitW: 320,
      migMode: null,
      nvlinks: [],
    });
    expect(r.nvidia.topology?.cpuAffinity).toEqual(['0-15']);
  });

  it('RTX 2080 SUPER on Linux', async () => {
    const r = await probe(CAPTURES.rtx2080Super);
    expect(r.warnings).toEqual([]);
    expect(r.nvidia).toMatchObject({ status: 'ok', driverVersion: '595.71.05', cudaVersion: '13.2' });
    expect(onlyGpu(r)).toMatchObject({
      name: 'NVIDIA GeForce RTX 2080 SUPER',
      pciBusId: '00000000:0C:00.0',
      memoryTotalMiB: 8192,
      memoryFreeMiB: 7571,
      computeCapability: '7.5',
      maxSmClockMHz: 2145,
      maxMemoryClockMHz: 7751,
      maxGraphicsClockMHz: 2145,
      pcieGenMax: 3,
      pcieGenGpuMax: 3,
      pcieWidthMax: 16,
      powerLimitW: 250,
      migMode: null,
      nvlinks: [],
    });
    expect(r.nvidia.topology?.cpuAffinity).toEqual(['0-23']);
  });

  it('RTX 2080 SUPER on Windows (R610: KMD version, empty affinities)', async () => {
    const r = await probe(CAPTURES.windows2080Super);
    expect(r.warnings).toEqual([]);
    expect(r.nvidia).toMatchObject({ status: 'ok', driverVersion: '610.62', cudaVersion: '13.3' });
    expect(onlyGpu(r)).toMatchObject({
      name: 'NVIDIA GeForce RTX 2080 SUPER',
      memoryTotalMiB: 8192,
      memoryFreeMiB: 7191,
      computeCapability: '7.5',
      powerLimitW: 250,
      migMode: null,
    });
    expect(r.nvidia.topology?.labels).toEqual(['GPU0']);
    expect(r.nvidia.topology?.cpuAffinity).toEqual([null]);
  });

  it('Windows driver whose topo -m fails: null topology plus a warning, the GPU still parsed', async () => {
    const r = await probe(CAPTURES.windows2080Super, 'topo-fail');
    expect(r.nvidia.status).toBe('ok');
    expect(r.nvidia.topology).toBeNull();
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('ERROR: Option -m is missing its value');
    expect(onlyGpu(r)).toMatchObject({ name: 'NVIDIA GeForce RTX 2080 SUPER', memoryTotalMiB: 8192 });
  });
});
