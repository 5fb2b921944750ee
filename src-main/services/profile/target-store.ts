/**
 * What the store holds for one profile target (machine, device, provider and threads): the row a
 * kernel's timing becomes, whether a kernel is stored already, and what this target's past runs
 * left: the kernels they kept noisy or measured in poor conditions (measured again), and what
 * their work items cost (the run's estimate).
 */
import { shapeKey, type Measurement } from '../../core/domain/measurement.js';
import { epThreads, type EpConfig } from '../../core/domain/execution-provider.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import type { summarize } from '../../core/profiler/timing-stats.js';
import { costsOf, type MeasuredCosts } from '../../core/profiler/profile-plan.js';
import type { ProfileRepo } from '../../adapters/store/profile-repo.js';
import type { ProfileTarget } from './profiler-types.js';

export function epName(ep: EpConfig): string {
  return ep.name;
}

export function toMeasurement(
  spec: KernelSpec,
  runId: string,
  target: ProfileTarget,
  runtimeVersion: string,
  kernel: ReturnType<typeof summarize>,
  wall: ReturnType<typeof summarize> | null,
): Measurement {
  // Quantiles of positive samples are positive; keep p10 <= median <= p90 exact.
  return {
    runId,
    deviceKey: target.deviceKey,
    op: spec.op,
    family: spec.family,
    shape: spec.shape,
    dtype: spec.dtype,
    flops: spec.flops,
    bytes: spec.bytes,
    executionProvider: epName(target.ep),
    threads: epThreads(target.ep),
    runtimeVersion,
    stats: {
      medianUs: kernel.medianUs,
      p10Us: Math.min(kernel.p10Us, kernel.medianUs),
      p90Us: Math.max(kernel.p90Us, kernel.medianUs),
      cv: kernel.cv,
      repetitions: kernel.repetitions,
      wallMedianUs: wall && Number.isFinite(wall.medianUs) && wall.medianUs > 0 ? wall.medianUs : null,
    },
    source: 'profile',
  };
}

export function isStoredFn(
  repo: ProfileRepo,
  target: ProfileTarget,
  priorNoisy: ReadonlySet<string>,
): (k: KernelSpec) => boolean {
  const threads = epThreads(target.ep);
  return (k) =>
    !priorNoisy.has(k.id) &&
    repo.hasMeasurement({
      machineId: target.machineId,
      deviceKey: target.deviceKey,
      executionProvider: epName(target.ep),
      threads,
      op: k.op,
      shape: k.shape,
      dtype: k.dtype,
    });
}

/** This target's runs on this machine, newest first. */
function targetRuns(repo: ProfileRepo, target: ProfileTarget): ReturnType<ProfileRepo['listRuns']> {
  return repo
    .listRuns(target.machineId)
    .filter(
      (r) =>
        r.deviceKey === target.deviceKey &&
        r.executionProvider === epName(target.ep) &&
        r.threads === epThreads(target.ep),
    );
}

/** The kernels the last run of this target with a summary kept noisy: measured again. */
export function priorNoisyKernels(repo: ProfileRepo, target: ProfileTarget): Set<string> {
  const last = targetRuns(repo, target).find((r) => r.summary !== null);
  const ids = last?.summary?.noisyKernels;
  return new Set(Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : []);
}

/**
 * The kernels of `specs` whose stored row a run of this target taken in poor conditions measured:
 * measured again (a row moves to the run that re-measures it, so a quiet run ends this).
 */
export function poorRunKernels(repo: ProfileRepo, target: ProfileTarget, specs: readonly KernelSpec[]): string[] {
  const poorRuns = new Set(
    targetRuns(repo, target)
      .filter((r) => r.conditions?.poor)
      .map((r) => r.id),
  );
  if (!poorRuns.size) return [];
  const threads = epThreads(target.ep);
  const runOf = new Map<string, string>();
  for (const m of repo.listMeasurements({ machineId: target.machineId, deviceKey: target.deviceKey }))
    if (m.executionProvider === epName(target.ep) && m.threads === threads && m.source === 'profile')
      runOf.set(kernelKey(m), m.runId);
  return specs.filter((k) => poorRuns.has(runOf.get(kernelKey(k)) ?? '')).map((k) => k.id);
}

/** A kernel's key among stored rows of one target: its op, shape and dtype. */
export const kernelKey = (k: { op: string; shape: Record<string, number>; dtype: string }): string =>
  `${k.op}|${shapeKey(k.shape)}|${k.dtype}`;

/**
 * For a CPU target at more than one thread: this machine's stored 1-thread labels of the same
 * device and provider, by kernelKey (round-agreement.ts bounds the run's kernels by them). Empty otherwise.
 */
export function oneThreadLabels(repo: ProfileRepo, target: ProfileTarget): Map<string, number> {
  const labels = new Map<string, number>();
  if (target.ep.name !== 'cpu' || (epThreads(target.ep) ?? 1) <= 1) return labels;
  for (const m of repo.listMeasurements({
    machineId: target.machineId,
    deviceKey: target.deviceKey,
    source: 'profile',
  }))
    if (m.executionProvider === epName(target.ep) && m.threads === 1) labels.set(kernelKey(m), m.stats.medianUs);
  return labels;
}

/** What this machine's last run of the same provider measured its items to cost (same threads first). */
export function pastCosts(repo: ProfileRepo, target: ProfileTarget): MeasuredCosts | null {
  const sameEp = repo
    .listRuns(target.machineId)
    .filter((r) => r.deviceKey === target.deviceKey && r.executionProvider === epName(target.ep));
  const sameThreads = sameEp.filter((r) => r.threads === epThreads(target.ep));
  for (const r of [...sameThreads, ...sameEp]) {
    const c = costsOf(r.summary);
    if (c) return c;
  }
  return null;
}

/**
 * How long the newest finished run of this suite took on the target (same device, provider and
 * threads), in ms; null when there is none. A profile costs more than its kernels (model
 * preparation, calibration): the estimate promises no less than this.
 */
export function lastSuiteRunMs(repo: ProfileRepo, target: ProfileTarget, suite: string): number | null {
  const last = repo
    .listRuns(target.machineId)
    .find(
      (r) =>
        r.status === 'complete' &&
        r.suite === suite &&
        r.deviceKey === target.deviceKey &&
        r.executionProvider === epName(target.ep) &&
        r.threads === epThreads(target.ep) &&
        r.finishedAt !== null,
    );
  if (!last?.finishedAt) return null;
  const ms = Date.parse(last.finishedAt) - Date.parse(last.startedAt);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}
