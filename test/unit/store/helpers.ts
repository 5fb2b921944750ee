/** Shared fixtures for the store tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProbeResult } from '../../../src-main/core/domain/hardware.js';
import type { Device, Link } from '../../../src-main/core/domain/devices.js';
import type { Measurement } from '../../../src-main/core/domain/measurement.js';

export function makeProbe(hostname = 'box-1', gpus = 1): ProbeResult {
  return {
    probedAt: '2025-01-01T00:00:00.000Z',
    hostname,
    os: { platform: 'linux', distro: 'Ubuntu', release: '22.04', kernel: '6.5.0', arch: 'x64' },
    cpu: {
      manufacturer: 'AMD',
      brand: 'EPYC 9654',
      physicalCores: 96,
      logicalCores: 192,
      baseClockGHz: 2.4,
      maxClockGHz: 3.7,
      cacheBytes: { l1d: 32768, l1i: 32768, l2: 1048576, l3: 402653184 },
      isa: {
        sse42: true,
        avx: true,
        avx2: true,
        fma: true,
        avx512f: true,
        avx512bf16: true,
        avx512vnni: true,
        amx: false,
        neon: false,
      },
      fp32FlopsPerCycle: 32,
    },
    memory: { totalBytes: 768 * 1024 ** 3 },
    nvidia: {
      status: gpus > 0 ? 'ok' : 'not-installed',
      smiPath: gpus > 0 ? '/usr/bin/nvidia-smi' : null,
      driverVersion: gpus > 0 ? '550.54' : null,
      cudaVersion: gpus > 0 ? '12.4' : null,
      gpus: Array.from({ length: gpus }, (_, index) => ({
        index,
        name: 'NVIDIA H100 80GB HBM3',
        uuid: `GPU-${index}`,
        pciBusId: `00000000:0${index}:00.0`,
        memoryTotalMiB: 81559,
        memoryFreeMiB: 81000,
        computeCapability: '9.0',
        maxSmClockMHz: 1980,
        maxMemoryClockMHz: 2619,
        maxGraphicsClockMHz: 1980,
        pcieGenMax: 5,
        pcieGenGpuMax: 5,
        pcieWidthMax: 16,
        powerLimitW: 700,
        migMode: 'Disabled' as const,
        nvlinks: [],
      })),
      topology: null,
    },
    warnings: [],
  };
}

export function makeDevices(gpus = 1): Device[] {
  return [
    { key: 'cpu', kind: 'cpu', name: 'EPYC 9654', memoryBytes: 768 * 1024 ** 3 },
    ...Array.from({ length: gpus }, (_, i): Device => ({
      key: `cuda:${i}`,
      kind: 'gpu',
      name: 'NVIDIA H100 80GB HBM3',
      memoryBytes: 81559 * 1024 * 1024,
    })),
  ];
}

export function makeLinks(gpus = 1): Link[] {
  return Array.from({ length: gpus }, (_, i): Link => ({
    a: 'cpu',
    b: `cuda:${i}`,
    kind: 'PCIE_HOST',
    nvlinkCount: null,
    bandwidthGBps: 63.008,
    source: 'spec',
  }));
}

export function makeMeasurement(runId: string, n: number, overrides: Partial<Measurement> = {}): Measurement {
  return {
    runId,
    deviceKey: 'cuda:0',
    op: 'MatMul',
    family: 'gemm',
    shape: { M: 64 * (n + 1), N: 512, K: 256 },
    dtype: 'fp16',
    flops: 2 * 64 * (n + 1) * 512 * 256,
    bytes: 2 * (64 * (n + 1) * 256 + 256 * 512 + 64 * (n + 1) * 512),
    executionProvider: 'CUDAExecutionProvider',
    threads: null,
    runtimeVersion: '1.20.0',
    stats: { medianUs: 10 + n, p10Us: 9 + n, p90Us: 12 + n, cv: 0.02, repetitions: 50, wallMedianUs: 15 + n },
    source: 'profile',
    ...overrides,
  };
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pipedejavu-store-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A clock that advances one second per call, starting at 2025-01-01. */
export function fakeClock(start = Date.UTC(2025, 0, 1)): () => Date {
  let t = start;
  return () => {
    const d = new Date(t);
    t += 1000;
    return d;
  };
}
