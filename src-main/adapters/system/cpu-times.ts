/**
 * The host's cumulative CPU times from /proc/stat (Linux): busy, stolen and total, for the
 * conditions a profile was taken in (core/profiler/run-conditions.ts). null where there is no
 * /proc/stat (macOS, Windows): conditions are then not read, and said so.
 */
import { readFileSync } from 'node:fs';
import type { CpuTimes } from '../../core/profiler/run-conditions.js';

/** Parses /proc/stat's text: its aggregate "cpu" line and the per-CPU lines' count. */
export function parseProcStat(text: string): CpuTimes | null {
  const lines = text.split('\n', 4096);
  const head = lines[0]?.trim().split(/\s+/) ?? [];
  if (head[0] !== 'cpu' || head.length < 5) return null;
  const v = head.slice(1, 11).map(Number);
  if (v.some((x) => !Number.isFinite(x) || x < 0)) return null;
  // user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user).
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = v;
  const cpus = lines.filter((l) => /^cpu\d+\s/.test(l)).length;
  return {
    busy: user + nice + system + irq + softirq,
    steal,
    total: user + nice + system + idle + iowait + irq + softirq + steal,
    cpus: Math.max(1, cpus),
  };
}

export function readCpuTimes(path = '/proc/stat'): CpuTimes | null {
  try {
    return parseProcStat(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}
