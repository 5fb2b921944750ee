import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../../src-main/adapters/ort/kernel-runner.js';
import type { RunJob, RunOutcome } from '../../../../src-main/adapters/ort/protocol.js';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { devicesFromProbe, linksFromProbe } from '../../../../src-main/core/domain/devices.js';
import { CHAIN_COPIES } from '../../../../src-main/core/kernels/chain.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import type { KernelSpec } from '../../../../src-main/core/kernels/types.js';
import { GPU_WARMUP_RUNS } from '../../../../src-main/core/profiler/gpu-timing.js';
import { median } from '../../../../src-main/core/profiler/timing-stats.js';
import { profileDevice } from '../../../../src-main/services/profile/profiler-service.js';
import type { KernelRunnerLike, ProfileTarget } from '../../../../src-main/services/profile/profiler-types.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';

type Job = Omit<RunJob, 'id' | 'traceDir'>;
const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.1, budgetMs: 80 };
const cpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cpu', ep: { name: 'cpu', threads: 1 } };
const kernels: KernelSpec[] = [
  makeKernel('Gemm', 'fp32', { M: 64, N: 96, K: 128 }),
  makeKernel('Conv', 'fp32', { N: 1, C: 8, H: 16, W: 16, K: 16, R: 3, S: 3, stride: 1, groups: 1 }),
  makeKernel('ReduceSum', 'fp32', { rows: 64, cols: 256 }),
  makeKernel('Add', 'fp32', { n: 4096 }),
];

function freshDb(): Database {
  const db = openDatabase(':memory:');
  const probe = sampleProbe();
  new MachineRepo(db).upsertLocalMachine(probe, 'm1', devicesFromProbe(probe), linksFromProbe(probe));
  return db;
}

describe('the accelerators’ timing method, run for real on the CPU EP (test switch)', () => {
  const inner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => inner.close());

  it('differences every kernel after the GPU warm-up, labels it (T(K) - T(1)) / (K - 1), and keeps the overhead', async () => {
    const jobs: Job[] = [];
    const outcomes: RunOutcome[] = [];
    // Calibration (runModel) left out: it is not what this test is about.
    const runner: KernelRunnerLike = {
      start: () => inner.start(),
      run: async (job) => {
        jobs.push(job);
        const o = await inner.run(job);
        outcomes.push(o);
        return o;
      },
      runOverhead: (job) => inner.runOverhead(job),
      kill: () => inner.kill(),
      close: () => inner.close(),
    };
    const db = freshDb();
    const deps = { db, runner, now: () => new Date(), epUnavailable: () => null };
    const r = await profileDevice(deps, cpu, {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
      rounds: 1,
      forceDifferencedTiming: true,
    });
    expect(r.status).toBe('complete');
    expect(r.failures).toEqual([]);
    expect(jobs.length).toBeGreaterThanOrEqual(kernels.length);
    for (const j of jobs)
      expect({ chain: j.chain, warmup: j.rule.warmupRuns }).toEqual({ chain: CHAIN_COPIES, warmup: GPU_WARMUP_RUNS });
    const stored = new ProfileRepo(db).listMeasurements({ machineId: 'm1' });
    // Noisy kernels are kept too (marked noisy in the run).
    expect(stored.length).toBe(kernels.length);
    for (const m of stored) {
      // The stored timing of a clean kernel is its last one; a kernel kept noisy combines its retries (roundLabel).
      if (r.noisy.some((id) => kernels.some((k) => k.id === id && k.op === m.op))) continue;
      const o = outcomes.filter((x, i) => x.ok && jobs[i]?.spec.op === m.op).pop();
      expect(o?.ok && o.chained?.copies).toBe(CHAIN_COPIES);
      if (!o?.ok || !o.chained) continue;
      const { chainUs, singleUs } = o.chained;
      const expected = median(chainUs.map((c, i) => (c - (singleUs[i] ?? 0)) / (CHAIN_COPIES - 1)));
      // The label is the median of the paired differences (floored at 0.05 µs), whatever noise did.
      expect(m.stats.medianUs).toBeCloseTo(Math.max(expected, 0.05), 6);
    }
    const summary = new ProfileRepo(db).getRun(r.runId as string)?.summary as Record<string, unknown>;
    expect(summary.timing).toEqual({ method: 'differenced', copies: CHAIN_COPIES, warmupRuns: GPU_WARMUP_RUNS });
    expect(summary.overhead).toMatchObject({ runUs: expect.any(Number), nodeUs: expect.any(Number) });
  });
});

describe('the accelerators’ timing method on a scripted CUDA device', () => {
  it('sends every kernel but the copies as a differenced job and stores the differenced label', async () => {
    const jobs: Job[] = [];
    const single = Array.from({ length: 40 }, (_, i) => 100 + (i % 2) * 0.1);
    const chain = Array.from({ length: 40 }, (_, i) => 180 + (i % 2) * 0.1);
    const copy = Array.from({ length: 40 }, () => 7);
    const runner: KernelRunnerLike = {
      start: async () => ({ ortVersion: '9.9.9', backends: [] }),
      run: async (job): Promise<RunOutcome> => {
        jobs.push(job);
        const chained = (job.chain ?? 1) > 1;
        return {
          id: 0,
          ok: true,
          kernelUs: chained ? chain.map((c, i) => (c - (single[i] ?? 0)) / 4) : copy,
          wallUs: single,
          providers: [],
          byOpUs: chained ? {} : { MemcpyFromHost: copy },
          nodeOps: {},
          ...(chained ? { chained: { copies: job.chain ?? 1, singleUs: single, chainUs: chain } } : {}),
          stop: 'converged',
          sessionCreateMs: 1,
        };
      },
      kill: () => undefined,
      close: async () => undefined,
    };
    const db = freshDb();
    const gpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cuda:0', ep: { name: 'cuda', deviceId: 0 } };
    const specs = [
      makeKernel('Gemm', 'fp16', { M: 4096, N: 1024, K: 4096 }),
      makeKernel('CopyH2D', 'fp32', { n: 1 << 20 }),
    ];
    const r = await profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, gpu, {
      suite: 'quick',
      kernels: specs,
      rule,
      refineLimit: 0,
      rounds: 1,
    });
    expect(r.status).toBe('complete');
    // The first job is the trial kernel that checks the device can run at all.
    const timed = jobs.slice(1);
    expect(timed.map((j) => [j.spec.op, j.chain, j.rule.warmupRuns])).toEqual([
      ['Gemm', CHAIN_COPIES, GPU_WARMUP_RUNS],
      ['CopyH2D', 1, GPU_WARMUP_RUNS],
    ]);
    const stored = new ProfileRepo(db).listMeasurements({ machineId: 'm1' });
    expect(stored.find((m) => m.op === 'Gemm')?.stats.medianUs).toBeCloseTo((180 - 100) / (CHAIN_COPIES - 1), 6);
    expect(stored.find((m) => m.op === 'CopyH2D')?.stats.medianUs).toBe(7);
  });
});
