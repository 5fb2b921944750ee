/**
 * Who this process is, and whether a process recorded earlier still runs: what the
 * profiler lock needs to tell a live holder from one that was killed.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { LockOwner } from '../store/profiler-lock-repo.js';

/** Linux: the process's start time in clock ticks since boot (field 22 of /proc/PID/stat), with the boot id. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return start ? `${boot}:${start}` : null;
  } catch {
    return null;
  }
}

export function currentProcess(): LockOwner {
  return { host: os.hostname(), pid: process.pid, processStart: processStart(process.pid) };
}

/** True or false for a process of this host; null for another host (the heartbeat decides). */
export function isProcessAlive(owner: LockOwner): boolean | null {
  if (owner.host !== os.hostname()) return null;
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it exists (another user's process).
  }
  if (owner.processStart === null) return true;
  const now = processStart(owner.pid);
  return now === null ? true : now === owner.processStart;
}
