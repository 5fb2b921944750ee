import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClockSampler } from '../../../../src-main/adapters/nvidia-smi/sample-clocks.js';
import type { RunOutcome } from '../../../../src-main/adapters/ort/protocol.js';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { devicesFromProbe, linksFromProbe } from '../../../../src-main/core/domain/devices.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import type { GpuClockSampler, GpuClockSummary } from '../../../../src-main/core/profiler/gpu-clocks.js';
import { profileDevice } from '../../../../src-main/services/profile/profiler-service.js';
import type { KernelRunnerLike, ProfileTarget } from '../../../../src-main/services/profile/profiler-types.js';
import { CAPTURES, makeFakeSmi, type FakeSmi } from '../../../helpers/fake-nvidia-smi.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';

const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.1, budgetMs: 80 };
const gpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cuda:0', ep: { name: 'cuda', deviceId: 0 } };
const specs = [makeKernel('Gemm', 'fp16', { M: 1024, N: 1024, K: 1024 }), makeKernel('Add', 'fp16', { n: 1 << 20 })];
const single = Array.from({ length: 40 }, (_, i) => 100 + (i % 2) * 0.1);
const chain = Array.from({ length: 40 }, (_, i) => 180 + (i % 2) * 0.1);

function freshDb(): Database {
  const db = openDatabase(':memory:');
  const probe = sampleProbe();
  new MachineRepo(db).upsertLocalMachine(probe, 'm1', devicesFromProbe(probe), linksFromProbe(probe));
  return db;
}

/** A CUDA device that always answers with the same chained timing; counts the timing jobs. */
function scriptedGpu(): { runner: KernelRunnerLike; jobs: () => number } {
  let n = 0;
  const runner: KernelRunnerLike = {
    start: async () => ({ ortVersion: '9.9.9', backends: [] }),
    run: async (job): Promise<RunOutcome> => {
      n++;
      return {
        id: 0,
        ok: true,
        kernelUs: chain.map((c, i) => (c - (single[i] ?? 0)) / 4),
        wallUs: single,
        providers: [],
        byOpUs: {},
        nodeOps: {},
        ...((job.chain ?? 1) > 1 ? { chained: { copies: job.chain ?? 1, singleUs: single, chainUs: chain } } : {}),
        stop: 'converged',
        sessionCreateMs: 1,
      };
    },
    kill: () => undefined,
    close: async () => undefined,
  };
  return { runner, jobs: () => n };
}

async function profileWith(gpuClocks: GpuClockSampler | undefined): Promise<{
  summary: Record<string, unknown> | null;
  notes: string[];
  jobs: number;
  stored: number;
}> {
  const db = freshDb();
  const { runner, jobs } = scriptedGpu();
  const deps = { db, runner, now: () => new Date(), epUnavailable: () => null, ...(gpuClocks ? { gpuClocks } : {}) };
  const r = await profileDevice(deps, gpu, { suite: 'quick', kernels: specs, rule, refineLimit: 0, rounds: 1 });
  expect(r.status).toBe('complete');
  const repo = new ProfileRepo(db);
  return {
    summary: repo.getRun(r.runId as string)?.summary ?? null,
    notes: r.notes,
    jobs: jobs() - 1, // the trial kernel
    stored: repo.listMeasurements({ machineId: 'm1' }).length,
  };
}

describe('nvidia-smi readings around every GPU batch (fake nvidia-smi replaying captures)', () => {
  let fake: FakeSmi;
  beforeAll(async () => {
    fake = await makeFakeSmi();
  });
  afterAll(() => fake.cleanup());

  it('stores the SM clock, temperature and power with the run; an idle GPU is not throttled', async () => {
    const r = await profileWith(localClockSampler(fake.env(CAPTURES.h100)));
    expect(r.jobs).toBe(specs.length);
    const clocks = r.summary?.gpuClocks as GpuClockSummary;
    expect(clocks).toEqual({
      samples: 2 * specs.length,
      smClockMHz: { min: 345, max: 345 },
      temperatureC: { min: 41, max: 41 },
      powerW: { min: 69.85, max: 69.85 },
      remeasured: [],
      throttled: [],
    });
  });

  it('times a throttled batch again once and flags it when the throttle is still on', async () => {
    const r = await profileWith(localClockSampler(fake.env(CAPTURES.h100Throttled)));
    expect(r.jobs).toBe(2 * specs.length);
    expect(r.stored).toBe(specs.length);
    const clocks = r.summary?.gpuClocks as GpuClockSummary;
    expect(clocks.remeasured).toEqual(specs.map((s) => s.id));
    expect(clocks.throttled).toEqual(
      specs.map((s) => ({ kernel: s.id, reasons: ['sw_power_cap', 'hw_thermal_slowdown'] })),
    );
    expect(r.notes.filter((n) => /flagged throttled/.test(n))).toHaveLength(specs.length);
  });

  it('keeps a batch that was fine when timed again, unflagged', async () => {
    let calls = 0;
    const throttledFirst: GpuClockSampler = async () => ({
      kind: 'ok',
      sample: { smClockMHz: 1980, temperatureC: 60, powerW: 650, reasonsMask: calls++ < 2 ? '0x40' : '0x0' },
    });
    const r = await profileWith(throttledFirst);
    const clocks = r.summary?.gpuClocks as GpuClockSummary;
    expect(clocks.remeasured).toEqual([specs[0]?.id]);
    expect(clocks.throttled).toEqual([]);
    expect(r.jobs).toBe(specs.length + 1);
  });

  it('a hanging nvidia-smi: one note, no more readings, every kernel still measured', async () => {
    const r = await profileWith(localClockSampler(fake.env(CAPTURES.h100, 'hang'), { timeoutMs: 200 }));
    expect(r.stored).toBe(specs.length);
    expect(r.notes.filter((n) => /GPU clocks/.test(n))).toEqual([
      `GPU clocks, temperature and power not read (nvidia-smi did not answer within 0.2 s (${fake.smiPath})); profiling goes on without them`,
    ]);
    expect((r.summary?.gpuClocks as GpuClockSummary).samples).toBe(0);
  });

  it('a missing nvidia-smi: one note; no sampler at all: nothing about clocks', async () => {
    const missing = await profileWith(localClockSampler({ PIPEDEJAVU_NVIDIA_SMI: '/nonexistent/nvidia-smi' }));
    expect(missing.stored).toBe(specs.length);
    expect(missing.notes.filter((n) => /GPU clocks/.test(n))).toHaveLength(1);
    const none = await profileWith(undefined);
    expect(none.summary?.gpuClocks).toBeUndefined();
  });
});
