/**
 * Other processes' work beside this process over a stretch of timed runs: the host's busy CPUs
 * (/proc/stat) less this process's own CPU time (every thread of it, ORT's pool included).
 */
import { othersBeside, type CpuTimes } from '../../core/profiler/run-conditions.js';
import { readCpuTimes } from '../system/cpu-times.js';
import type { Beside } from './protocol.js';

/** Starts a reading; the function returned ends it (null where /proc/stat is not there or too little time passed). */
export function besideMeter(read: () => CpuTimes | null = readCpuTimes): () => Beside | null {
  const a = read();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  return () => {
    const b = read();
    if (!a || !b) return null;
    const used = process.cpuUsage(cpu0);
    const others = othersBeside(a, b, (used.user + used.system) / 1000, performance.now() - t0);
    return others === null ? null : { othersCpus: others, cpus: b.cpus };
  };
}
