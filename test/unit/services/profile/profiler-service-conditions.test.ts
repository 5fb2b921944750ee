import { describe, expect, it } from 'vitest';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { profileDevice } from '../../../../src-main/services/profile/profiler-service.js';
import type { ProfileEvent, ProfileTarget } from '../../../../src-main/services/profile/profiler-types.js';
import { renderProfileReport } from '../../../../src-main/cli/render/profile.js';
import { fakeHost, freshDb, runnerOn } from '../../../helpers/fake-host.js';

const rule = { warmupRuns: 0, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.5, budgetMs: 50 };
const cpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cpu', ep: { name: 'cpu', threads: 2 } };
const gpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cuda:0', ep: { name: 'cuda', deviceId: 0 } };
const kernels = [makeKernel('Add', 'fp32', { n: 4096 }), makeKernel('Relu', 'fp32', { n: 1024 })];

async function profileOn(host: ReturnType<typeof fakeHost> | null, target = cpu, quietBudgetMs?: number) {
  const db = freshDb();
  const h = host ?? fakeHost(() => 0);
  const events: ProfileEvent[] = [];
  const deps = {
    db,
    runner: runnerOn(h),
    now: () => new Date(),
    epUnavailable: () => null,
    ...(host ? { cpuTimes: host.cpuTimes, sleep: host.sleep } : {}),
  };
  const report = await profileDevice(deps, target, {
    suite: 'quick',
    kernels,
    rule,
    refineLimit: 0,
    rounds: 1,
    onEvent: (e) => events.push(e),
    ...(quietBudgetMs !== undefined ? { quietBudgetMs } : {}),
  });
  const waits = events.filter((e): e is Extract<ProfileEvent, { type: 'wait' }> => e.type === 'wait');
  return { db, report, waits, stored: new ProfileRepo(db).getRun(report.runId as string) };
}

describe('the conditions a CPU profile is taken in', () => {
  it('starts at once on a quiet host, reads one window before and one after, and stores them', async () => {
    const host = fakeHost(() => 0.1);
    const { report, waits, stored } = await profileOn(host);
    expect(report.status).toBe('complete');
    expect(waits).toEqual([]);
    expect(host.windows()).toBe(2);
    expect(report.conditions).toMatchObject({ waitedMs: 0, poor: null, stealShare: 0 });
    expect(report.conditions?.othersBefore).toBeCloseTo(0.1);
    expect(report.conditions?.othersAfter).toBeCloseTo(0.1);
    expect(stored?.conditions).toEqual(report.conditions);
    expect(report.notes.join(' ')).not.toMatch(/profiled while|quiet moment/);
    expect(renderProfileReport(report)).not.toMatch(/warning/);
  });

  it('waits for a quiet moment while other work runs, says so, and the run is not poor once it is quiet', async () => {
    const host = fakeHost((w) => (w < 2 ? 1.5 : 0));
    const { report, waits, stored } = await profileOn(host);
    expect(waits).toHaveLength(1);
    expect(waits[0]?.line).toMatch(/other work keeps 1\.5 CPUs busy: waiting up to 20 s for a quiet moment/);
    expect(host.windows()).toBe(4); // two busy, one quiet, one after
    expect(report.conditions).toMatchObject({ waitedMs: 2000, poor: null });
    expect(stored?.conditions?.waitedMs).toBe(2000);
    expect(report.notes).toContain('waited 2 s for a quiet moment before it started');
  });

  it('starts anyway when the budget runs out, and marks the run poor in its notes, its conditions and its report', async () => {
    const host = fakeHost(() => 1.2);
    const { report, waits, stored } = await profileOn(host, cpu, 3000);
    expect(waits).toHaveLength(1);
    expect(host.windows()).toBe(5); // four before (3 s of waiting), one after
    expect(report.conditions).toMatchObject({ waitedMs: 3000, poor: 'other work kept 1.2 CPUs busy around it' });
    expect(stored?.conditions?.poor).toBe('other work kept 1.2 CPUs busy around it');
    const poorNotes = report.notes.filter((n) => n.startsWith('profiled while'));
    expect(poorNotes).toEqual([
      'profiled while other work kept 1.2 CPUs busy around it: its timings may read slow, and every prediction from them; `pipedejavu profile --device cpu --threads 2` on a quiet machine measures again',
    ]);
    expect(stored?.notes).toEqual(report.notes);
    expect(renderProfileReport(report)).toMatch(
      /warning: profiled while other work kept 1\.2 CPUs busy around it: .*profile again on a quiet machine/,
    );
  });

  it('measures again, on the next run, what a run in poor conditions stored; a quiet run ends that', async () => {
    const busy = fakeHost(() => 1.2);
    const first = await profileOn(busy, cpu, 0);
    expect(first.report.conditions?.poor).not.toBeNull();
    expect(first.report.noisy).toEqual([]);
    const quiet = fakeHost(() => 0);
    const deps = { db: first.db, runner: runnerOn(quiet), now: () => new Date(), epUnavailable: () => null };
    const opts = { suite: 'quick' as const, kernels, rule, refineLimit: 0, rounds: 1 };
    const again = await profileDevice({ ...deps, cpuTimes: quiet.cpuTimes, sleep: quiet.sleep }, cpu, opts);
    expect(again.measured).toBe(kernels.length);
    expect(again.alreadyMeasured).toBe(0);
    expect(again.notes).toContain(
      '2 kernels stored by a run taken in poor conditions (busy or stolen CPUs) measured again',
    );
    const rows = new ProfileRepo(first.db).listMeasurements({ machineId: 'm1' });
    expect(rows).toHaveLength(kernels.length);
    expect(rows.every((m) => m.runId === again.runId)).toBe(true);
    const third = await profileDevice({ ...deps, cpuTimes: quiet.cpuTimes, sleep: quiet.sleep }, cpu, opts);
    expect(third.measured).toBe(0);
    expect(third.alreadyMeasured).toBe(kernels.length);
  });

  it('counts the time the hypervisor stole over the run', async () => {
    const host = fakeHost(() => 0, 0.2);
    const { report } = await profileOn(host);
    expect(report.conditions?.stealShare).toBeCloseTo(0.2);
    expect(report.conditions?.poor).toBe('the hypervisor stole 20% of its CPU time');
  });

  it('reads nothing and never waits without a CPU-times reader, or on a GPU', async () => {
    const none = await profileOn(null);
    expect(none.report.conditions ?? null).toBeNull();
    expect(none.stored?.conditions).toBeNull();
    const host = fakeHost(() => 2);
    const onGpu = await profileOn(host, gpu);
    expect(host.windows()).toBe(0);
    expect(onGpu.waits).toEqual([]);
    expect(onGpu.stored?.conditions).toBeNull();
  });
});
