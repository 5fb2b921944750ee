/**
 * An imported cluster node (a Slurm partition's machine): `gpus` like GPUs with synthetic CUDA
 * measurements of a known law, so cluster planning runs on real imported profiles without a GPU.
 */
import { createHash } from 'node:crypto';
import { devicesFromProbe, linksFromProbe } from '../../src-main/core/domain/devices.js';
import type { ProfileFile } from '../../src-main/core/profile-file/schema.js';
import { testProvenance } from './gpu-profile.js';
import { serverProbe } from './sample-probe.js';
import { device, measurementOf, syntheticSamples } from './synthetic-samples.js';

export interface ClusterNodeOptions {
  /** nvidia-smi's name (default NVIDIA H100 80GB HBM3). */
  name?: string;
  memoryMiB?: number;
  gpus?: number;
  /** Synthetic fp32 peak and memory bandwidth the measurements follow. */
  gflops?: number;
  gbps?: number;
}

export function clusterNodeProfile(hostname: string, opts: ClusterNodeOptions = {}): ProfileFile {
  const base = serverProbe(hostname, opts.gpus ?? 8);
  const id = createHash('sha256').update(hostname).digest('hex').slice(0, 16);
  const probe = {
    ...base,
    nvidia: {
      ...base.nvidia,
      gpus: base.nvidia.gpus.map((g) => ({
        ...g,
        name: opts.name ?? g.name,
        uuid: `GPU-${id}-${g.index}`,
        ...(opts.memoryMiB ? { memoryTotalMiB: opts.memoryMiB, memoryFreeMiB: opts.memoryMiB - 512 } : {}),
      })),
    },
  };
  const keys = probe.nvidia.gpus.map((g) => `cuda:${g.index}`);
  const runId = (key: string): string => `${hostname}-run-${key}`;
  return {
    format: 'pipedejavu-hardware-profile',
    formatVersion: 1,
    provenance: testProvenance('2026-11-25T12:00:00.000Z'),
    machine: { id, label: hostname, probe },
    devices: devicesFromProbe(probe),
    links: linksFromProbe(probe),
    profileRuns: keys.map((key) => ({
      id: runId(key),
      deviceKey: key,
      suite: 'quick',
      executionProvider: 'cuda',
      threads: null,
      runtimeVersion: '1.30.0',
      status: 'complete' as const,
      startedAt: '2026-11-25T11:00:00.000Z',
      finishedAt: '2026-11-25T11:01:00.000Z',
      summary: null,
      notes: [],
    })),
    measurements: keys.flatMap((key, i) =>
      syntheticSamples([{ ...device(key, opts.gflops ?? 50_000, opts.gbps ?? 3000, 1), kind: 'gpu' }], 0.01, i + 3).map(
        (s) => measurementOf(s, { runId: runId(key), deviceKey: key, executionProvider: 'cuda', threads: null }),
      ),
    ),
    predictors: [],
  };
}
