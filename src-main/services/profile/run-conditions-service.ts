/**
 * The conditions a CPU profile (or a measure-model run) is taken in (core/profiler/run-conditions.ts):
 * 1 s windows of the host's CPU times while nothing of ours runs, before the run (waiting for a
 * quiet moment within a budget) and after it, and the steal over the run. Stored with the run;
 * a prediction from a run taken in poor conditions says so.
 */
import {
  busyBetween,
  QUIET_CPUS,
  runConditions,
  type CpuTimes,
  type RunConditions,
} from '../../core/profiler/run-conditions.js';
import { deviceIdLabel } from '../../core/domain/device-id.js';
import { readCpuTimes } from '../../adapters/system/cpu-times.js';
import { ProfileRepo, type StoredRun } from '../../adapters/store/profile-repo.js';
import type { Database } from '../../adapters/store/types.js';

/** How the host's CPU times are read, and how to wait between readings. */
export interface ConditionsProbe {
  cpuTimes: () => CpuTimes | null;
  sleep?: (ms: number) => Promise<void>;
}

/** One reading window (ms). */
const CONDITIONS_WINDOW_MS = 1000;
/** How long a run waits for a quiet moment before it starts anyway (ms). */
export const DEFAULT_QUIET_BUDGET_MS = 20_000;

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * This host's probe: /proc/stat on Linux (elsewhere every reading is null, and nothing waits);
 * none when PIPEDEJAVU_RUN_CONDITIONS=off (the CLI tests: they never wait for a quiet moment).
 */
export function localConditionsProbe(env: NodeJS.ProcessEnv): ConditionsProbe | undefined {
  return conditionsOff(env) ? undefined : { cpuTimes: () => readCpuTimes() };
}

/** Whether PIPEDEJAVU_RUN_CONDITIONS=off turns the readings off. */
export function conditionsOff(env: NodeJS.ProcessEnv): boolean {
  return env.PIPEDEJAVU_RUN_CONDITIONS === 'off';
}

export interface WatchOptions {
  /** Wait at most this long for a quiet moment (ms); default DEFAULT_QUIET_BUDGET_MS. */
  budgetMs?: number;
  signal?: AbortSignal;
  /** Said once, when the run waits. */
  onWait?: (line: string) => void;
  /** A window read just now (the last run's window after it): taken as the first window instead of reading one. */
  first?: ReadingWindow;
  /** Given the window read after the run, when `finish` reads one. */
  onAfter?: (window: ReadingWindow) => void;
}

/** One reading window: the CPU times at its end and the CPUs other work kept busy over it (null: no time passed). */
export interface ReadingWindow {
  times: CpuTimes;
  others: number | null;
}

/** The window from `from` to one window later; null when the CPU times cannot be read. */
async function readWindow(probe: ConditionsProbe, from: CpuTimes): Promise<ReadingWindow | null> {
  await (probe.sleep ?? realSleep)(CONDITIONS_WINDOW_MS);
  const times = probe.cpuTimes();
  return times ? { times, others: busyBetween(from, times)?.cpus ?? null } : null;
}

/**
 * The readings around one run. `start` waits for a quiet moment (others < QUIET_CPUS over a
 * window) within the budget, then the run goes; `finish` takes one more window after it.
 */
export class ConditionsWatch {
  private constructor(
    private readonly probe: ConditionsProbe,
    /** The reading the run started at. */
    private readonly first: CpuTimes,
    private readonly othersBefore: number,
    /** How long the run waited for a quiet moment (ms): the windows read after the first. */
    readonly waitedMs: number,
    private readonly onAfter: ((window: ReadingWindow) => void) | undefined,
  ) {}

  /** Null when the host's CPU times cannot be read (then nothing waits and nothing is stored). */
  static async start(probe: ConditionsProbe, opts: WatchOptions = {}): Promise<ConditionsWatch | null> {
    const budget = opts.budgetMs ?? DEFAULT_QUIET_BUDGET_MS;
    let window = opts.first ?? null;
    if (!window) {
      const start = probe.cpuTimes();
      window = start ? await readWindow(probe, start) : null;
    }
    for (let waited = 0; window; waited += CONDITIONS_WINDOW_MS) {
      const others = window.others ?? 0;
      if (others < QUIET_CPUS || opts.signal?.aborted || waited + CONDITIONS_WINDOW_MS > budget)
        return new ConditionsWatch(probe, window.times, others, waited, opts.onAfter);
      if (waited === 0)
        opts.onWait?.(
          `other work keeps ${others.toFixed(1)} CPUs busy: waiting up to ${Math.round(budget / 1000)} s for a quiet moment`,
        );
      window = await readWindow(probe, window.times);
    }
    return null;
  }

  /** The run's conditions: one more window after it (none when `skipWindow`, e.g. interrupted) and the steal over the run. */
  async finish(opts: { skipWindow?: boolean } = {}): Promise<RunConditions> {
    const end = this.probe.cpuTimes();
    const run = end ? busyBetween(this.first, end) : null;
    let othersAfter: number | null = null;
    if (end && !opts.skipWindow) {
      const after = await readWindow(this.probe, end);
      othersAfter = after ? after.others : null;
      if (after) this.onAfter?.(after);
    }
    return runConditions({
      othersBefore: this.othersBefore,
      othersAfter,
      stealShare: run ? run.stealShare : null,
      waitedMs: this.waitedMs,
    });
  }
}

/**
 * The readings around a timing on a CPU (measure-model): started before it (waiting for a quiet
 * moment within the budget), finished after it. Without a probe, or off the CPU, nothing is read
 * and finish gives null.
 */
export async function watchCpuTiming(
  onCpu: boolean,
  probe: ConditionsProbe | undefined,
  opts: WatchOptions = {},
): Promise<{ finish: () => Promise<RunConditions | null> }> {
  const watch = onCpu && probe ? await ConditionsWatch.start(probe, opts) : null;
  return { finish: async () => (watch ? watch.finish() : null) };
}

/** The run's conditions in a few words, for lists of runs: quiet, poor and why, or not read. */
export function conditionsLine(c: RunConditions | null): string {
  if (!c) return 'not read';
  const waited = c.waitedMs > 0 ? ` (waited ${Math.round(c.waitedMs / 1000)} s for a quiet moment)` : '';
  return c.poor ? `poor: ${c.poor}${waited}` : `quiet${waited}`;
}

/** The line a run's notes keep when its conditions were poor; null when they were fine. */
export function poorRunNote(c: RunConditions | null, rerun: string): string | null {
  if (!c?.poor) return null;
  return `profiled while ${c.poor}: its timings may read slow, and every prediction from them; \`${rerun}\` on a quiet machine measures again`;
}

/** The warning measure-model adds when its own timing ran in poor conditions; none otherwise. */
export function measuredConditionsWarnings(c: RunConditions | null): string[] {
  return c?.poor ? [`measured while ${c.poor}: this time may read slow; measure again when the machine is quiet`] : [];
}

/** What picks a device's profile runs. */
export interface ConditionsDevice {
  machineId: string;
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
}

/** The warning for a device whose newest finished run (from `runs`, newest first) was taken in poor conditions. */
export function conditionsWarningOf(runs: readonly StoredRun[], device: ConditionsDevice): string[] {
  const newest = runs.find(
    (r) =>
      r.status !== 'running' &&
      r.machineId === device.machineId &&
      r.deviceKey === device.deviceKey &&
      r.executionProvider === device.executionProvider &&
      r.threads === device.threads,
  );
  const poor = newest?.conditions?.poor;
  if (!poor) return [];
  return [
    `${deviceIdLabel(device)}: profiled while ${poor}, so its predictions may read slow; profile again when the machine is quiet (\`${profileCommand(device)}\`)`,
  ];
}

/** The command that profiles the device again. */
function profileCommand(d: ConditionsDevice): string {
  const parts = ['pipedejavu profile', `--device ${d.deviceKey}`];
  if (d.threads !== null) parts.push(`--threads ${d.threads}`);
  if (d.executionProvider.startsWith('torch-')) parts.push('--backend torch');
  return parts.join(' ');
}

/** The prediction warning of a profiled device whose newest run had poor conditions; none otherwise. */
export function conditionsWarning(db: Database, device: ConditionsDevice): string[] {
  return conditionsWarningOf(new ProfileRepo(db).listRuns(device.machineId), device);
}
