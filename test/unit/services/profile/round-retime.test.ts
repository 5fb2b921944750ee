import { describe, expect, it } from 'vitest';
import type { RunJob, RunOutcome } from '../../../../src-main/adapters/ort/protocol.js';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { devicesFromProbe, linksFromProbe } from '../../../../src-main/core/domain/devices.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import type { KernelSpec } from '../../../../src-main/core/kernels/types.js';
import { profileDevice } from '../../../../src-main/services/profile/profiler-service.js';
import type { RetimedKernels } from '../../../../src-main/services/profile/round-retime.js';
import type { KernelRunnerLike, ProfileTarget } from '../../../../src-main/services/profile/profiler-types.js';
import { fakeHost } from '../../../helpers/fake-host.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';

const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.05, budgetMs: 60 };
const cpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cpu', ep: { name: 'cpu', threads: 2 } };
// Twelve small kernels, each timed chained (its own time is a difference of chain and single runs).
const kernels: KernelSpec[] = ['Add', 'Mul', 'Relu', 'Sigmoid'].flatMap((op) =>
  [1024, 4096, 16384].map((n) => makeKernel(op as 'Add', 'fp32', { n })),
);
const bad = kernels[7] as KernelSpec;
const baseUs = (spec: KernelSpec): number => 2 + kernels.indexOf(spec);

function freshDb(): Database {
  const db = openDatabase(':memory:');
  const probe = sampleProbe();
  new MachineRepo(db).upsertLocalMachine(probe, 'm1', devicesFromProbe(probe), linksFromProbe(probe));
  return db;
}

/** A chained timing whose paired differences are `us` each. */
const chained = (us: number): RunOutcome => ({
  id: 0,
  ok: true,
  kernelUs: Array<number>(7).fill(us),
  wallUs: Array<number>(7).fill(20 + 4 * us),
  providers: ['CPUExecutionProvider'],
  byOpUs: {},
  nodeOps: {},
  chained: { copies: 5, singleUs: Array<number>(7).fill(20), chainUs: Array<number>(7).fill(20 + 4 * us) },
  stop: 'converged',
  sessionCreateMs: 1,
});

/**
 * A fake timer source: every kernel steady within ±1% over its two rounds, but one whose second
 * round lands in a slow mode (+50%); after the rounds the machine runs 20% slower for everything.
 */
function fakeTimer(
  slowRound: (spec: KernelSpec, call: number) => number,
  othersCpus?: (spec: KernelSpec, call: number) => number,
): {
  runner: KernelRunnerLike;
  calls: string[];
} {
  const seen = new Map<string, number>();
  const calls: string[] = [];
  const runner: KernelRunnerLike = {
    start: async () => ({ ortVersion: '9.9.9', backends: [] }),
    run: async (job: Omit<RunJob, 'id' | 'traceDir'>) => {
      const call = (seen.get(job.spec.id) ?? 0) + 1;
      seen.set(job.spec.id, call);
      calls.push(job.spec.id);
      const jitter = 1 + ((kernels.indexOf(job.spec) % 3) - 1) * 0.01 * (call === 2 ? 1 : 0);
      const o = chained(baseUs(job.spec) * jitter * slowRound(job.spec, call));
      return othersCpus ? { ...o, beside: { othersCpus: othersCpus(job.spec, call), cpus: 2 } } : o;
    },
    kill: () => undefined,
    close: async () => undefined,
  };
  return { runner, calls };
}

/** The kernels profiled in two rounds with the fake timer source, no refinement. */
const twoRounds = (db: Database, runner: KernelRunnerLike, target = cpu): ReturnType<typeof profileDevice> =>
  profileDevice({ db, runner, now: () => new Date(), epUnavailable: () => null }, target, {
    suite: 'quick',
    kernels,
    rule,
    refineLimit: 0,
    rounds: 2,
  });

describe('re-timing a kernel whose rounds disagree', () => {
  it('re-times it in a later pass beside a steady reference, keeps the mode the reference supports, and records why', async () => {
    const db = freshDb();
    const { runner, calls } = fakeTimer((spec, call) => (call >= 3 ? 1.2 : spec.id === bad.id && call === 2 ? 1.5 : 1));
    const r = await twoRounds(db, runner);
    expect(r.status).toBe('complete');
    // Two rounds of every kernel, then the later pass: the reference, the kernel, the reference again.
    const later = calls.slice(2 * kernels.length);
    expect(later).toHaveLength(3);
    expect(later[1]).toBe(bad.id);
    expect(later[0]).toBe(later[2]);
    expect(later[0]).not.toBe(bad.id);
    // Averaging the rounds would have kept (1 + 1.5) / 2 of its time; the later timing, less the
    // machine's 20% drift the reference shows, sides with round 1.
    const stored = new ProfileRepo(db)
      .listMeasurements({ machineId: 'm1' })
      .find((m) => m.op === bad.op && m.shape['n'] === bad.shape['n']);
    expect(Math.abs((stored?.stats.medianUs ?? 0) / baseUs(bad) - 1)).toBeLessThan(0.01);
    const retimed = r.summary?.['retimed'] as RetimedKernels;
    expect(retimed.retimed).toEqual([
      expect.objectContaining({ kernel: bad.id, kept: [0, 2], settled: true, reference: later[0] }),
    ]);
    expect(retimed.retimed[0]?.deviation).toBeCloseTo(0.5, 1);
    expect(retimed.retimed[0]?.referenceDrift).toBeCloseTo(1.2, 1);
    // The stored run carries the same record, and the report says it in a note.
    expect(new ProfileRepo(db).getRun(r.runId as string)?.summary?.['retimed']).toEqual(retimed);
    expect(r.notes).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^1 kernel re-timed in a later pass .*${bad.id} \\+50% \\(kept round 1 and the later timing: ${baseUs(bad).toFixed(1)} µs\\)`,
        ),
      ),
    );
  });

  it('re-times nothing when every kernel’s rounds agree, even when the whole machine drifts between them', async () => {
    const db = freshDb();
    const { runner, calls } = fakeTimer((_spec, call) => (call === 2 ? 1.3 : 1));
    const r = await twoRounds(db, runner);
    expect(calls).toHaveLength(2 * kernels.length);
    expect((r.summary?.['retimed'] as RetimedKernels).retimed).toEqual([]);
    expect(r.notes.some((n) => n.includes('re-timed'))).toBe(false);
  });
});

describe('re-timing beside a reference whose rounds agreed in a slow mode', () => {
  it('does not carry the reference’s slow mode into the kernel: its later timing is taken as timed', async () => {
    const db = freshDb();
    // The kernels next to `bad` (the references nearest it) run twice their time in both rounds and
    // at their own speed afterwards; `bad` is slow in its first round only.
    const near = new Set([(kernels[6] as KernelSpec).id, (kernels[8] as KernelSpec).id]);
    const { runner, calls } = fakeTimer((spec, call) =>
      near.has(spec.id) ? (call <= 2 ? 2 : 1) : spec.id === bad.id && call === 1 ? 1.5 : 1,
    );
    const r = await twoRounds(db, runner);
    const later = calls.slice(2 * kernels.length);
    expect(later[1]).toBe(bad.id);
    expect(near.has(later[0] as string)).toBe(true);
    const retimed = (r.summary?.['retimed'] as RetimedKernels).retimed;
    // The reference read x0.5 of its label: divided by that, the later timing would read 2x and
    // side with no round; taken as timed it agrees with round 2.
    expect(retimed).toEqual([
      expect.objectContaining({ kernel: bad.id, kept: [1, 2], settled: true, referenceDrift: 1 }),
    ]);
    const stored = new ProfileRepo(db)
      .listMeasurements({ machineId: 'm1' })
      .find((m) => m.op === bad.op && m.shape['n'] === bad.shape['n']);
    expect(Math.abs((stored?.stats.medianUs ?? 0) / baseUs(bad) - 1)).toBeLessThan(0.01);
  });
});

describe('re-timing a kernel slower at 2 threads than on 1', () => {
  // 12 µs on one thread: over the 10 µs under which a pool's wake-up is a real cost.
  const slow = kernels[10] as KernelSpec;
  const oneThread: ProfileTarget = { ...cpu, ep: { name: 'cpu', threads: 1 } };

  it('re-times a kernel whose every round ran far slower than on 1 thread, and keeps the later timing the 1-thread label supports', async () => {
    const db = freshDb();
    await twoRounds(db, fakeTimer(() => 1).runner, oneThread);
    const { runner, calls } = fakeTimer((spec, call) => (spec.id === slow.id && call <= 2 ? 4 : 1));
    const r = await twoRounds(db, runner);
    expect(calls.slice(2 * kernels.length)).toContain(slow.id);
    const stored = new ProfileRepo(db)
      .listMeasurements({ machineId: 'm1' })
      .find((m) => m.threads === 2 && m.op === slow.op && m.shape['n'] === slow.shape['n']);
    expect(Math.abs((stored?.stats.medianUs ?? 0) / baseUs(slow) - 1)).toBeLessThan(0.02);
    const retimed = (r.summary?.['retimed'] as RetimedKernels).retimed;
    expect(retimed).toEqual([expect.objectContaining({ kernel: slow.id, kept: [2], settled: true })]);
    expect(retimed[0]?.oneThreadUs).toBeCloseTo(baseUs(slow), 1);
    expect(r.notes).toContainEqual(expect.stringMatching(/every round ran slower than the same kernel on 1 thread/));
    expect(r.notes).toContainEqual(expect.stringContaining(`${slow.id} +300% over its 12.0 µs on 1 thread`));
  });

  it('bounds nothing without a stored 1-thread run', async () => {
    const db = freshDb();
    const { runner, calls } = fakeTimer((spec, call) => (spec.id === slow.id && call <= 2 ? 4 : 1));
    const r = await twoRounds(db, runner);
    expect(calls).toHaveLength(2 * kernels.length);
    expect((r.summary?.['retimed'] as RetimedKernels).retimed).toEqual([]);
  });
});

describe('re-timing a kernel whose every round shared its CPUs with other work', () => {
  const crowdedKernel = kernels[5] as KernelSpec;
  it('times it again after the rounds and keeps that timing when nothing crowded it, saying why', async () => {
    const db = freshDb();
    const { runner, calls } = fakeTimer(
      (spec, call) => (spec.id === crowdedKernel.id && call <= 2 ? 1.9 : 1),
      (spec, call) => (spec.id === crowdedKernel.id && call <= 2 ? 0.9 : 0),
    );
    const r = await twoRounds(db, runner);
    expect(calls.slice(2 * kernels.length)).toEqual([crowdedKernel.id]);
    const stored = new ProfileRepo(db)
      .listMeasurements({ machineId: 'm1' })
      .find((m) => m.op === crowdedKernel.op && m.shape['n'] === crowdedKernel.shape['n']);
    expect(Math.abs((stored?.stats.medianUs ?? 0) / baseUs(crowdedKernel) - 1)).toBeLessThan(0.01);
    const retimed = (r.summary?.['retimed'] as RetimedKernels).retimed;
    expect(retimed).toEqual([
      expect.objectContaining({ kernel: crowdedKernel.id, besideCpus: 0.9, kept: [2], settled: true, reference: null }),
    ]);
    expect(r.notes).toContainEqual(
      expect.stringMatching(/^1 kernel re-timed in a later pass: every round of it shared its CPUs with other work/),
    );
  });

  it('keeps its rounds, unsettled, when the later timing is crowded too', async () => {
    const db = freshDb();
    const { runner } = fakeTimer(
      (spec) => (spec.id === crowdedKernel.id ? 1.9 : 1),
      (spec) => (spec.id === crowdedKernel.id ? 0.9 : 0),
    );
    const r = await twoRounds(db, runner);
    const retimed = (r.summary?.['retimed'] as RetimedKernels).retimed;
    expect(retimed).toEqual([expect.objectContaining({ kernel: crowdedKernel.id, settled: false, kept: [0, 1] })]);
    // The rounds' own label (the fake's second round 1% slower), not the crowded later timing.
    expect(Math.abs((retimed[0]?.keptUs ?? 0) / (baseUs(crowdedKernel) * 1.9) - 1)).toBeLessThan(0.011);
    expect((r.summary?.['retimed'] as RetimedKernels).crowded).toBe(1);
  });

  it('marks the run’s conditions poor when crowded timings stay, so that a later profile measures them again', async () => {
    const db = freshDb();
    const host = fakeHost(() => 0);
    const { runner } = fakeTimer(
      (spec) => (spec.id === crowdedKernel.id ? 1.9 : 1),
      (spec) => (spec.id === crowdedKernel.id ? 0.9 : 0),
    );
    const r = await profileDevice(
      { db, runner, now: () => new Date(), epUnavailable: () => null, cpuTimes: host.cpuTimes, sleep: host.sleep },
      cpu,
      { suite: 'quick', kernels, rule, refineLimit: 0, rounds: 2 },
    );
    expect(r.conditions).toMatchObject({
      crowdedKernels: 1,
      poor: 'other work shared the CPUs of 1 kernel in every round',
    });
    expect(new ProfileRepo(db).getRun(r.runId as string)?.conditions?.crowdedKernels).toBe(1);
    expect(r.notes).toContainEqual(expect.stringMatching(/^profiled while other work shared the CPUs of 1 kernel/));
  });

  it('re-times nothing crowded at 1 thread beside one CPU of other work', async () => {
    const db = freshDb();
    const { runner, calls } = fakeTimer(
      () => 1,
      () => 1,
    );
    await twoRounds(db, runner, { ...cpu, ep: { name: 'cpu', threads: 1 } });
    expect(calls).toHaveLength(2 * kernels.length);
  });
});
