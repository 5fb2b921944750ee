/** Profiling this machine's targets in turn: what `pipedejavu profile` and the profile job share. */
import { describe, expect, it } from 'vitest';
import type { RunJob, RunOutcome } from '../../../../src-main/adapters/ort/protocol.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { devicesFromProbe, linksFromProbe } from '../../../../src-main/core/domain/devices.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import {
  nothingProfiled,
  profiledRooflines,
  profileTargets,
  skipUnloadable,
  targetName,
} from '../../../../src-main/services/profile/profile-targets.js';
import type {
  KernelRunnerLike,
  ProfileReport,
  ProfileTarget,
  ProfilerDeps,
} from '../../../../src-main/services/profile/profiler-types.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { estimateProfile } from '../../../../src-main/services/profile/profile-targets.js';
import { kernelsFor } from '../../../../src-main/services/profile/profiler-service.js';
import { PRIOR_CALIBRATION_ROUND_MS, PRIOR_OVERHEAD_MS } from '../../../../src-main/core/profiler/profile-plan.js';

const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.05, budgetMs: 60 };
const kernels = [makeKernel('MatMul', 'fp32', { B: 1, M: 64, N: 64, K: 64 }), makeKernel('Add', 'fp32', { n: 4096 })];
const cpu = (threads: number): ProfileTarget => ({ machineId: 'm1', deviceKey: 'cpu', ep: { name: 'cpu', threads } });
const gpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cuda:0', ep: { name: 'cuda', deviceId: 0 } };

function freshDb(): Database {
  const db = openDatabase(':memory:');
  const probe = sampleProbe();
  new MachineRepo(db).upsertLocalMachine(probe, 'm1', devicesFromProbe(probe), linksFromProbe(probe));
  return db;
}

/** An in-process runner answering every kernel with steady timings; it counts its closes. */
function steadyRunner(): KernelRunnerLike & { jobs: Omit<RunJob, 'id' | 'traceDir'>[]; closed: number } {
  const answer: RunOutcome = {
    id: 0,
    ok: true,
    kernelUs: [50, 50, 51, 49, 50, 50, 50],
    wallUs: [70, 70, 71, 69, 70, 70, 70],
    providers: ['CPUExecutionProvider'],
    byOpUs: {},
    nodeOps: {},
    stop: 'converged',
    sessionCreateMs: 1,
  };
  const runner = {
    jobs: [] as Omit<RunJob, 'id' | 'traceDir'>[],
    closed: 0,
    start: async () => ({ ortVersion: '9.9.9', backends: [] }),
    run: async (job: Omit<RunJob, 'id' | 'traceDir'>) => {
      runner.jobs.push(job);
      return answer;
    },
    kill: () => undefined,
    close: async () => {
      runner.closed++;
    },
  };
  return runner;
}

function depsOf(db: Database, runner: KernelRunnerLike): ProfilerDeps {
  return {
    db,
    runner,
    now: () => new Date(),
    epUnavailable: (ep) => (ep.name === 'cuda' ? 'CUDA provider not installed' : null),
  };
}

describe('profileTargets', () => {
  it('profiles each target in turn, telling its progress, and closes the runner', async () => {
    const db = freshDb();
    const runner = steadyRunner();
    const logs: string[] = [];
    const kernelsSeen: string[] = [];
    const reported: ProfileReport[] = [];
    const reports = await profileTargets(depsOf(db, runner), [cpu(1), cpu(4), gpu], {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
      rounds: 1,
      signal: new AbortController().signal,
      onLog: (line) => logs.push(line),
      onKernel: (e, who) => kernelsSeen.push(`${who}: ${e.spec.id} ${e.status}`),
      onReport: (r) => reported.push(r),
    });
    expect(reports.map((r) => [r.deviceKey, r.threads, r.status])).toEqual([
      ['cpu', 1, 'complete'],
      ['cpu', 4, 'complete'],
      ['cuda:0', null, 'unavailable'],
    ]);
    expect(reported).toEqual(reports);
    // Each target says before it starts its kernels and rounds, its fixed step count, its expected time and the retry budget.
    expect(logs).toEqual([
      expect.stringMatching(
        /^profiling cpu, 1 thread: 2 kernels \(quick suite\) x 1 round; \d+ steps in all, about \d+s \(a first guess: no run here to go by yet\)$/,
      ),
      expect.stringMatching(
        /^ {2}noisy kernels are timed again later, up to 2 more times each, within 25% of the run's time \(at most \d+ retr(y|ies)\)$/,
      ),
      expect.stringMatching(
        /^profiling cpu, 4 threads: 2 kernels \(quick suite\) x 1 round; \d+ steps in all, about \d+s \((from this machine's last run|a first guess: no run here to go by yet)\)$/,
      ),
      expect.stringMatching(/^ {2}noisy kernels/),
    ]);
    expect(kernelsSeen).toHaveLength(4);
    expect(kernelsSeen[0]).toBe(`cpu, 1 thread: ${kernels[0]?.id} measured`);
    expect(runner.closed).toBe(1);
    // A second profile resumes: every point is already stored.
    const again = await profileTargets(depsOf(db, steadyRunner()), [cpu(1)], {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
      rounds: 1,
      onLog: (line) => logs.push(line),
      onKernel: () => undefined,
    });
    expect(again[0]?.alreadyMeasured).toBe(2);
    expect(logs.at(-2)).toMatch(/^profiling cpu, 1 thread: 0 kernels \(quick suite\) x 1 round, 2 already stored; /);
  });

  it('stops before the next target once cancelled, and still closes the runner', async () => {
    const runner = steadyRunner();
    const controller = new AbortController();
    const reports = await profileTargets(depsOf(freshDb(), runner), [cpu(1), cpu(4)], {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
      rounds: 1,
      signal: controller.signal,
      onLog: () => undefined,
      onKernel: (e) => {
        if (e.index === kernels.length) controller.abort();
      },
    });
    expect(reports.map((r) => r.threads)).toEqual([1]);
    expect(runner.closed).toBe(1);
  });

  it('names a CPU target with its threads, a GPU by its key', () => {
    expect(targetName(cpu(8))).toBe('cpu, 8 threads');
    expect(targetName(cpu(1))).toBe('cpu, 1 thread');
    expect(targetName(gpu)).toBe('cuda:0');
  });
});

describe('after profiling', () => {
  const report = (deviceKey: string, status: ProfileReport['status'], notes: string[] = []): ProfileReport => ({
    runId: null,
    deviceKey,
    executionProvider: deviceKey === 'cpu' ? 'cpu' : 'cuda',
    threads: null,
    suite: 'quick',
    status,
    measured: 0,
    byOrigin: { suite: 0, calibration: 0, refinement: 0 },
    reorders: 0,
    alreadyMeasured: 0,
    failures: [],
    noisy: [],
    elapsedMs: 0,
    summary: null,
    notes,
  });

  it('a device named on purpose that gave nothing is an error; "all" never is', () => {
    const none = [report('cuda:0', 'unavailable', ['CUDA provider not installed'])];
    expect(nothingProfiled('cuda:0', none)?.message).toBe('nothing profiled on cuda:0: CUDA provider not installed');
    expect(nothingProfiled('all', none)).toBeNull();
    expect(nothingProfiled('cpu', [report('cpu', 'complete'), report('cpu', 'failed')])).toBeNull();
  });

  it('gives the rooflines of the profiled devices only', async () => {
    const db = freshDb();
    const reports = await profileTargets(depsOf(db, steadyRunner()), [cpu(1)], {
      suite: 'quick',
      kernels,
      rule,
      refineLimit: 0,
      rounds: 1,
      onLog: () => undefined,
      onKernel: () => undefined,
    });
    expect(profiledRooflines(db, 'm1', reports).map((r) => [r.deviceKey, r.threads])).toEqual([['cpu', 1]]);
    expect(profiledRooflines(db, 'm1', [report('cuda:0', 'unavailable')])).toEqual([]);
  });
});

describe('--device all skips what doctor knows cannot load', () => {
  const webgpu: ProfileTarget = { machineId: 'm1', deviceKey: 'webgpu:0', ep: { name: 'webgpu', deviceId: 0 } };
  const all = [cpu(1), cpu(2), gpu, webgpu];

  it('leaves out WebGPU without a Vulkan loader and CUDA without its libraries, one line each', () => {
    const r = skipUnloadable(all, { webgpu: 'no Vulkan loader (libvulkan.so.1)', cuda: 'libcudnn.so.9: not found' });
    expect(r.targets).toEqual([cpu(1), cpu(2)]);
    expect(r.skipped).toEqual([
      'skipped cuda:0: libcudnn.so.9: not found (see pipedejavu doctor)',
      'skipped webgpu:0: no Vulkan loader (libvulkan.so.1) (see pipedejavu doctor)',
    ]);
  });

  it('keeps every target when nothing is known against them', () => {
    expect(skipUnloadable(all, { webgpu: null, cuda: null })).toEqual({ targets: all, skipped: [] });
  });
});

describe('estimateProfile: the time a profile should take here, before it starts', () => {
  it('leaves out of `all` what cannot load here, as the profile does, and says so', () => {
    const db = freshDb();
    const blocked = () => ({ cuda: 'the CUDA provider is not installed', webgpu: 'no Vulkan loader (libvulkan.so.1)' });
    const open = () => ({ cuda: null, webgpu: null });
    const some = estimateProfile(db, { device: 'all', suite: 'quick', threads: [1] }, blocked);
    expect(some.targets.map((t) => t.target)).toEqual(['cpu, 1 thread']);
    expect(some.skipped.length).toBeGreaterThan(0);
    expect(some.skipped.every((l) => /^skipped \S+: .* \(see pipedejavu doctor\)$/.test(l))).toBe(true);
    const every = estimateProfile(db, { device: 'all', suite: 'quick', threads: [1] }, open);
    expect(every.targets.length).toBe(1 + some.skipped.length);
    expect(every.skipped).toEqual([]);
    expect(every.totalMs).toBeGreaterThan(some.totalMs);
  });

  it('sums the targets from the suite and the prior, then from the costs a past run measured', () => {
    const db = freshDb();
    const first = estimateProfile(db, { device: 'cpu', suite: 'quick', threads: [1, 2] });
    expect(first.basis).toBe('prior');
    expect(first.targets.map((t) => t.target)).toEqual(['cpu, 1 thread', 'cpu, 2 threads']);
    expect(first.targets[0]?.kernels).toBe(kernelsFor({ name: 'cpu', threads: 1 }, 'quick').length);
    expect(first.totalMs).toBeCloseTo(
      first.targets.reduce((s, t) => s + t.estimatedMs, 0),
      6,
    );
    // A past run here measured kernels at twice the prior's cost: the estimate follows.
    const repo = new ProfileRepo(db);
    for (const threads of [1, 2]) {
      const run = repo.createRun({
        machineId: 'm1',
        deviceKey: 'cpu',
        suite: 'quick',
        executionProvider: 'cpu',
        threads,
        runtimeVersion: '9.9.9',
      });
      const costs = { kernelScale: 2, overheadMs: PRIOR_OVERHEAD_MS, calibrationRoundMs: PRIOR_CALIBRATION_ROUND_MS };
      repo.finishRun(run.id, 'complete', { costs });
    }
    const again = estimateProfile(db, { device: 'cpu', suite: 'quick', threads: [1, 2] });
    expect(again.basis).toBe('measured');
    const fixed = 2 * (PRIOR_OVERHEAD_MS + 3 * PRIOR_CALIBRATION_ROUND_MS);
    expect(again.totalMs - fixed).toBeCloseTo(2 * (first.totalMs - fixed), 6);
  });

  it('promises no less than the last run of the same suite on that device took', () => {
    const db = freshDb();
    const quick = (threads: number) => estimateProfile(db, { device: 'cpu', suite: 'quick', threads: [threads] });
    const before = quick(1);
    const repo = new ProfileRepo(db);
    // The last quick run on one thread took 58 s, far more than the kernel cost model says.
    const run = repo.createRun({
      machineId: 'm1',
      deviceKey: 'cpu',
      suite: 'quick',
      executionProvider: 'cpu',
      threads: 1,
      runtimeVersion: '9.9.9',
      began: new Date(Date.now() - 58_000),
    });
    repo.finishRun(run.id, 'complete', null);
    expect(before.totalMs).toBeLessThan(58_000);
    const after = quick(1);
    expect(after.totalMs).toBeGreaterThanOrEqual(58_000);
    expect(after.basis).toBe('measured');
    // Another thread count, or another suite, is not that run.
    expect(quick(2).totalMs).toBeLessThan(58_000);
    expect(estimateProfile(db, { device: 'cpu', suite: 'standard', threads: [1] }).basis).toBe('prior');
  });
});
