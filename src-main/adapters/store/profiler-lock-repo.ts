/**
 * The profiler lock of each machine: at most one process times kernels on a machine at
 * a time, whichever program it is (two CLIs, `serve`, the app). Taken and inspected in
 * IMMEDIATE transactions, so two processes cannot both take it.
 */
import type { Database } from './types.js';
import { writeTransaction } from './write-transaction.js';

/** A process, as the lock knows it. */
export interface LockOwner {
  host: string;
  pid: number;
  /** What tells this process from a later one with the same pid (Linux: its start time); null if unknown. */
  processStart: string | null;
}

export interface LockHolder extends LockOwner {
  machineId: string;
  deviceKey: string;
  acquiredAt: string;
  heartbeatAt: string;
}

/** Whether a recorded holder still runs: true, false, or null when this host cannot tell. */
export type IsAlive = (owner: LockOwner) => boolean | null;

/** The lock's row, each column under its LockHolder name. */
const SELECT_HOLDER = `SELECT machine_id AS machineId, device_key AS deviceKey, host, pid, process_start AS processStart,
                              acquired_at AS acquiredAt, heartbeat_at AS heartbeatAt
                         FROM profiler_locks WHERE machine_id = ?`;

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.host === b.host && a.pid === b.pid && a.processStart === b.processStart;
}

export class ProfilerLockRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  holder(machineId: string): LockHolder | null {
    return this.db.prepare<[string], LockHolder>(SELECT_HOLDER).get(machineId) ?? null;
  }

  /**
   * The live holder, or null when the lock is free or its holder is gone: dead, or
   * (where liveness cannot be told) silent for longer than `silentMs`.
   */
  liveHolder(machineId: string, isAlive: IsAlive, silentMs: number): LockHolder | null {
    const h = this.holder(machineId);
    if (!h) return null;
    const alive = isAlive(h);
    if (alive !== null) return alive ? h : null;
    const silent = this.now().getTime() - Date.parse(h.heartbeatAt);
    return silent > silentMs ? null : h;
  }

  /**
   * Takes the lock for `owner`, or returns the live process that holds it. Taking it
   * over from a dead holder is one transaction with `onTaken`, which the caller uses to
   * close what the dead holder left open.
   */
  acquire(
    machineId: string,
    deviceKey: string,
    owner: LockOwner,
    isAlive: IsAlive,
    silentMs: number,
    onTaken: () => void = () => undefined,
  ): { ok: true } | { ok: false; holder: LockHolder } {
    return writeTransaction(this.db, () => {
      const live = this.liveHolder(machineId, isAlive, silentMs);
      if (live && !sameOwner(live, owner)) return { ok: false as const, holder: live };
      const at = this.now().toISOString();
      this.db
        .prepare(
          `INSERT INTO profiler_locks (machine_id, device_key, host, pid, process_start, acquired_at, heartbeat_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (machine_id) DO UPDATE SET device_key = excluded.device_key, host = excluded.host,
             pid = excluded.pid, process_start = excluded.process_start, acquired_at = excluded.acquired_at,
             heartbeat_at = excluded.heartbeat_at`,
        )
        .run(machineId, deviceKey, owner.host, owner.pid, owner.processStart, at, at);
      onTaken();
      return { ok: true as const };
    });
  }

  /** Records that the holder is alive. False when `owner` no longer holds the lock. */
  heartbeat(machineId: string, owner: LockOwner): boolean {
    return (
      this.db
        .prepare(
          'UPDATE profiler_locks SET heartbeat_at = ? WHERE machine_id = ? AND host = ? AND pid = ? AND process_start IS ?',
        )
        .run(this.now().toISOString(), machineId, owner.host, owner.pid, owner.processStart).changes > 0
    );
  }

  release(machineId: string, owner: LockOwner): void {
    this.db
      .prepare('DELETE FROM profiler_locks WHERE machine_id = ? AND host = ? AND pid = ? AND process_start IS ?')
      .run(machineId, owner.host, owner.pid, owner.processStart);
  }
}
