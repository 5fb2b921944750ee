/**
 * The conditions a CPU profile (or a measure-model run) was taken in: how busy the other work on
 * the host kept the CPUs just before and just after, and how much time the hypervisor stole
 * during it. A profile taken beside a CPU-bound process reads every kernel slower, and every
 * prediction from it with it (issue 48 measured 26-140% too slow); these say so. Pure.
 */

/** Cumulative CPU times of the whole host (/proc/stat's first line), in any one unit. */
export interface CpuTimes {
  /** Every state but idle, iowait and steal. */
  busy: number;
  steal: number;
  total: number;
  /** CPUs counted. */
  cpus: number;
}

export interface RunConditions {
  /** CPUs' worth of other work while we were idle just before the run (0 to cpus); null: not read. */
  othersBefore: number | null;
  /** The same just after it. */
  othersAfter: number | null;
  /** Share of the run's CPU time the hypervisor stole; null: not read. */
  stealShare: number | null;
  /** How long the run waited for a quiet moment before it started (ms). */
  waitedMs: number;
  /** Kernels that kept timings taken while other work shared their CPUs in every round (round-agreement.ts crowdedKernels); absent: none. */
  crowdedKernels?: number;
  /** Why the conditions were poor, in a line; null when they were fine. */
  poor: string | null;
}

/** Other work under this many CPUs' worth counts as quiet (a shell, an editor, a browser tab). */
export const QUIET_CPUS = 0.3;
/** Stolen time above this share of the run makes its timings doubtful. */
export const STEAL_LIMIT = 0.05;

/** CPUs' worth busy between two readings while we ran nothing, and the share stolen. */
export function busyBetween(a: CpuTimes, b: CpuTimes): { cpus: number; stealShare: number } | null {
  const total = b.total - a.total;
  if (!(total > 0)) return null;
  return { cpus: ((b.busy - a.busy) / total) * b.cpus, stealShare: (b.steal - a.steal) / total };
}

/**
 * CPUs' worth of other processes' work over a window in which our own process used `oursCpuMs`
 * of CPU time in `wallMs` of wall time: the host's busy CPUs less ours. Null when the window is
 * too short for /proc/stat's ticks (10 ms each) to say, or nothing was read.
 */
export function othersBeside(a: CpuTimes, b: CpuTimes, oursCpuMs: number, wallMs: number): number | null {
  const busy = busyBetween(a, b);
  if (!busy || !(wallMs >= BESIDE_MIN_WALL_MS)) return null;
  return Math.max(0, busy.cpus - oursCpuMs / wallMs);
}

/** A window shorter than this says nothing: a few 10 ms ticks either way are a third of a CPU. */
const BESIDE_MIN_WALL_MS = 60;

/**
 * Whether a kernel timed at `threads` intra-op threads shared its CPUs with other work: more than
 * the CPUs it left free, plus what counts as quiet. At 2 threads on 2 CPUs a pool thread that has
 * to wait for a CPU leaves short parallel loops to the calling thread alone (issue 62).
 */
export function crowded(othersCpus: number | null | undefined, threads: number, cpus: number): boolean {
  return othersCpus !== null && othersCpus !== undefined && othersCpus > Math.max(0, cpus - threads) + QUIET_CPUS;
}

/** The verdict on a run's conditions: a line naming what was poor, or null. */
export function poorConditions(c: Omit<RunConditions, 'poor'>): string | null {
  const reasons: string[] = [];
  const others = Math.max(c.othersBefore ?? 0, c.othersAfter ?? 0);
  if (others > QUIET_CPUS) reasons.push(`other work kept ${others.toFixed(1)} CPUs busy around it`);
  if (c.crowdedKernels)
    reasons.push(
      `other work shared the CPUs of ${c.crowdedKernels} kernel${c.crowdedKernels === 1 ? '' : 's'} in every round`,
    );
  if (c.stealShare !== null && c.stealShare > STEAL_LIMIT)
    reasons.push(`the hypervisor stole ${(100 * c.stealShare).toFixed(0)}% of its CPU time`);
  return reasons.length ? reasons.join(' and ') : null;
}

export function runConditions(c: Omit<RunConditions, 'poor'>): RunConditions {
  return { ...c, poor: poorConditions(c) };
}
