/** One wait for a quiet moment for a whole profile command (1 and 2 threads), not one per thread count. */
import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { profileTargets } from '../../../../src-main/services/profile/profile-targets.js';
import { QuietWaits } from '../../../../src-main/services/profile/quiet-waits.js';
import type { ProfileTarget } from '../../../../src-main/services/profile/profiler-types.js';
import { fakeHost, freshDb, runnerOn } from '../../../helpers/fake-host.js';

const rule = { warmupRuns: 0, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.5, budgetMs: 50 };
const kernels = [makeKernel('Add', 'fp32', { n: 4096 })];
const ONE_ROUND = { suite: 'quick' as const, kernels, rule, refineLimit: 0, rounds: 1 };
const cpuAt = (threads: number): ProfileTarget => ({ machineId: 'm1', deviceKey: 'cpu', ep: { name: 'cpu', threads } });
const BUSY = 'other work kept 1.2 CPUs busy around it';

/** The default command's targets (1 and 2 threads) profiled in turn on `host`; each run's conditions. */
async function profileBoth(host: ReturnType<typeof fakeHost>, quietBudgetMs?: number) {
  const deps = {
    db: freshDb(),
    runner: runnerOn(host),
    now: () => new Date(),
    epUnavailable: () => null,
    cpuTimes: host.cpuTimes,
    sleep: host.sleep,
  };
  const silent = { onLog: () => undefined, onKernel: () => undefined };
  const budget = quietBudgetMs !== undefined ? { quietBudgetMs } : {};
  const reports = await profileTargets(deps, [cpuAt(1), cpuAt(2)], { ...ONE_ROUND, ...silent, ...budget });
  return reports.map((r) => r.conditions);
}

describe("a profile command's wait for a quiet moment", () => {
  it('starts the second thread count from the window read after the first: no window of its own before it', async () => {
    const host = fakeHost(() => 0.1);
    const [first, second] = await profileBoth(host);
    expect(host.windows()).toBe(3); // one before the first run, one after each
    expect(first).toMatchObject({ waitedMs: 0, poor: null });
    expect(second).toMatchObject({ waitedMs: 0, poor: null });
    expect(second?.othersBefore).toBeCloseTo(0.1);
  });

  it('on a host that stays busy, waits its budget once for the whole command, and both runs say they were busy', async () => {
    const host = fakeHost(() => 1.2);
    const conditions = await profileBoth(host, 3000);
    expect(conditions.map((c) => c?.waitedMs)).toEqual([3000, 0]);
    expect(conditions.map((c) => c?.poor)).toEqual([BUSY, BUSY]);
    expect(host.windows()).toBe(6); // four before the first run (3 s of waiting), one after each
  });

  it('waits again after a run that ended busy, within what is left of the budget', async () => {
    // Windows: 0 busy, 1 quiet (the first starts), 2 after it busy, 3 busy, 4 quiet, 5 after the second.
    const host = fakeHost((w) => (w === 1 || w === 4 ? 0 : 1.5));
    expect((await profileBoth(host)).map((c) => c?.waitedMs)).toEqual([1000, 2000]);
    expect(host.windows()).toBe(6);
    // The same host with 2.5 s for the whole command: the second has 1.5 s left, one window.
    const short = fakeHost((w) => (w === 1 || w === 4 ? 0 : 1.5));
    expect((await profileBoth(short, 2500)).map((c) => c?.waitedMs)).toEqual([1000, 1000]);
  });

  it('reads a window of its own when the last run ended more than a window ago', async () => {
    const host = fakeHost(() => 0);
    let now = 0;
    const waits = new QuietWaits({ cpuTimes: host.cpuTimes, sleep: host.sleep }, 20_000, () => now);
    await (await waits.start())?.finish();
    expect(host.windows()).toBe(2);
    now += 1500;
    await (await waits.start())?.finish();
    expect(host.windows()).toBe(4);
  });
});
