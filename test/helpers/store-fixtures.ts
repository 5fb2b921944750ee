/** Devices, links, measurements, a clock and a temporary folder for the store tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Device, Link } from '../../src-main/core/domain/devices.js';
import type { Measurement } from '../../src-main/core/domain/measurement.js';

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
