/** A valid hardware-profile file with `n` measurements (spread over runs), for import benchmarks and tests. */
import type { Measurement } from '../../src-main/core/domain/measurement.js';
import type { ProfileFile } from '../../src-main/core/profile-file/schema.js';
import { sampleProfileFile } from './sample-profile.js';

export function bigProfileFile(n: number, machineId = 'b16b16b16b16b16b', perRun = 15_000): ProfileFile {
  const base = sampleProfileFile();
  const template = base.profileRuns[0]!;
  const runs = Array.from({ length: Math.max(1, Math.ceil(n / perRun)) }, (_, i) => ({
    ...template,
    id: `${machineId}-run-${String(i).padStart(5, '0')}`,
    threads: i + 1,
  }));
  const stats = { medianUs: 812.5, p10Us: 800.25, p90Us: 830.125, cv: 0.0125, repetitions: 40, wallMedianUs: 850.5 };
  const measurements: Measurement[] = [];
  for (let i = 0; i < n; i++) {
    const r = Math.floor(i / perRun);
    const j = i % perRun;
    const M = 1 + (j % 150);
    const N = 1 + Math.floor(j / 150);
    measurements.push({
      runId: runs[r]!.id,
      deviceKey: 'cpu',
      op: 'MatMul',
      family: 'gemm',
      shape: { B: 1, M, N, K: 64 },
      dtype: 'fp32',
      flops: 2 * M * N * 64,
      bytes: 4 * (M * 64 + 64 * N + M * N),
      executionProvider: 'cpu',
      threads: runs[r]!.threads,
      runtimeVersion: '1.30.0',
      stats: { ...stats, medianUs: 10 + (i % 977), p10Us: 9 + (i % 977), p90Us: 11 + (i % 977) },
      source: 'profile',
    });
  }
  return { ...base, machine: { ...base.machine, id: machineId, label: `big-${n}` }, profileRuns: runs, measurements };
}
