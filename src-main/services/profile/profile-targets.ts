/**
 * `pipedejavu profile` and the app's profile job: the devices `--device` names on this
 * machine, profiled one target after another on one kernel runner, and their rooflines.
 */
import { epThreads, isTorchEp, type Backend } from '../../core/domain/execution-provider.js';
import { UserError } from '../../core/errors.js';
import type { MachineDetail } from '../../adapters/store/machine-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { defaultThreadCounts, resolveTargets } from './device-targets.js';
import { localProbeDeps } from '../machine/local-probe.js';
import { localProfilerDeps } from './local-profiler.js';
import { ensureLocalMachine, machineFor } from '../machine/machine-service.js';
import { localProviderBlockers, type ProviderBlockers } from '../machine/doctor-service.js';
import { estimateTarget, profileDevice, quietWaitsOf } from './profiler-service.js';
import type { ProfileEvent, ProfileOptions, ProfileReport, ProfilerDeps, ProfileTarget } from './profiler-types.js';
import { rooflines, type Roofline } from './roofline-service.js';
import type { SuiteName } from '../../core/kernels/suites.js';
import { count } from '../../core/text/plural.js';
import { kernelsText } from '../../core/profiler/kernel-counts.js';
import { formatDuration } from '../../core/text/duration.js';

export type KernelEvent = Extract<ProfileEvent, { type: 'kernel' }>;
export type StepEvent = Extract<ProfileEvent, { type: 'step' }>;
export type StartEvent = Extract<ProfileEvent, { type: 'start' }>;

export interface LocalProfile {
  machine: MachineDetail;
  targets: ProfileTarget[];
  /** A kernel runner on this machine (its child starts with the first kernel). */
  deps: ProfilerDeps;
  /** `--device all` only: one line for each target left out because its provider cannot load here. */
  skipped: string[];
}

/**
 * `--device all` leaves out the ONNX Runtime providers that `doctor` knows cannot load here (no
 * Vulkan loader for WebGPU, a CUDA provider missing its libraries), one line each. A device
 * named on purpose is still tried, and says itself why it failed.
 */
export function skipUnloadable(
  targets: readonly ProfileTarget[],
  blockers: ProviderBlockers,
): { targets: ProfileTarget[]; skipped: string[] } {
  const why = (t: ProfileTarget): string | null =>
    t.ep.name === 'webgpu' ? blockers.webgpu : t.ep.name === 'cuda' ? blockers.cuda : null;
  return {
    targets: targets.filter((t) => why(t) === null),
    skipped: targets.flatMap((t) => {
      const reason = why(t);
      return reason === null ? [] : [`skipped ${t.deviceKey}: ${reason} (see pipedejavu doctor)`];
    }),
  };
}

/**
 * This machine (probed first when the store has not seen it), the targets `device` names
 * (cpu at each of `threads`, by default 1 and all physical cores) and the real profiler.
 */
export async function localProfile(
  db: Database,
  env: NodeJS.ProcessEnv,
  device: string,
  threads?: number[],
  backend: { backends?: readonly Backend[]; python?: string } = {},
): Promise<LocalProfile> {
  const deps = localProfilerDeps(db, env, backend.python);
  // ONNX Runtime's children start while the machine is probed (a failed start is said by the first run).
  if (backend.backends?.includes('ort') ?? true) deps.runner.start().catch(() => undefined);
  try {
    const machine = await ensureLocalMachine(db, localProbeDeps, { env });
    const all = resolveTargets(machine, device, threads ?? defaultThreadCounts(machine), backend.backends);
    const { targets, skipped } =
      device === 'all' ? skipUnloadable(all, localProviderBlockers()) : { targets: all, skipped: [] };
    return { machine, targets, skipped, deps };
  } catch (e) {
    // No profile follows (an unknown device, a failed probe): the children started for it end.
    await deps.runner.close();
    throw e;
  }
}

export interface ProfileTargetsOptions extends Omit<ProfileOptions, 'onEvent'> {
  /** A line to show: a target starts, refinement adds kernels. */
  onLog: (line: string) => void;
  /** Each kernel as it is done; `who` names the target ("cpu x8 threads"). */
  onKernel: (e: KernelEvent, who: string) => void;
  /** Each step that is not a kernel (overhead chains, a calibration round) as it is done. */
  onStep?: (e: StepEvent, who: string) => void;
  /** Each target's report as soon as it is done. */
  onReport?: (report: ProfileReport) => void;
}

/** How a target is named in progress lines: the device, and the threads of a CPU. */
export function targetName(target: ProfileTarget): string {
  const threads = epThreads(target.ep);
  const backend = isTorchEp(target.ep) ? ' (PyTorch)' : '';
  return `${target.deviceKey}${threads === null ? '' : `, ${count(threads, 'thread')}`}${backend}`;
}

/**
 * What a target's run will do and take, said before it starts: the kernels and rounds, the
 * fixed number of steps the progress counts to, the expected time and what it comes from,
 * and the retry budget for noisy kernels.
 */
function startLines(who: string, suite: SuiteName, e: StartEvent): string[] {
  const stored = e.alreadyMeasured ? `, ${e.alreadyMeasured} already stored` : '';
  const basis = e.basis === 'measured' ? "from this machine's last run" : 'a first guess: no run here to go by yet';
  return [
    `profiling ${who}: ${kernelsText(e.byOrigin, suite)} x ${count(e.rounds, 'round')}${stored}; ${count(e.total, 'step')} in all, about ${formatDuration(e.estimatedMs)} (${basis})`,
    `  ${e.retryBudget}`,
  ];
}

/**
 * Profiles each target in turn (stopping before the next one once `signal` aborts) and
 * closes the runner at the end. Finished measurements are stored as they come.
 */
export async function profileTargets(
  deps: ProfilerDeps,
  targets: readonly ProfileTarget[],
  opts: ProfileTargetsOptions,
): Promise<ProfileReport[]> {
  const { onLog, onKernel, onStep, onReport, ...options } = opts;
  const reports: ProfileReport[] = [];
  // One wait for a quiet moment for the whole command: a target right after another starts from its last window.
  const quietWaits = options.quietWaits ?? quietWaitsOf(deps, options.quietBudgetMs);
  try {
    for (const target of targets) {
      if (opts.signal?.aborted) break;
      const who = targetName(target);
      const report = await profileDevice(deps, target, {
        ...options,
        quietWaits,
        onEvent: (e) => {
          if (e.type === 'start') startLines(who, opts.suite, e).forEach(onLog);
          if (e.type === 'refine') onLog(`refinement: ${count(e.added, 'more kernel')} where the curves bend`);
          if (e.type === 'wait') onLog(`${who}: ${e.line}`);
          if (e.type === 'kernel') onKernel(e, who);
          if (e.type === 'step') onStep?.(e, who);
        },
      });
      reports.push(report);
      onReport?.(report);
    }
  } finally {
    await Promise.all([deps.runner.close(), deps.torch?.close()]);
  }
  return reports;
}

/** The error for a device named on purpose (not "all") on which nothing could be profiled; else null. */
export function nothingProfiled(device: string, reports: readonly ProfileReport[]): UserError | null {
  if (device === 'all' || !reports.every((r) => r.status === 'unavailable' || r.status === 'failed')) return null;
  const reasons = [...new Set(reports.flatMap((r) => r.notes))];
  return new UserError(`nothing profiled on ${device}: ${reasons.join('; ')}`);
}

/** The machine's measured rooflines of the devices these reports profiled. */
export function profiledRooflines(db: Database, machineId: string, reports: readonly ProfileReport[]): Roofline[] {
  return rooflines(db, machineId).filter((r) => reports.some((x) => x.deviceKey === r.deviceKey));
}

/** What profiling `device` here is expected to take, per target and in all (the app's time promise). */
export interface ProfileEstimate {
  targets: { target: string; kernels: number; estimatedMs: number; basis: 'measured' | 'prior' }[];
  totalMs: number;
  /** "measured" when every target has a past run on this machine to go by, else "prior". */
  basis: 'measured' | 'prior';
  /** With `all`: the providers left out because they cannot load here, a line each (as the CLI says them). */
  skipped: string[];
}

/**
 * The estimate the CLI's start line gives, for every target `device` names on this machine (as
 * last probed), before anything runs: the same cost model (profile-plan.ts) from the suite's
 * kernel count and this machine's measured costs when it has a past run.
 */
export function estimateProfile(
  db: Database,
  req: { device: string; suite: SuiteName; threads?: number[]; backends?: readonly Backend[] },
  blockers: () => ProviderBlockers = localProviderBlockers,
): ProfileEstimate {
  const machine = machineFor(db, undefined);
  const all = resolveTargets(machine, req.device, req.threads ?? defaultThreadCounts(machine), req.backends);
  // `all` profiles what can load here, as localProfile does: the estimate covers the same targets.
  const { targets, skipped } = req.device === 'all' ? skipUnloadable(all, blockers()) : { targets: all, skipped: [] };
  const each = targets.map((t) => ({ target: targetName(t), ...estimateTarget(db, t, req.suite) }));
  return {
    targets: each,
    totalMs: each.reduce((sum, t) => sum + t.estimatedMs, 0),
    basis: each.length && each.every((t) => t.basis === 'measured') ? 'measured' : 'prior',
    skipped,
  };
}
