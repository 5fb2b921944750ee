/**
 * Profiling one device: runs a suite's micro-kernels through the kernel-runner child,
 * stores every measurement as soon as it is taken (so a kill keeps what finished),
 * skips what is already stored (so rerunning resumes), refines where curves bend, and
 * stores the device's measured roofline with the run.
 */
import { shapeKey, type Dtype, type KernelStatus, type Measurement } from '../../core/domain/measurement.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import { makeKernel } from '../../core/kernels/cost.js';
import { suiteKernels, type SuiteName } from '../../core/kernels/suites.js';
import { summarizeDevice, type DeviceSummary } from '../../core/profiler/device-summary.js';
import { planRefinement, type MeasuredKernel } from '../../core/profiler/refinement.js';
import { SUITE_REFINEMENT, SUITE_ROUNDS, SUITE_RULES } from '../../core/profiler/suite-policy.js';
import { isNoisy, median, summarize, type StoppingRule, type TimingSummary } from '../../core/profiler/timing-stats.js';
import {
  costsOf,
  describeRetryBudget,
  expectedKernelMs,
  expectedStepMs,
  RETRY_BUDGET,
  retryAllowed,
  estimateRunMs,
  runItems,
  WorkTracker,
  type MeasuredCosts,
  type RunItems,
  type WorkKind,
} from '../../core/profiler/profile-plan.js';
import { count } from '../../core/text/plural.js';
import { kernelChainable } from '../../core/kernels/build.js';
import { CHAIN_COPIES } from '../../core/kernels/chain.js';
import { differencedCopies, methodRule, timingMethod, type TimingMethod } from '../../core/profiler/gpu-timing.js';
import type { GpuClockSampler } from '../../core/profiler/gpu-clocks.js';
import { ClockWatch } from './gpu-clock-watch.js';
import type { CpuTimes, RunConditions } from '../../core/profiler/run-conditions.js';
import { ConditionsWatch, DEFAULT_QUIET_BUDGET_MS, poorRunNote } from './run-conditions-service.js';
import type { CalibrationRun } from '../../core/workload/calibration.js';
import { DeviceCalibration } from './calibration-service.js';
import { ReorderLabels, reorderTimings } from './inserted-reorders.js';
import {
  BINDING_ELEMENTS,
  CHAIN_LENGTHS,
  CHAIN_ROUNDS,
  fitBinding,
  fitOverhead,
  traceRunNodeCost,
  fitWake,
  WAKE_CHAIN_LENGTHS,
  tracedLabelUs,
  type RunOverhead,
} from '../../core/profiler/overhead.js';
import { ProfileRepo } from '../../adapters/store/profile-repo.js';
import type { Database } from '../../adapters/store/types.js';
import type { KernelRunnerApi, RunnerInfo } from '../../adapters/ort/kernel-runner.js';
import { takeProfilerLock } from './profiler-lock.js';
import { epThreads, isTorchEp, onCpu, type EpConfig } from '../../core/domain/execution-provider.js';
import type { FailureKind, RunOutcome } from '../../adapters/ort/protocol.js';

/** The runner the profiler drives; a runner without overhead chains, models or graph optimization skips those steps. */
export type KernelRunnerLike = Pick<KernelRunnerApi, 'start' | 'run' | 'kill' | 'close'> &
  Partial<Pick<KernelRunnerApi, 'runOverhead' | 'runModel' | 'optimize'>>;

export interface ProfilerDeps {
  db: Database;
  /** ONNX Runtime's kernel runner. */
  runner: KernelRunnerLike;
  /** The PyTorch backend's runner (torch-cpu, torch-cuda targets); absent: those targets are unavailable. */
  torch?: KernelRunnerLike;
  now: () => Date;
  /** Why an EP cannot run here before trying (e.g. CUDA provider not installed), or null. */
  epUnavailable: (ep: EpConfig) => string | null;
  /** nvidia-smi readings around every batch on a CUDA GPU (gpu-clock-watch.ts); absent: none taken. */
  gpuClocks?: GpuClockSampler;
  /**
   * The host's cumulative CPU times (/proc/stat) for the conditions of a CPU run
   * (run-conditions-service.ts); absent or null: not read, and nothing waits for a quiet moment.
   */
  cpuTimes?: () => CpuTimes | null;
  /** How the conditions' readings wait (tests); default: a timer. */
  sleep?: (ms: number) => Promise<void>;
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
  /** Also the kernels of the calibration models' nodes; default: when the kernels are the suite's. */
  calibrationKernels?: boolean;
  /** Override the suite's stopping rule (tests). */
  rule?: StoppingRule;
  /** Extra kernels adaptive refinement may add; default by suite. */
  refineLimit?: number;
  /** Timing rounds per kernel (the lower median is kept); default by suite. */
  rounds?: number;
  /** Tests: time the CPU EP the way accelerators are timed (gpu-timing.ts), so that path runs without a GPU. */
  forceDifferencedTiming?: boolean;
  /** Tests: a noise source; timings of the kernels it names count as too noisy whatever their spread. */
  forceNoisy?: (spec: KernelSpec) => boolean;
  /** A CPU run waits at most this long for a quiet moment before it starts anyway (ms); default 20 s. */
  quietBudgetMs?: number;
}

export type ProfileEvent =
  | {
      type: 'start';
      runId: string;
      deviceKey: string;
      /** Work items of the run, fixed: progress counts up to it and it never changes. */
      total: number;
      /** Kernels to measure (first round, refinement slots aside). */
      kernels: number;
      rounds: number;
      items: RunItems;
      alreadyMeasured: number;
      /** The expected time of the whole run (ms), from this machine's past run or the prior. */
      estimatedMs: number;
      basis: 'measured' | 'prior';
      /** How much re-measuring noisy kernels may cost, in words. */
      retryBudget: string;
    }
  | { type: 'step'; index: number; total: number; label: string; elapsedMs: number; remainingMs: number }
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
  | { type: 'refine'; added: number }
  /** The run waits for a quiet moment before it starts (other work keeps the CPUs busy). */
  | { type: 'wait'; line: string };

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
  /** The conditions a CPU run was taken in (load around it, steal); absent or null: not read. */
  conditions?: RunConditions | null;
}

const FP_DTYPES_GPU: Dtype[] = ['fp32', 'fp16'];
/** PyTorch trains in bf16 on the GPUs that have it (torch_runner.py runs bf16 where torch does). */
const FP_DTYPES_TORCH_GPU: Dtype[] = ['fp32', 'fp16', 'bf16'];
const FP_DTYPES_CPU: Dtype[] = ['fp32'];

function epName(ep: EpConfig): string {
  return ep.name;
}

/** The runner of a target's backend: PyTorch's for torch-cpu and torch-cuda, else ONNX Runtime's. */
function runnerOf(deps: ProfilerDeps, ep: EpConfig): KernelRunnerLike | null {
  return isTorchEp(ep) ? (deps.torch ?? null) : deps.runner;
}

/** The kernels a device runs: CPU skips reduced-precision compute and host-device copies. */
export function kernelsFor(ep: EpConfig, suite: SuiteName): KernelSpec[] {
  const cpu = onCpu(ep);
  const dtypes = cpu ? FP_DTYPES_CPU : ep.name === 'torch-cuda' ? FP_DTYPES_TORCH_GPU : FP_DTYPES_GPU;
  return suiteKernels(suite, { dtypes }).filter((k) => !(cpu && (k.gpuOnly || k.family === 'copy')));
}

/**
 * Nodes ORT inserts around a lone kernel that a real graph mostly does not pay: layout
 * reorders around an NCHWc conv or pool (consecutive NCHWc nodes share one layout), and
 * host-device copies of the feeds and outputs.
 */
const INSERTED_OPS: ReadonlySet<string> = new Set(['ReorderInput', 'ReorderOutput', 'MemcpyFromHost', 'MemcpyToHost']);

/**
 * Per run: the kernel time of the nodes the kernel is about (inserted nodes left out), as
 * tracedLabelUs makes a label of it: what the node adds to an untraced run of a real graph.
 */
function ownNodeUs(outcome: Extract<RunOutcome, { ok: true }>, overhead: RunOverhead | null): number[] {
  const inserted = Object.entries(outcome.byOpUs).filter(([op]) => INSERTED_OPS.has(op));
  const own = Object.values(outcome.nodeOps).filter((op) => !INSERTED_OPS.has(op)).length;
  return outcome.kernelUs.map((total, run) =>
    tracedLabelUs(total - inserted.reduce((a, [, v]) => a + (v[run] ?? 0), 0), own, overhead),
  );
}

/** A kernel's label with its spread, and whether the machine let it be pinned down. */
interface KernelTiming {
  summary: TimingSummary;
  noisy: boolean;
  note?: string;
}

/** Smallest label a chained timing gives (µs): a difference of two noisy medians can reach 0. */
const MIN_CHAINED_US = 0.05;

/**
 * The label of one outcome. Chained: the median over run pairs of (chain - single) /
 * (copies - 1), noisy when either median is or when that difference is not positive. Traced: the node the kernel is about, without the reorders and
 * copies ORT inserts around it (copy kernels: the Memcpy nodes alone).
 */
function kernelTiming(
  spec: KernelSpec,
  outcome: Extract<RunOutcome, { ok: true }>,
  overhead: RunOverhead | null,
  rule: StoppingRule,
): KernelTiming {
  if (outcome.timedBy) {
    // The runner timed the kernel itself (PyTorch: CUDA events or the wall clock per call).
    const summary = summarize(outcome.kernelUs);
    return { summary, noisy: isNoisy(summary, rule) };
  }
  if (outcome.chained) {
    const { singleUs, chainUs } = outcome.chained;
    const one = summarize(singleUs);
    const chain = summarize(chainUs);
    const diffs = summarize(outcome.kernelUs.map((v) => Math.max(v, MIN_CHAINED_US)));
    // The median of the paired differences (each chain run against the single run next to
    // it): a slow phase of the machine hits both runs of a pair, so it cancels, where a
    // difference of the two medians can land on either side of a two-mode distribution.
    const paired = median(outcome.kernelUs);
    const medianUs = Math.max(paired, MIN_CHAINED_US);
    return {
      summary: { ...diffs, medianUs, ciHalfWidth: Math.max(one.ciHalfWidth, chain.ciHalfWidth) },
      noisy: isNoisy(one, rule) || isNoisy(chain, rule) || !(paired > 0),
    };
  }
  let samples = ownNodeUs(outcome, overhead);
  let note: string | undefined;
  if (spec.family === 'copy') {
    const memcpy = outcome.byOpUs[spec.op === 'CopyH2D' ? 'MemcpyFromHost' : 'MemcpyToHost'];
    if (memcpy && memcpy.some((v) => v > 0)) samples = memcpy;
  } else if (!samples.some((v) => v > 0)) {
    samples = outcome.wallUs;
    note = `${spec.id}: ORT reported no kernel time; wall time stored`;
  }
  const summary = summarize(samples);
  return { summary, noisy: isNoisy(summary, rule), ...(note ? { note } : {}) };
}

/**
 * Kernels this small are timed chained: the per-run cost and the ORT trace's per-node cost
 * are a large part of their time. Bigger kernels are timed from the trace, where those
 * costs are a few percent (and a chain of them would take most of the time budget).
 */
const CHAIN_MAX_FLOPS = 2e7;
const CHAIN_MAX_BYTES = 4 * 2 ** 20;

/**
 * Copies to time a kernel with. On the CPU: CHAIN_COPIES for small kernels whose output can
 * feed them again, else 1 (traced). Differenced (accelerators): every kernel but the copies.
 */
function chainCopies(spec: KernelSpec, method: TimingMethod = 'cpu'): number {
  if (method === 'differenced') return differencedCopies(spec);
  if (method === 'direct') return 1;
  const small = spec.flops <= CHAIN_MAX_FLOPS && spec.bytes <= CHAIN_MAX_BYTES;
  return small && spec.family !== 'copy' && kernelChainable(spec) ? CHAIN_COPIES : 1;
}

function toMeasurement(
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

/** A kernel stored while still too noisy: kept with its spread, timed again later within the retry budget. */
interface NoisyKernel {
  spec: KernelSpec;
  ciHalfWidth: number;
  cv: number;
}

/** Everything one profile run keeps while it goes: the report, what was measured, where it stands. */
interface RunState {
  deps: ProfilerDeps;
  /** The target's backend runner (runnerOf). */
  runner: KernelRunnerLike;
  target: ProfileTarget;
  opts: ProfileOptions;
  repo: ProfileRepo;
  runId: string;
  ortVersion: string;
  rule: StoppingRule;
  report: ProfileReport;
  measured: MeasuredKernel[];
  started: number;
  epGone: string | null;
  /** Measured before the kernels: their labels need the ORT trace's per-node cost. */
  overhead: RunOverhead | null;
  /** nvidia-smi readings around every batch on a CUDA GPU. */
  clocks: ClockWatch;
  /** The NCHWc reorders the traced kernels brought along (inserted-reorders.ts). */
  reorders: ReorderLabels;
  /** The run's fixed work items and the time left (profile-plan.ts). */
  work: WorkTracker;
  items: RunItems;
  rounds: number;
  /** Kernels stored but still too noisy, by id. */
  noisy: Map<string, NoisyKernel>;
  /** Kernels a past run of this target stored noisy: measured again, replacing the stored row. */
  priorNoisy: ReadonlySet<string>;
  /** Kernels measured again although stored (noisy ones, and those a run in poor conditions stored): their rows are replaced. */
  remeasure: ReadonlySet<string>;
  retries: { slots: number; retryMs: number };
  /** The expected cost of one refinement slot (the mean kernel of the queue, ms). */
  refineSlotMs: number;
  /** The expected cost of an overhead step and of a calibration round (ms). */
  stepMs: Record<Exclude<WorkKind, 'kernel'>, number>;
}

const aborted = (st: RunState): boolean => st.opts.signal?.aborted === true;

const methodOf = (st: RunState): TimingMethod => timingMethod(st.target.ep, st.opts.forceDifferencedTiming);

/** One kernel timed: copies and warm-up by the EP's timing method (gpu-timing.ts), between nvidia-smi readings on CUDA. */
function runKernel(st: RunState, spec: KernelSpec, rule: StoppingRule): Promise<RunOutcome> {
  const method = methodOf(st);
  const job = { spec, ep: st.target.ep, rule: methodRule(rule, method), chain: chainCopies(spec, method) };
  return st.clocks.around(spec.id, () => st.runner.run(job));
}

/** One kernel timed as a work item: its cost is counted against its expected cost. */
async function timedKernel(st: RunState, spec: KernelSpec): Promise<{ outcome: RunOutcome; ms: number }> {
  const t0 = Date.now();
  const outcome = await runKernel(st, spec, st.rule);
  const ms = Date.now() - t0;
  if (!aborted(st)) st.work.finish('kernel', expectedKernelMs(spec, st.rule), ms);
  return { outcome, ms };
}

/** A kernel's timing with the injected noise source (tests) applied. */
function judged(st: RunState, spec: KernelSpec, outcome: Extract<RunOutcome, { ok: true }>): KernelTiming {
  const t = kernelTiming(spec, outcome, st.overhead, st.rule);
  return st.opts.forceNoisy?.(spec) ? { ...t, noisy: true } : t;
}

function isStoredFn(
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

/** Why an accelerator has no usable device (no WebGPU adapter, no CUDA driver), or null. */
async function trialKernelFails(runner: KernelRunnerLike, target: ProfileTarget): Promise<string | null> {
  if (target.ep.name === 'cpu') return null;
  // One tiny kernel first: an EP without a usable device (no WebGPU adapter, no CUDA
  // driver) is reported once instead of failing every kernel.
  const trial = await runner.run({
    spec: makeKernel('Relu', 'fp32', { n: 1024 }),
    ep: target.ep,
    rule: { warmupRuns: 0, minRepetitions: 1, maxRepetitions: 1, targetCi: 1, budgetMs: 1000 },
  });
  return trial.ok ? null : `${target.deviceKey}: ${trial.error}`;
}

/** Stores a kernel's label (replacing a stored row when asked) and its NCHWc reorders. */
function store(
  st: RunState,
  spec: KernelSpec,
  outcome: Extract<RunOutcome, { ok: true }>,
  summary: TimingSummary,
  replace: boolean,
): void {
  st.repo.insertMeasurements(
    st.runId,
    [toMeasurement(spec, st.runId, st.target, st.ortVersion, summary, summarize(outcome.wallUs))],
    replace ? { onConflict: 'replace' } : {},
  );
  st.reorders.add(reorderTimings(spec, outcome, st.overhead, st.rule));
}

const noisyError = (k: TimingSummary): string =>
  `too noisy: median not within ±${(k.ciHalfWidth * 100).toFixed(0)}%, cv ${k.cv.toFixed(2)}; kept, timed again later`;

/**
 * Times one kernel once and stores it. A noisy timing is stored too (kept with its spread,
 * marked noisy in the run) and timed again later: in the next round, among the other kernels,
 * and in the retry passes at the end (never back to back).
 */
async function measureKernel(
  st: RunState,
  spec: KernelSpec,
): Promise<{ status: KernelStatus; medianUs?: number; error?: string }> {
  const { outcome } = await timedKernel(st, spec);
  if (aborted(st)) return { status: 'failed' };
  if (!outcome.ok) {
    st.report.failures.push({ kernel: spec.id, kind: outcome.kind, error: outcome.error });
    if (outcome.kind === 'ep-unavailable') st.epGone = outcome.error;
    return { status: 'failed', error: outcome.error };
  }
  const picked = judged(st, spec, outcome);
  const k = picked.summary;
  if (picked.note) st.report.notes.push(picked.note);
  store(st, spec, outcome, k, st.remeasure.has(spec.id));
  st.measured.push({ spec, medianUs: k.medianUs });
  st.report.measured++;
  if (picked.noisy) {
    st.noisy.set(spec.id, { spec, ciHalfWidth: k.ciHalfWidth, cv: k.cv });
    return { status: 'noisy', medianUs: k.medianUs, error: noisyError(k) };
  }
  return { status: 'measured', medianUs: k.medianUs };
}

function kernelEvent(
  st: RunState,
  spec: KernelSpec,
  r: { status: KernelStatus; medianUs?: number; error?: string },
): void {
  st.opts.onEvent?.({
    type: 'kernel',
    index: st.work.done,
    total: st.work.total,
    spec,
    ...r,
    elapsedMs: Date.now() - st.started,
    remainingMs: st.work.remainingMs(),
  });
}

function stepEvent(st: RunState, label: string): void {
  st.opts.onEvent?.({
    type: 'step',
    index: st.work.done,
    total: st.work.total,
    label,
    elapsedMs: Date.now() - st.started,
    remainingMs: st.work.remainingMs(),
  });
}

/** A kernel that failed in the first round is not timed in the later ones: its items are skipped. */
function skipLaterRounds(st: RunState, spec: KernelSpec): void {
  const later = st.rounds - 1;
  st.work.unexpect('kernel', expectedKernelMs(spec, st.rule) * later);
  st.work.skip(later);
}

/** Refinement's kernels take the place of its reserved slots; slots it does not use are done. */
function refine(st: RunState, queue: KernelSpec[], known: Set<string>, isStored: (k: KernelSpec) => boolean): void {
  const limit = st.opts.refineLimit ?? SUITE_REFINEMENT[st.opts.suite];
  const extra = planRefinement(st.measured, known, limit)
    .filter((k) => !isStored(k))
    .slice(0, limit);
  extra.forEach((k) => known.add(k.id));
  st.work.unexpect('kernel', st.refineSlotMs * limit * st.rounds);
  st.work.skip((limit - extra.length) * st.rounds);
  for (const k of extra) st.work.expect('kernel', expectedKernelMs(k, st.rule) * st.rounds);
  if (extra.length) {
    queue.push(...extra);
    st.opts.onEvent?.({ type: 'refine', added: extra.length });
  }
}

/** The first round: every kernel not stored yet, then refinement where the curves bend. */
async function firstRound(
  st: RunState,
  queue: KernelSpec[],
  known: Set<string>,
  isStored: (k: KernelSpec) => boolean,
): Promise<void> {
  let refined = false;
  for (let i = 0; i < queue.length && !aborted(st) && !st.epGone; i++) {
    const spec = queue[i] as KernelSpec;
    const r = await measureKernel(st, spec);
    if (aborted(st)) break;
    if (r.status === 'failed') skipLaterRounds(st, spec);
    kernelEvent(st, spec, r);
    if (i === queue.length - 1 && !refined) {
      refined = true;
      refine(st, queue, known, isStored);
    }
  }
}

/**
 * A kernel's label after round `round` (2, 3...), or null to keep the stored one. A timed
 * kernel keeps the lower median: a slow phase of the machine (another process, a busy
 * hypervisor) only ever makes it slower. A chained label is a difference, whose noise goes
 * both ways: the minimum would keep the luckiest low difference (down to the floor), so
 * rounds are averaged instead.
 */
export function roundLabel(storedUs: number, newUs: number, round: number, chained: boolean): number | null {
  if (chained) return (storedUs * (round - 1) + newUs) / round;
  return newUs < storedUs ? newUs : null;
}

/**
 * A later timing of a stored kernel. A clean timing of a kernel kept noisy replaces it (and it
 * is noisy no more); otherwise the labels combine by roundLabel, a noisy timing only into a
 * kernel that is noisy already.
 */
function retime(st: RunState, m: MeasuredKernel, outcome: Extract<RunOutcome, { ok: true }>, round: number): void {
  const t = judged(st, m.spec, outcome);
  const wasNoisy = st.noisy.has(m.spec.id);
  let label: number | null;
  if (wasNoisy && !t.noisy) {
    label = t.summary.medianUs;
    st.noisy.delete(m.spec.id);
  } else if (t.noisy && !wasNoisy) label = null;
  else label = roundLabel(m.medianUs, t.summary.medianUs, round, !!outcome.chained);
  if (label !== null) {
    store(st, m.spec, outcome, { ...t.summary, medianUs: label }, true);
    m.medianUs = label;
  } else st.reorders.add(reorderTimings(m.spec, outcome, st.overhead, st.rule));
}

/**
 * Later rounds re-time every kernel (see roundLabel), noisy ones among the others. The rounds
 * are spread over the whole run, so one slow minute spoils one round at most.
 */
async function laterRounds(st: RunState): Promise<void> {
  const firstRound = [...st.measured];
  for (let round = 2; round <= st.rounds && !aborted(st) && !st.epGone; round++) {
    for (const m of firstRound) {
      if (aborted(st) || st.epGone) break;
      const { outcome } = await timedKernel(st, m.spec);
      if (aborted(st)) break;
      if (outcome.ok) retime(st, m, outcome, round);
      const noisy = st.noisy.has(m.spec.id);
      kernelEvent(st, m.spec, { status: noisy ? 'noisy' : 'measured', medianUs: m.medianUs });
    }
  }
}

/**
 * The retry passes: each kernel still noisy is timed again once per pass, the passes after
 * every round (so a kernel's retries are a whole pass apart), within the retry budget.
 */
async function retryNoisy(st: RunState): Promise<void> {
  const byId = new Map(st.measured.map((m) => [m.spec.id, m]));
  for (let pass = 1; pass <= RETRY_BUDGET.retriesPerKernel; pass++) {
    const pending = [...st.noisy.keys()];
    for (const id of pending) {
      if (aborted(st) || st.epGone) return;
      const otherMs = Date.now() - st.started - st.retries.retryMs;
      if (!retryAllowed(st.retries, st.items.retries, otherMs)) return;
      const m = byId.get(id) as MeasuredKernel;
      st.work.expect('kernel', expectedKernelMs(m.spec, st.rule));
      const { outcome, ms } = await timedKernel(st, m.spec);
      if (aborted(st)) return;
      st.retries.slots++;
      st.retries.retryMs += ms;
      if (outcome.ok) retime(st, m, outcome, st.rounds + pass);
      kernelEvent(st, m.spec, { status: st.noisy.has(id) ? 'noisy' : 'measured', medianUs: m.medianUs });
    }
  }
}

/** One step that is not a kernel (overhead chains, a calibration round), counted as a work item. */
async function step<T>(
  st: RunState,
  kind: Exclude<WorkKind, 'kernel'>,
  label: string,
  fn: () => Promise<T>,
): Promise<T> {
  const t0 = Date.now();
  const out = await fn();
  if (!aborted(st)) {
    st.work.finish(kind, st.stepMs[kind], Date.now() - t0);
    stepEvent(st, label);
  }
  return out;
}

/** The per-run and per-node overhead of the device (chains of tiny nodes, ORT trace off); null when not measured. */
async function measureOverhead(st: RunState): Promise<RunOverhead | null> {
  if (!st.runner.runOverhead || aborted(st) || st.epGone) return null;
  const outcome = await st.runner.runOverhead({
    ep: st.target.ep,
    rule: { ...st.rule, budgetMs: Math.min(st.rule.budgetMs, 300) },
    lengths: [...CHAIN_LENGTHS],
    rounds: CHAIN_ROUNDS,
    bindingElements: [...BINDING_ELEMENTS],
    // Waking the intra-op pool: ONNX Runtime's CPU provider at more than one thread.
    ...(st.target.ep.name === 'cpu' && st.target.ep.threads > 1 ? { wakeLengths: [...WAKE_CHAIN_LENGTHS] } : {}),
  });
  if (!outcome.ok) {
    st.report.notes.push(`per-run overhead not measured: ${outcome.error}`);
    return null;
  }
  const fitted = fitOverhead(outcome.points, outcome.traceNodeUs);
  if (!fitted) return null;
  const perNode = traceRunNodeCost(outcome.tracedRuns ?? [], fitted.nodeUs);
  const binding = perNode === null ? null : fitBinding(outcome.binding ?? [], perNode, fitted.runUs);
  if (!binding) st.report.notes.push('the Node binding was not measured apart: device times include its per-call cost');
  const wakeUs = outcome.wake ? fitWake(outcome.wake.atThreads, outcome.wake.atOneThread) : null;
  return { ...fitted, binding, profilerRunNodeUs: perNode, wakeUs };
}

/** The calibration models prepared on the device (calibration-service.ts); null when the runner cannot run models. */
async function startCalibration(st: RunState): Promise<DeviceCalibration | null> {
  const { runModel, optimize } = st.runner;
  if (!runModel || !optimize || aborted(st) || st.epGone) return null;
  const runner = st.runner;
  const calibrating = {
    start: () => runner.start(),
    optimize: (j: Parameters<typeof optimize>[0]) => optimize.call(runner, j),
    runModel: (j: Parameters<typeof runModel>[0]) => runModel.call(runner, j),
  };
  return DeviceCalibration.prepare(st.deps.db, calibrating, st.target.ep, () => aborted(st) || !!st.epGone);
}

/**
 * The kernel rounds with a calibration round before, between and after them: a slow phase of
 * the machine then spoils one calibration round at most (each model keeps its fastest). The
 * retry passes for noisy kernels come after the rounds.
 */
async function kernelsAndCalibration(
  st: RunState,
  calibration: DeviceCalibration | null,
  queue: KernelSpec[],
  all: readonly KernelSpec[],
  isStored: (k: KernelSpec) => boolean,
): Promise<CalibrationRun[]> {
  const calibrate = (): Promise<void> =>
    calibration ? step(st, 'calibration', 'calibration models', () => calibration.round()) : Promise.resolve();
  await calibrate();
  await firstRound(st, queue, new Set(all.map((k) => k.id)), isStored);
  await calibrate();
  await laterRounds(st);
  await calibrate();
  await retryNoisy(st);
  if (!calibration) return [];
  const { runs, notes } = calibration.result(st.overhead);
  st.report.notes.push(...notes);
  return runs;
}

/** How the run's kernels were timed, for its summary; nothing for the CPU EP's usual mix. */
function timingNote(st: RunState): { timing?: Record<string, unknown> } {
  const method = methodOf(st);
  const warmupRuns = methodRule(st.rule, method).warmupRuns;
  if (method === 'differenced') return { timing: { method, copies: CHAIN_COPIES, warmupRuns } };
  if (method === 'direct') {
    const clock = st.target.ep.name === 'torch-cuda' ? 'cuda-events' : 'wall-clock';
    return { timing: { method: clock, backend: 'pytorch', warmupRuns } };
  }
  return {};
}

/** The command that measures again what a target lacks (profiles resume: it re-measures only that). */
function rerunCommand(target: ProfileTarget, suite: SuiteName): string {
  const threads = epThreads(target.ep);
  const parts = ['pipedejavu profile', `--device ${target.deviceKey}`];
  if (threads !== null) parts.push(`--threads ${threads}`);
  if (suite !== 'quick') parts.push(`--suite ${suite}`);
  if (isTorchEp(target.ep)) parts.push('--backend torch');
  return parts.join(' ');
}

/** What the device's summary lacks, in words, with the command that fills it in; none when complete. */
function missingFigures(summary: DeviceSummary, target: ProfileTarget, suite: SuiteName): string[] {
  const missing: string[] = [];
  if (!summary.peakGflops.fp32) missing.push('its fp32 peak (no GEMM, conv or attention kernel was stored)');
  if (!summary.bandwidthGBps)
    missing.push('its memory bandwidth (no memory-bound kernel of 32 MiB or more was stored)');
  if (!missing.length) return [];
  return [
    `could not measure ${missing.join(' nor ')}; predictions on this device fall back on estimates until \`${rerunCommand(target, suite)}\` measures the missing kernels (profiles resume)`,
  ];
}

/** The note on the kernels that stayed noisy, with their spread and the command that re-measures them. */
function noisyNote(st: RunState): string[] {
  const still = [...st.noisy.values()];
  if (!still.length) return [];
  const worst = [...still].sort((a, b) => b.ciHalfWidth - a.ciHalfWidth).slice(0, 3);
  const spread = worst.map((k) => `${k.spec.id} ±${(k.ciHalfWidth * 100).toFixed(0)}% cv ${k.cv.toFixed(2)}`);
  const one = still.length === 1;
  return [
    `${count(still.length, 'kernel')} stayed too noisy after ${count(st.retries.slots, 'retry', 'retries')} in this run; kept with ${one ? 'its' : 'their'} spread and marked noisy (${spread.join('; ')}${still.length > 3 ? '; ...' : ''}); \`${rerunCommand(st.target, st.opts.suite)}\` on a quieter machine measures ${one ? 'it' : 'them'} again`,
  ];
}

/** The run's summary (measured roofline, overhead, calibration), its notes and final status. */
function finish(
  st: RunState,
  overhead: RunOverhead | null,
  calibration: CalibrationRun[],
  conditions: RunConditions | null,
): ProfileReport {
  const { target, report } = st;
  const threads = epThreads(target.ep);
  const stored = st.repo.listMeasurements({ machineId: target.machineId, deviceKey: target.deviceKey });
  const mine = stored.filter(
    (m) => m.executionProvider === epName(target.ep) && m.threads === threads && m.source === 'profile',
  );
  st.work.complete();
  stepEvent(st, 'done');
  // Kernels a past run kept noisy that this run did not reach stay noisy.
  const unreached = [...st.priorNoisy].filter((id) => !st.measured.some((m) => m.spec.id === id));
  const device = mine.length ? summarizeDevice(mine) : null;
  const summary = device
    ? {
        ...device,
        threads,
        executionProvider: epName(target.ep),
        ...(overhead ? { overhead } : {}),
        ...(calibration.length ? { calibration } : {}),
        ...timingNote(st),
        ...(st.clocks.result() ? { gpuClocks: st.clocks.result() } : {}),
        noisyKernels: [...new Set([...st.noisy.keys(), ...unreached])],
        costs: st.work.costs(),
      }
    : null;
  if (st.epGone) report.notes.push(`stopped: ${st.epGone}`);
  report.noisy = [...st.noisy.keys()];
  report.notes.push(...noisyNote(st));
  if (device && !aborted(st)) report.notes.push(...missingFigures(device, target, st.opts.suite));
  report.status = aborted(st) ? 'interrupted' : st.epGone && report.measured === 0 ? 'failed' : 'complete';
  report.summary = summary;
  report.conditions = conditions;
  if (conditions) {
    st.repo.setRunConditions(st.runId, conditions);
    if (conditions.waitedMs > 0)
      report.notes.push(`waited ${Math.round(conditions.waitedMs / 1000)} s for a quiet moment before it started`);
    const poor = poorRunNote(conditions, rerunCommand(target, st.opts.suite));
    if (poor) report.notes.push(poor);
  }
  report.elapsedMs = Date.now() - st.started;
  st.repo.finishRun(st.runId, report.status, summary, report.notes);
  return report;
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
function priorNoisyKernels(repo: ProfileRepo, target: ProfileTarget): Set<string> {
  const last = targetRuns(repo, target).find((r) => r.summary !== null);
  const ids = last?.summary?.noisyKernels;
  return new Set(Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : []);
}

/**
 * The kernels of `specs` whose stored row a run of this target taken in poor conditions measured:
 * measured again (a row moves to the run that re-measures it, so a quiet run ends this).
 */
function poorRunKernels(repo: ProfileRepo, target: ProfileTarget, specs: readonly KernelSpec[]): string[] {
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
      runOf.set(`${m.op}|${m.shapeKey}|${m.dtype}`, m.runId);
  return specs.filter((k) => poorRuns.has(runOf.get(`${k.op}|${shapeKey(k.shape)}|${k.dtype}`) ?? '')).map((k) => k.id);
}

/** What this machine's last run of the same provider measured its items to cost (same threads first). */
function pastCosts(repo: ProfileRepo, target: ProfileTarget): MeasuredCosts | null {
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
  // One profiler per machine; taking the lock closes the runs a killed one left 'running'.
  const release = takeProfilerLock(deps.db, target.machineId, target.deviceKey, deps.now);
  try {
    const runner = runnerOf(deps, target.ep);
    if (!runner) return { ...base, runId: null, status: 'unavailable', notes: ['PyTorch backend: not set up here'] };
    const unavailable = await unavailableReasonOrStart(deps, runner, target);
    if (typeof unavailable === 'string') return { ...base, runId: null, status: 'unavailable', notes: [unavailable] };
    const watch = await conditionsBefore(deps, target, opts);
    return await profileLocked(deps, runner, target, opts, {
      repo,
      base,
      // The run's time (and its retry budget) starts once the wait for a quiet moment is over.
      started: watch ? Date.now() : started,
      ortVersion: unavailable.ortVersion,
      watch,
    });
  } finally {
    release();
  }
}

/**
 * A CPU run's readings before it starts (run-conditions-service.ts): 1 s windows while nothing of
 * ours runs, waiting for a quiet moment within the budget (said in a 'wait' event). Null when
 * the host's CPU times are not read (no cpuTimes given, not Linux) or the target is not a CPU.
 */
async function conditionsBefore(
  deps: ProfilerDeps,
  target: ProfileTarget,
  opts: ProfileOptions,
): Promise<ConditionsWatch | null> {
  if (!onCpu(target.ep) || !deps.cpuTimes) return null;
  return ConditionsWatch.start(
    { cpuTimes: deps.cpuTimes, ...(deps.sleep ? { sleep: deps.sleep } : {}) },
    {
      budgetMs: opts.quietBudgetMs ?? DEFAULT_QUIET_BUDGET_MS,
      ...(opts.signal ? { signal: opts.signal } : {}),
      onWait: (line) => opts.onEvent?.({ type: 'wait', line }),
    },
  );
}

/** nvidia-smi readings around the batches of a CUDA GPU; none elsewhere (a WebGPU adapter need not be an NVIDIA GPU). */
function clockWatch(deps: ProfilerDeps, target: ProfileTarget, note: (line: string) => void): ClockWatch {
  if ((target.ep.name !== 'cuda' && target.ep.name !== 'torch-cuda') || !deps.gpuClocks)
    return new ClockWatch(null, 0, note);
  return new ClockWatch(deps.gpuClocks, target.ep.deviceId, note);
}

async function profileLocked(
  deps: ProfilerDeps,
  runner: KernelRunnerLike,
  target: ProfileTarget,
  opts: ProfileOptions,
  ctx: {
    repo: ProfileRepo;
    base: Omit<ProfileReport, 'status' | 'runId'>;
    started: number;
    ortVersion: string;
    /** The readings taken before the run (CPU targets on a host whose CPU times are read), else null. */
    watch: ConditionsWatch | null;
  },
): Promise<ProfileReport> {
  const { repo, base, started, ortVersion } = ctx;
  const threads = epThreads(target.ep);
  const run = repo.createRun({
    machineId: target.machineId,
    deviceKey: target.deviceKey,
    suite: opts.suite,
    executionProvider: epName(target.ep),
    threads,
    runtimeVersion: ortVersion,
  });
  const suite = opts.kernels ?? kernelsFor(target.ep, opts.suite);
  const priorNoisy = priorNoisyKernels(repo, target);
  const remeasure = new Set(priorNoisy);
  const isStored = isStoredFn(repo, target, remeasure);
  const past = pastCosts(repo, target);
  const st: RunState = {
    deps,
    runner,
    target,
    opts,
    repo,
    runId: run.id,
    ortVersion,
    rule: opts.rule ?? SUITE_RULES[opts.suite],
    report: { ...base, runId: run.id, status: 'complete' },
    measured: [],
    started,
    epGone: null,
    overhead: null,
    clocks: clockWatch(deps, target, (line) => st.report.notes.push(line)),
    reorders: new ReorderLabels(isStored, (t, replace) =>
      repo.insertMeasurements(run.id, [toMeasurement(t.spec, run.id, target, ortVersion, t.summary, null)], {
        onConflict: replace ? 'replace' : 'skip',
      }),
    ),
    work: new WorkTracker(0, past),
    items: runItems({ kernels: 0, refineSlots: 0, rounds: 1, overhead: false, calibrationRounds: 0 }),
    rounds: Math.max(1, opts.rounds ?? SUITE_ROUNDS[opts.suite]),
    noisy: new Map(),
    priorNoisy,
    remeasure,
    retries: { slots: 0, retryMs: 0 },
    refineSlotMs: 0,
    stepMs: { overhead: expectedStepMs('overhead', past), calibration: expectedStepMs('calibration', past) },
  };
  const onAbort = (): void => st.runner.kill();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let runs: CalibrationRun[] = [];
  let calibration: DeviceCalibration | null = null;
  try {
    calibration = await startCalibration(st);
    const all = withCalibrationKernels(suite, calibration, opts.calibrationKernels ?? !opts.kernels);
    remeasurePoor(st, remeasure, all);
    const queue = all.filter((k) => !isStored(k));
    st.report.alreadyMeasured = all.length - queue.length;
    planWork(st, queue, calibration !== null, past);
    st.overhead = st.items.overhead
      ? await step(st, 'overhead', 'overhead chains', () => measureOverhead(st))
      : await measureOverhead(st);
    runs = await kernelsAndCalibration(st, calibration, queue, all, isStored);
  } finally {
    calibration?.dispose();
    opts.signal?.removeEventListener('abort', onAbort);
  }
  // One more window after the run (none when it was interrupted: the user is waiting), and the steal over it.
  const conditions = ctx.watch ? await ctx.watch.finish({ skipWindow: aborted(st) }) : null;
  return finish(st, st.overhead, runs, conditions);
}

/** Kernels a past run stored in poor conditions are measured again, said in a note. */
function remeasurePoor(st: RunState, remeasure: Set<string>, all: readonly KernelSpec[]): void {
  const poor = poorRunKernels(st.repo, st.target, all).filter((id) => !remeasure.has(id));
  poor.forEach((id) => remeasure.add(id));
  if (poor.length)
    st.report.notes.push(
      `${count(poor.length, 'kernel')} stored by a run taken in poor conditions (busy or stolen CPUs) measured again`,
    );
}

/** Fixes the run's work items, sets what each is expected to cost, and says so in the start event. */
function planWork(st: RunState, queue: readonly KernelSpec[], calibrated: boolean, past: MeasuredCosts | null): void {
  const refineSlots = queue.length ? (st.opts.refineLimit ?? SUITE_REFINEMENT[st.opts.suite]) : 0;
  st.items = runItems({
    kernels: queue.length,
    refineSlots,
    rounds: st.rounds,
    overhead: !!st.runner.runOverhead,
    calibrationRounds: calibrated ? 3 : 0,
  });
  st.work = new WorkTracker(st.items.total, past);
  const one = queue.map((k) => expectedKernelMs(k, st.rule));
  st.refineSlotMs = one.length ? one.reduce((a, b) => a + b, 0) / one.length : 0;
  for (const ms of one) st.work.expect('kernel', ms * st.rounds);
  st.work.expect('kernel', st.refineSlotMs * refineSlots * st.rounds);
  if (st.items.overhead) st.work.expect('overhead', st.stepMs.overhead);
  st.work.expect('calibration', st.stepMs.calibration * st.items.calibration);
  st.opts.onEvent?.({
    type: 'start',
    runId: st.runId,
    deviceKey: st.target.deviceKey,
    total: st.items.total,
    kernels: queue.length,
    rounds: st.rounds,
    items: st.items,
    alreadyMeasured: st.report.alreadyMeasured,
    estimatedMs: st.work.remainingMs(),
    basis: past ? 'measured' : 'prior',
    retryBudget: describeRetryBudget(st.items.retries),
  });
}

/** The suite's kernels and, when asked, the calibration models' node kernels it lacks. */
function withCalibrationKernels(
  suite: readonly KernelSpec[],
  calibration: DeviceCalibration | null,
  wanted: boolean,
): KernelSpec[] {
  const ids = new Set(suite.map((k) => k.id));
  const extra = wanted && calibration ? calibration.kernels().filter((k) => !ids.has(k.id)) : [];
  return [...suite, ...extra];
}

/** The runner's ORT version once the device is known to be usable; otherwise why not. */
async function unavailableReasonOrStart(
  deps: ProfilerDeps,
  runner: KernelRunnerLike,
  target: ProfileTarget,
): Promise<RunnerInfo | string> {
  const cheap = deps.epUnavailable(target.ep);
  if (cheap) return cheap;
  let info: RunnerInfo;
  try {
    info = await runner.start();
  } catch (e) {
    // No Python with torch is a fact about this machine, said in one line; ORT's runner failing to start is a bug.
    if (isTorchEp(target.ep)) return (e as Error).message;
    throw e;
  }
  const reason = await trialKernelFails(runner, target);
  return reason ?? info;
}

/** What profiling one target is expected to take before it starts (ms), and what that comes from. */
export interface TargetEstimate {
  kernels: number;
  estimatedMs: number;
  basis: 'measured' | 'prior';
}

/**
 * The same estimate a run's start line gives (profile-plan.ts): the target's kernels not stored
 * yet over the suite's rounds with refinement's slots, the overhead chains and the calibration
 * rounds, scaled by this machine's last run of the provider when there is one. The calibration
 * models' own kernels are known only once they are prepared, so they are left out here.
 */
export function estimateTarget(db: Database, target: ProfileTarget, suite: SuiteName): TargetEstimate {
  const repo = new ProfileRepo(db);
  const kernels = kernelsFor(target.ep, suite);
  const remeasure = new Set([...priorNoisyKernels(repo, target), ...poorRunKernels(repo, target, kernels)]);
  const isStored = isStoredFn(repo, target, remeasure);
  const pending = kernels.filter((k) => !isStored(k));
  const past = pastCosts(repo, target);
  const torch = isTorchEp(target.ep);
  const estimatedMs = estimateRunMs({
    kernels: pending,
    refineSlots: pending.length ? SUITE_REFINEMENT[suite] : 0,
    rounds: SUITE_ROUNDS[suite],
    overhead: !torch,
    calibrationRounds: torch ? 0 : 3,
    rule: SUITE_RULES[suite],
    past,
  });
  return { kernels: pending.length, estimatedMs, basis: past ? 'measured' : 'prior' };
}
