/** A valid hardware-profile file (two GPUs, one run, two measurements) for codec and import tests. */
import { devicesFromProbe, linksFromProbe } from '../../src-main/core/domain/devices.js';
import type { ProfileFile } from '../../src-main/core/profile-file/schema.js';
import { sampleProbe } from './sample-probe.js';

export function sampleProfileFile(): ProfileFile {
  const probe = sampleProbe();
  const stats = { medianUs: 812.5, p10Us: 800.25, p90Us: 830.125, cv: 0.0125, repetitions: 40, wallMedianUs: 850.5 };
  return {
    format: 'pipedejavu-hardware-profile',
    formatVersion: 1,
    provenance: {
      tool: 'pipedejavu',
      toolVersion: '0.1.0',
      exportedAt: '2026-11-21T12:00:00.000Z',
      runtimes: { node: 'v20.20.2', onnxruntime: '1.30.0' },
    },
    machine: { id: 'a1b2c3d4e5f60718', label: 'lab-ws-01', probe },
    devices: devicesFromProbe(probe),
    links: linksFromProbe(probe),
    profileRuns: [
      {
        id: 'run-0001',
        deviceKey: 'cpu',
        suite: 'quick',
        executionProvider: 'cpu',
        threads: 16,
        runtimeVersion: '1.30.0',
        status: 'complete',
        startedAt: '2026-11-21T11:00:00.000Z',
        finishedAt: '2026-11-21T11:00:50.000Z',
        summary: { peakGflopsFp32: 1234.5 },
        notes: [],
      },
    ],
    measurements: [
      {
        runId: 'run-0001',
        deviceKey: 'cpu',
        op: 'MatMul',
        family: 'gemm',
        shape: { B: 1, M: 512, N: 512, K: 512 },
        dtype: 'fp32',
        flops: 2 * 512 ** 3,
        bytes: 3 * 4 * 512 * 512,
        executionProvider: 'cpu',
        threads: 16,
        runtimeVersion: '1.30.0',
        stats,
        source: 'profile',
      },
      {
        runId: 'run-0001',
        deviceKey: 'cpu',
        op: 'Softmax',
        family: 'softmax',
        shape: { rows: 4096, cols: 1024 },
        dtype: 'fp32',
        flops: 5 * 4096 * 1024,
        bytes: 2 * 4 * 4096 * 1024,
        executionProvider: 'cpu',
        threads: 16,
        runtimeVersion: '1.30.0',
        stats: { ...stats, medianUs: 0.1 + 0.2, p10Us: 0.1, p90Us: 0.5 },
        source: 'profile',
      },
    ],
    predictors: [],
  };
}
