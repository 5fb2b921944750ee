/**
 * An imported lab machine with two profiled GPUs (the RTX 4080 SUPER and 2080 SUPER of the
 * shared captures): synthetic CUDA measurements with a known law, so the planner can be tested
 * on an imported multi-GPU profile without a GPU here.
 */
import { devicesFromProbe, linksFromProbe } from '../../src-main/core/domain/devices.js';
import type { ProfileFile } from '../../src-main/core/profile-file/schema.js';
import { sampleProbe } from './sample-probe.js';
import { device, measurementOf, syntheticSamples } from './synthetic-samples.js';

export const GPU_BOX = 'gpu-box';

/** The provenance of a test profile file exported at `exportedAt`. */
export function testProvenance(exportedAt: string): ProfileFile['provenance'] {
  return {
    tool: 'pipedejavu',
    toolVersion: '0.1.0',
    exportedAt,
    runtimes: { node: 'v20.20.2', onnxruntime: '1.30.0' },
  };
}

export interface GpuServerOptions {
  hostname?: string;
  /** Both GPUs become this model with this much memory (default: the 4080 SUPER and 2080 SUPER). */
  gpus?: { name: string; memoryMiB: number };
}

export function gpuServerProfile(opts: GpuServerOptions = {}): ProfileFile {
  const base = sampleProbe({ hostname: opts.hostname ?? GPU_BOX });
  const like = opts.gpus;
  const probe =
    like && base.nvidia.status === 'ok'
      ? {
          ...base,
          nvidia: {
            ...base.nvidia,
            gpus: base.nvidia.gpus.map((g) => ({
              ...g,
              name: like.name,
              memoryTotalMiB: like.memoryMiB,
              memoryFreeMiB: like.memoryMiB - 512,
            })),
          },
        }
      : base;
  const gpus = [
    { key: 'cuda:0', gflops: 40_000, gbps: 700 },
    { key: 'cuda:1', gflops: 11_000, gbps: 450 },
  ];
  const runs = gpus.map((g, i) => ({
    id: `${opts.hostname ?? ''}gpu-run-${i}`,
    deviceKey: g.key,
    suite: 'quick',
    executionProvider: 'cuda',
    threads: null,
    runtimeVersion: '1.30.0',
    status: 'complete' as const,
    startedAt: '2026-11-21T11:00:00.000Z',
    finishedAt: '2026-11-21T11:01:00.000Z',
    summary: null,
    notes: [],
  }));
  const measurements = gpus.flatMap((g, i) =>
    syntheticSamples([{ ...device(g.key, g.gflops, g.gbps, 1), kind: 'gpu' }], 0.01, i + 3).map((s) =>
      measurementOf(s, {
        runId: `${opts.hostname ?? ''}gpu-run-${i}`,
        deviceKey: g.key,
        executionProvider: 'cuda',
        threads: null,
      }),
    ),
  );
  return {
    format: 'pipedejavu-hardware-profile',
    formatVersion: 1,
    provenance: testProvenance('2026-11-21T12:00:00.000Z'),
    machine: { id: opts.hostname ? 'c3d4e5f607182930' : 'b2c3d4e5f6071829', label: probe.hostname, probe },
    devices: devicesFromProbe(probe),
    links: linksFromProbe(probe),
    profileRuns: runs,
    measurements,
    predictors: [],
  };
}

/** nccl-tests all_reduce_perf output shaped like the real tool's, for two ranks on gpu-box. HAND-WRITTEN. */
export function ncclTwoRanks(host = GPU_BOX, gbps = 2): string {
  const rows: string[] = [];
  for (let size = 1024; size <= 2 ** 28; size *= 4) {
    const t = 30 + size / (gbps * 1e3);
    const algbw = size / t / 1e3;
    const fmt = (v: number): string => v.toFixed(2).padStart(8);
    rows.push(
      `${String(size).padStart(12)}  ${String(size / 4).padStart(12)}     float     sum      -1 ${fmt(t)} ${fmt(algbw)} ${fmt(algbw)}      0 ${fmt(t)} ${fmt(algbw)} ${fmt(algbw)}      0`,
    );
  }
  return [
    '# Collective test starting: all_reduce_perf',
    '# nThread 1 nGpus 2 minBytes 1024 maxBytes 268435456 step: 4(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0',
    '#',
    '# Using devices',
    `#  Rank  0 Group  0 Pid  1000 on ${host} device  0 [0x01] NVIDIA GeForce RTX 4080 SUPER`,
    `#  Rank  1 Group  0 Pid  1000 on ${host} device  1 [0x02] NVIDIA GeForce RTX 2080 SUPER`,
    '#',
    '#                                                              out-of-place                       in-place          ',
    '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong',
    '#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ',
    ...rows,
    '# Out of bounds values : 0 OK',
    '# Avg bus bandwidth    : 4.5 ',
    '#',
  ].join('\n');
}
