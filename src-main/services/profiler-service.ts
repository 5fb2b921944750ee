/**
 * Profiling one device: runs a suite's micro-kernels through the kernel-runner child,
 * stores every measurement as soon as it is taken (so a kill keeps what finished),
 * skips what is already stored (so rerunning resumes), refines where curves bend, and
 * stores the device's measured roofline with the run.
 */
import type { Dtype, Measurement } from '../core/domain/measurement.js';
import type { KernelSpec } from '../core/kernels/types.js';
import { makeKernel } from '../core/kernels/cost.js';
import { suiteKernels, type SuiteName } from '../core/kernels/suites.js';
import { summarizeDevice, type DeviceSummary } from '../core/profiler/device-summary.js';
import { planRefinement, type MeasuredKernel } from '../core/profiler/refinement.js';
import { SUITE_REFINEMENT, SUITE_ROUNDS, SUITE_RULES } from '../core/profiler/suite-policy.js';
import { isNoisy, summarize, type StoppingRule } from '../core/profiler/timing-stats.js';
import { ProfileRepo } from '../adapters/store/profile-repo.js';
import type { Database } from '../adapters/store/types.js';
import type { RunnerInfo } from '../adapters/ort/kernel-runner.js';
import type { EpConfig, FailureKind, RunJob, RunOutcome } from '../adapters/ort/protocol.js';

export interface KernelRunnerLike {
  start(): Promise<RunnerInfo>;
  run(job: Omit<RunJob, 'id' | 'traceDir'>): Promise<RunOutcome>;
  kill(): void;
  close(): Promise<void>;
}

export interface ProfilerDeps {
  db: Database;
  runner: KernelRunnerLike;
  now: () => Date;
  /** Why an EP cannot run here before trying (e.g. CUDA provider not installed), or null. */
  epUnavailable: (ep: EpConfig) => string | null;
}

export interface ProfileTarget {
  machineId: string;
  deviceKey: string;
  ep: EpConfig;
}

export interface ProfileOptions {
  suite: SuiteName;
  signal?: AbortSignal;
  onEvent?: (e: ProfileEvent) => void;
  /** Only these kernels (tests); default: the suite's. */
  kernels?: KernelSpec[];
  /** Override the suite's stopping rule (tests). */
  rule?: StoppingRule;
  /** Extra kernels adaptive refinement may add; default by suite. */
  refineLimit?: number;
  /** Timing rounds per kernel (the lower median is kept); default by suite. */
  rounds?: number;
}

export type KernelStatus = 'measured' | 'failed' | 'noisy';

export type ProfileEvent =
  | { type: 'start'; runId: string; deviceKey: string; total: number; alreadyMeasured: number }
  | {
      type: 'kernel';
      index: number;
      total: number;
      spec: KernelSpec;
      status: KernelStatus;
      medianUs?: number;
      error?: string;
      elapsedMs: number;
      remainingMs: number;
    }
  | { type: 'refine'; added: number };

export interface KernelFailure {
  kernel: string;
  kind: FailureKind;
  error: string;
}

export interface ProfileReport {
  runId: string | null;
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
  suite: SuiteName;
  status: 'complete' | 'interrupted' | 'failed' | 'unavailable';
  measured: number;
  alreadyMeasured: number;
  failures: KernelFailure[];
  noisy: string[];
  elapsedMs: number;
  summary: (DeviceSummary & Record<string, unknown>) | null;
  notes: string[];
}

const FP_DTYPES_GPU: Dtype[] = ['fp32', 'fp16'];
const FP_DTYPES_CPU: Dtype[] = ['fp32'];

export function epName(ep: EpConfig): string {
  return ep.name;
}

export function epThreads(ep: EpConfig): number | null {
  return ep.name === 'cpu' ? ep.threads : null;
}

/** The kernels a device runs: CPU skips reduced-precision compute and host-device copies. */
export function kernelsFor(ep: EpConfig, suite: SuiteName): KernelSpec[] {
  const cpu = ep.name === 'cpu';
  return suiteKernels(suite, { dtypes: cpu ? FP_DTYPES_CPU : FP_DTYPES_GPU }).filter(
    (k) => !(cpu && (k.gpuOnly || k.family === 'copy')),
  );
}

/** Kernel time of one outcome: Memcpy nodes alone for copies where the EP inserted them. */
function kernelSamples(
  spec: KernelSpec,
  outcome: Extract<RunOutcome, { ok: true }>,
): { samples: number[]; note?: string } {
  if (spec.family === 'copy') {
    const memcpy = outcome.byOpUs[spec.op === 'CopyH2D' ? 'MemcpyFromHost' : 'MemcpyToHost'];
    if (memcpy && memcpy.some((v) => v > 0)) return { samples: memcpy };
  }
  if (outcome.kernelUs.some((v) => v > 0)) return { samples: outcome.kernelUs };
  return { samples: outcome.wallUs, note: `${spec.id}: ORT reported no kernel time; wall time stored` };
}

function toMeasurement(
  spec: KernelSpec,
  runId: string,
  target: ProfileTarget,
  runtimeVersion: string,
  kernel: ReturnType<typeof summarize>,
  wall: ReturnType<typeof summarize>,
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
      wallMedianUs: Number.isFinite(wall.medianUs) && wall.medianUs > 0 ? wall.medianUs : null,
    },
    source: 'profile',
  };
}

export async function profileDevice(
  deps: ProfilerDeps,
  target: ProfileTarget,
  opts: ProfileOptions,
): Promise<ProfileReport> {
  const started = Date.now();
  const repo = new ProfileRepo(deps.db, deps.now);
  const threads = epThreads(target.ep);
  const base: Omit<ProfileReport, 'status' | 'runId'> = {
    deviceKey: target.deviceKey,
    executionProvider: epName(target.ep),
    threads,
    suite: opts.suite,
    measured: 0,
    alreadyMeasured: 0,
    failures: [],
    noisy: [],
    elapsedMs: 0,
    summary: null,
    notes: [],
  };
  const unavailable = deps.epUnavailable(target.ep);
  if (unavailable) return { ...base, runId: null, status: 'unavailable', notes: [unavailable] };
  const info = await deps.runner.start();
  if (target.ep.name !== 'cpu') {
    // One tiny kernel first: an EP without a usable device (no WebGPU adapter, no CUDA
    // driver) is reported once instead of failing every kernel.
    const trial = await deps.runner.run({
      spec: makeKernel('Relu', 'fp32', { n: 1024 }),
      ep: target.ep,
      rule: { warmupRuns: 0, minRepetitions: 1, maxRepetitions: 1, targetCi: 1, budgetMs: 1000 },
    });
    if (!trial.ok)
      return { ...base, runId: null, status: 'unavailable', notes: [`${target.deviceKey}: ${trial.error}`] };
  }
  // Runs left 'running' by a profiler that was killed are marked as such.
  repo.interruptStaleRuns(new Date(deps.now().getTime() - 10 * 60_000));
  const run = repo.createRun({
    machineId: target.machineId,
    deviceKey: target.deviceKey,
    suite: opts.suite,
    executionProvider: epName(target.ep),
    threads,
    runtimeVersion: info.ortVersion,
  });
  const rule = opts.rule ?? SUITE_RULES[opts.suite];
  const all = opts.kernels ?? kernelsFor(target.ep, opts.suite);
  const isStored = (k: KernelSpec): boolean =>
    repo.hasMeasurement({
      machineId: target.machineId,
      deviceKey: target.deviceKey,
      executionProvider: epName(target.ep),
      threads,
      op: k.op,
      shape: k.shape,
      dtype: k.dtype,
    });
  const queue = all.filter((k) => !isStored(k));
  const report: ProfileReport = {
    ...base,
    runId: run.id,
    status: 'complete',
    alreadyMeasured: all.length - queue.length,
  };
  opts.onEvent?.({
    type: 'start',
    runId: run.id,
    deviceKey: target.deviceKey,
    total: queue.length,
    alreadyMeasured: report.alreadyMeasured,
  });
  const measured: MeasuredKernel[] = [];
  const known = new Set(all.map((k) => k.id));
  let refined = false;
  let epGone: string | null = null;
  const aborted = (): boolean => opts.signal?.aborted === true;
  const onAbort = (): void => deps.runner.kill();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (let i = 0; i < queue.length && !aborted() && !epGone; i++) {
      const spec = queue[i] as KernelSpec;
      let status: KernelStatus = 'failed';
      let medianUs: number | undefined;
      let error: string | undefined;
      for (let attempt = 0; attempt < 2 && !aborted(); attempt++) {
        const attemptRule = attempt === 0 ? rule : { ...rule, budgetMs: rule.budgetMs * 2 };
        const outcome = await deps.runner.run({ spec, ep: target.ep, rule: attemptRule });
        if (aborted()) break;
        if (!outcome.ok) {
          error = outcome.error;
          report.failures.push({ kernel: spec.id, kind: outcome.kind, error: outcome.error });
          if (outcome.kind === 'ep-unavailable') epGone = outcome.error;
          status = 'failed';
          break;
        }
        const picked = kernelSamples(spec, outcome);
        const k = summarize(picked.samples);
        if (isNoisy(k, attemptRule) && attempt === 0) continue;
        if (isNoisy(k, attemptRule)) {
          status = 'noisy';
          report.noisy.push(spec.id);
          error = `too noisy: median not within ±${(k.ciHalfWidth * 100).toFixed(0)}%, cv ${k.cv.toFixed(2)}`;
          break;
        }
        if (picked.note) report.notes.push(picked.note);
        repo.insertMeasurements(run.id, [
          toMeasurement(spec, run.id, target, info.ortVersion, k, summarize(outcome.wallUs)),
        ]);
        measured.push({ spec, medianUs: k.medianUs });
        report.measured++;
        status = 'measured';
        medianUs = k.medianUs;
        break;
      }
      if (aborted()) break;
      const elapsedMs = Date.now() - started;
      opts.onEvent?.({
        type: 'kernel',
        index: i + 1,
        total: queue.length,
        spec,
        status,
        ...(medianUs !== undefined ? { medianUs } : {}),
        ...(error !== undefined ? { error } : {}),
        elapsedMs,
        remainingMs: (elapsedMs / (i + 1)) * (queue.length - i - 1),
      });
      if (i === queue.length - 1 && !refined) {
        refined = true;
        const extra = planRefinement(measured, known, opts.refineLimit ?? SUITE_REFINEMENT[opts.suite]).filter(
          (k) => !isStored(k),
        );
        extra.forEach((k) => known.add(k.id));
        if (extra.length) {
          queue.push(...extra);
          opts.onEvent?.({ type: 'refine', added: extra.length });
        }
      }
    }
    // Later rounds re-time every kernel and keep the lower median: a slow phase of the
    // machine (another process, a busy hypervisor) only ever makes kernels slower.
    const rounds = opts.rounds ?? SUITE_ROUNDS[opts.suite];
    const firstRound = [...measured];
    const total = queue.length + firstRound.length * (rounds - 1);
    let index = queue.length;
    for (let round = 2; round <= rounds && !aborted() && !epGone; round++) {
      for (const m of firstRound) {
        if (aborted()) break;
        const outcome = await deps.runner.run({ spec: m.spec, ep: target.ep, rule });
        if (aborted()) break;
        index++;
        if (outcome.ok) {
          const k = summarize(kernelSamples(m.spec, outcome).samples);
          if (!isNoisy(k, rule) && k.medianUs < m.medianUs) {
            repo.insertMeasurements(
              run.id,
              [toMeasurement(m.spec, run.id, target, info.ortVersion, k, summarize(outcome.wallUs))],
              { onConflict: 'replace' },
            );
            m.medianUs = k.medianUs;
          }
        }
        const elapsedMs = Date.now() - started;
        opts.onEvent?.({
          type: 'kernel',
          index,
          total,
          spec: m.spec,
          status: 'measured',
          medianUs: m.medianUs,
          elapsedMs,
          remainingMs: (elapsedMs / index) * (total - index),
        });
      }
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
  const stored = repo.listMeasurements({ machineId: target.machineId, deviceKey: target.deviceKey });
  const mine = stored.filter((m) => m.executionProvider === epName(target.ep) && m.threads === threads);
  const summary = mine.length ? { ...summarizeDevice(mine), threads, executionProvider: epName(target.ep) } : null;
  if (epGone) report.notes.push(`stopped: ${epGone}`);
  if (report.noisy.length) {
    report.notes.push(
      `the machine was too noisy for ${report.noisy.length} kernel(s); they were not stored (close other programs and rerun to fill them in)`,
    );
  }
  const status = aborted() ? 'interrupted' : epGone && report.measured === 0 ? 'failed' : 'complete';
  report.status = status;
  report.summary = summary;
  report.elapsedMs = Date.now() - started;
  repo.finishRun(run.id, status, summary, report.notes);
  return report;
}
