/**
 * One profiler per machine across processes: a live holder (another process) makes a
 * second profiler refuse with one line; a dead one is taken over and its runs closed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { ProfilerLockRepo } from '../../../../src-main/adapters/store/profiler-lock-repo.js';
import { isProcessAlive } from '../../../../src-main/adapters/system/process-identity.js';
import { UserError } from '../../../../src-main/core/errors.js';
import { closeAbandonedRuns, takeProfilerLock } from '../../../../src-main/services/profile/profiler-lock.js';
import { SEEDED_MACHINE, seededDb } from '../../../helpers/seeded-store.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** Another live process, as the lock records it. */
async function otherProcess(): Promise<{
  child: ChildProcess;
  owner: { host: string; pid: number; processStart: string };
}> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((r) => child.once('spawn', r));
  const pid = child.pid as number;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  return { child, owner: { host: os.hostname(), pid, processStart: `${boot}:${start}` } };
}

function runningRun(db: ReturnType<typeof seededDb>): string {
  return new ProfileRepo(db).createRun({
    machineId: SEEDED_MACHINE,
    deviceKey: 'cpu',
    suite: 'quick',
    executionProvider: 'cpu',
    threads: 2,
    runtimeVersion: '1.30.0',
  }).id;
}

describe.skipIf(process.platform !== 'linux')('the profiler lock', () => {
  it('refuses with one line naming the live holder, and takes over once it is dead', async () => {
    const db = seededDb();
    const { child, owner } = await otherProcess();
    expect(isProcessAlive(owner)).toBe(true);
    const locks = new ProfilerLockRepo(db);
    expect(locks.acquire(SEEDED_MACHINE, 'cpu', owner, () => true, 60_000).ok).toBe(true);
    const orphan = runningRun(db);

    let message = '';
    try {
      takeProfilerLock(db, SEEDED_MACHINE, 'cpu');
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      message = (e as Error).message;
    }
    expect(message).toMatch(new RegExp(`another pipedejavu process \\(pid ${owner.pid} on .*\\) is profiling cpu`));
    expect(message).not.toContain('\n');
    expect(new ProfileRepo(db).getRun(orphan)?.status).toBe('running');

    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(isProcessAlive(owner)).toBe(false);
    const release = takeProfilerLock(db, SEEDED_MACHINE, 'cpu');
    // The dead holder's run is closed the moment the lock changes hands.
    expect(new ProfileRepo(db).getRun(orphan)?.status).toBe('interrupted');
    expect(locks.holder(SEEDED_MACHINE)?.pid).toBe(process.pid);
    release();
    expect(locks.holder(SEEDED_MACHINE)).toBeNull();
  });

  it('a reused pid is not the holder: the process start time tells them apart', async () => {
    const db = seededDb();
    const { owner } = await otherProcess();
    expect(isProcessAlive({ ...owner, processStart: 'another-boot:1' })).toBe(false);
    const locks = new ProfilerLockRepo(db);
    locks.acquire(SEEDED_MACHINE, 'cpu', { ...owner, processStart: 'another-boot:1' }, () => true, 60_000);
    const release = takeProfilerLock(db, SEEDED_MACHINE, 'cpu');
    release();
  });

  it('a holder on another host counts as alive until it has been silent too long', () => {
    let now = new Date('2026-11-23T10:00:00Z');
    const db = seededDb();
    const locks = new ProfilerLockRepo(db, () => now);
    const remote = { host: 'node-17', pid: 4242, processStart: null };
    expect(locks.acquire(SEEDED_MACHINE, 'cuda:0', remote, () => null, 120_000).ok).toBe(true);
    const me = { host: 'node-18', pid: 1, processStart: null };
    expect(locks.acquire(SEEDED_MACHINE, 'cpu', me, () => null, 120_000)).toMatchObject({
      ok: false,
      holder: { host: 'node-17', deviceKey: 'cuda:0' },
    });
    now = new Date('2026-11-23T10:03:00Z');
    expect(locks.acquire(SEEDED_MACHINE, 'cpu', me, () => null, 120_000).ok).toBe(true);
  });

  it('a view closes the runs a killed profiler left running, at once, without the 10-minute wait', async () => {
    const db = seededDb();
    const { child, owner } = await otherProcess();
    new ProfilerLockRepo(db).acquire(SEEDED_MACHINE, 'cpu', owner, () => true, 60_000);
    const run = runningRun(db);
    closeAbandonedRuns(db, SEEDED_MACHINE);
    expect(new ProfileRepo(db).getRun(run)?.status).toBe('running');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    closeAbandonedRuns(db, SEEDED_MACHINE);
    expect(new ProfileRepo(db).getRun(run)?.status).toBe('interrupted');
  });
});
