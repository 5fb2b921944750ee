/**
 * One profiler per machine at a time, across processes: a second `profile` (another CLI,
 * `serve`, the app) refuses with one line instead of timing kernels against the first.
 * Taking the lock also closes the runs a killed profiler left 'running'.
 */
import { UserError } from '../../core/errors.js';
import { ProfileRepo } from '../../adapters/store/profile-repo.js';
import { ProfilerLockRepo, type LockHolder } from '../../adapters/store/profiler-lock-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { currentProcess, isProcessAlive } from '../../adapters/system/process-identity.js';

/** A holder on another host (a store on a shared disk) that stays silent this long is gone. */
const SILENT_HOLDER_MS = 2 * 60_000;
const HEARTBEAT_MS = 15_000;

function busyMessage(h: LockHolder): string {
  return (
    `another pipedejavu process (pid ${h.pid} on ${h.host}) is profiling ${h.deviceKey} on this machine since ${h.acquiredAt}; ` +
    'wait for it to finish: two profilers on one machine would time their kernels against each other'
  );
}

/** Takes the machine's profiler lock (or throws a UserError naming the holder); returns its release. */
export function takeProfilerLock(
  db: Database,
  machineId: string,
  deviceKey: string,
  now: () => Date = () => new Date(),
): () => void {
  const locks = new ProfilerLockRepo(db, now);
  const me = currentProcess();
  const taken = locks.acquire(machineId, deviceKey, me, isProcessAlive, SILENT_HOLDER_MS, () =>
    new ProfileRepo(db, now).interruptRunningRuns(machineId),
  );
  if (!taken.ok) throw new UserError(busyMessage(taken.holder));
  const timer = setInterval(() => locks.heartbeat(machineId, me), HEARTBEAT_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    locks.release(machineId, me);
  };
}

/**
 * Closes the runs of a machine left 'running' by a profiler that is gone (for views
 * that list runs): nothing changes while a live process holds the lock.
 */
export function closeAbandonedRuns(db: Database, machineId: string, now: () => Date = () => new Date()): void {
  // Reads first: a view must not wait for the write lock when there is nothing to close.
  if (!new ProfileRepo(db, now).hasRunningRuns(machineId)) return;
  const locks = new ProfilerLockRepo(db, now);
  const me = currentProcess();
  if (locks.liveHolder(machineId, isProcessAlive, SILENT_HOLDER_MS)) return;
  // Taking and dropping the lock does the closing in one transaction with the check. A view
  // must not wait behind another program's long write (an import): it tries briefly, else
  // leaves the closing to the next look.
  const before = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 50');
  try {
    const taken = locks.acquire(machineId, 'none', me, isProcessAlive, SILENT_HOLDER_MS, () =>
      new ProfileRepo(db, now).interruptRunningRuns(machineId),
    );
    if (taken.ok) locks.release(machineId, me);
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'SQLITE_BUSY') throw e;
  } finally {
    db.pragma(`busy_timeout = ${before}`);
  }
}
