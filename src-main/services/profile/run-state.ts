/**
 * Everything one profile run keeps while it goes (profile-locked.ts): the report, what was
 * measured, where it stands, and the events and rows it writes as it goes.
 */
import type { KernelStatus } from '../../core/domain/measurement.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import type { MeasuredKernel } from '../../core/profiler/refinement.js';
import { noKernels, type KernelOrigin, type KernelsByOrigin } from '../../core/profiler/kernel-counts.js';
import { SUITE_ROUNDS, SUITE_RULES } from '../../core/profiler/suite-policy.js';
import { summarize, type StoppingRule, type TimingSummary } from '../../core/profiler/timing-stats.js';
import {
  expectedStepMs,
  runItems,
  WorkTracker,
  type MeasuredCosts,
  type RunItems,
  type WorkKind,
} from '../../core/profiler/profile-plan.js';
import { timingMethod, type TimingMethod } from '../../core/profiler/gpu-timing.js';
import type { RunOverhead } from '../../core/profiler/overhead.js';
import type { ProfileRepo } from '../../adapters/store/profile-repo.js';
import type { RunOutcome } from '../../adapters/ort/protocol.js';
import { ClockWatch } from './gpu-clock-watch.js';
import { ReorderLabels, reorderTimings } from './inserted-reorders.js';
import { tracedNodes } from './kernel-timing.js';
import { toMeasurement } from './target-store.js';
import type { RetimedKernels } from './round-retime.js';
import type { KernelRunnerLike, ProfileOptions, ProfileReport, ProfilerDeps, ProfileTarget } from './profiler-types.js';
import type { BlasPool } from '../../core/profiler/blas-pool.js';

/** A row stored from the ORT trace: the label of `nodes` nodes, and the wall time beside it. */
export interface TracedRow {
  spec: KernelSpec;
  nodes: number;
  summary: TimingSummary;
  wall: TimingSummary;
}

/** A kernel stored while still too noisy: kept with its spread, timed again later within the retry budget. */
export interface NoisyKernel {
  spec: KernelSpec;
  ciHalfWidth: number;
  cv: number;
  /** The timed runs its spread comes from. */
  repetitions: number;
}

/** What a run starts from: its target and dependencies, its row in the store, and what past runs left. */
export interface RunStart {
  deps: ProfilerDeps;
  /** The target's backend runner (runnerOf). */
  runner: KernelRunnerLike;
  target: ProfileTarget;
  opts: ProfileOptions;
  repo: ProfileRepo;
  runId: string;
  ortVersion: string;
  started: number;
  /** The report's fields before the run (its id and status aside). */
  base: Omit<ProfileReport, 'status' | 'runId'>;
  /** What this machine's last run of the provider measured its items to cost (target-store.ts). */
  past: MeasuredCosts | null;
  /** Whether a kernel is stored already (and not to be measured again). */
  isStored: (k: KernelSpec) => boolean;
  priorNoisy: ReadonlySet<string>;
  remeasure: ReadonlySet<string>;
  /** A CPU run at more threads: this machine's 1-thread labels by kernelKey (target-store.ts); else empty. */
  oneThread?: ReadonlyMap<string, number>;
  /** PyTorch's runner: the BLAS library its products run on, and its own pool (kept in the summary). */
  blas?: BlasPool | null;
}

/** nvidia-smi readings around the batches of a CUDA GPU; none elsewhere (a WebGPU adapter need not be an NVIDIA GPU). */
function clockWatch(deps: ProfilerDeps, target: ProfileTarget, note: (line: string) => void): ClockWatch {
  if ((target.ep.name !== 'cuda' && target.ep.name !== 'torch-cuda') || !deps.gpuClocks)
    return new ClockWatch(null, 0, note);
  return new ClockWatch(deps.gpuClocks, target.ep.deviceId, note);
}

export class RunState {
  readonly deps: ProfilerDeps;
  /** The target's backend runner (runnerOf). */
  readonly runner: KernelRunnerLike;
  readonly target: ProfileTarget;
  readonly opts: ProfileOptions;
  readonly repo: ProfileRepo;
  readonly runId: string;
  readonly ortVersion: string;
  /** PyTorch's runner: the BLAS library its products run on, and its own pool; else null. */
  readonly blas: BlasPool | null;
  readonly rule: StoppingRule;
  readonly report: ProfileReport;
  readonly measured: MeasuredKernel[] = [];
  /** Where each kernel of the run comes from (the suite when not named: a test's own kernels). */
  readonly origins = new Map<string, KernelOrigin>();
  readonly started: number;
  epGone: string | null = null;
  /** Measured before the kernels: their labels need the ORT trace's per-node cost. */
  overhead: RunOverhead | null = null;
  /** nvidia-smi readings around every batch on a CUDA GPU. */
  readonly clocks: ClockWatch;
  /** The NCHWc reorders the traced kernels brought along (inserted-reorders.ts). */
  readonly reorders: ReorderLabels;
  /** The run's fixed work items and the time left (profile-plan.ts); fixed by planWork. */
  work: WorkTracker;
  items: RunItems = runItems({ kernels: 0, refineSlots: 0, rounds: 1, overhead: false, calibrationRounds: 0 });
  readonly rounds: number;
  /** Kernels stored but still too noisy, by id. */
  readonly noisy = new Map<string, NoisyKernel>();
  /** Kernels a past run of this target stored noisy: measured again, replacing the stored row. */
  readonly priorNoisy: ReadonlySet<string>;
  /** Kernels measured again although stored (noisy ones, and those a run in poor conditions stored): their rows are replaced. */
  readonly remeasure: ReadonlySet<string>;
  readonly retries = { slots: 0, retryMs: 0 };
  /** This machine's 1-thread labels by kernelKey, for a CPU run at more threads (round-agreement.ts). */
  readonly oneThread: ReadonlyMap<string, number>;
  /** Each kernel's clean round labels (µs), in round order: what the rounds' agreement is read from. */
  readonly roundsUs = new Map<string, number[]>();
  /** Other processes' work beside each of those rounds (CPUs; null: not read), and the host's CPUs (round-agreement.ts crowdedKernels). */
  readonly besideCpus = new Map<string, (number | null)[]>();
  hostCpus: number | null = null;
  /** The kernels re-timed because their rounds disagreed (round-retime.ts), with the run's spread; null: not looked at. */
  retimed: RetimedKernels | null = null;
  /** The rows this run stored from the ORT trace, by kernel id: what the trace-cost bound re-makes (trace-cost-bound.ts). */
  readonly traced = new Map<string, TracedRow>();
  /** The expected cost of one refinement slot (the mean kernel of the queue, ms). */
  refineSlotMs = 0;
  /** The expected cost of an overhead step and of a calibration round (ms). */
  readonly stepMs: Record<Exclude<WorkKind, 'kernel'>, number>;

  constructor(start: RunStart) {
    const { deps, target, opts, repo, runId, ortVersion, past } = start;
    this.deps = deps;
    this.runner = start.runner;
    this.target = target;
    this.opts = opts;
    this.repo = repo;
    this.runId = runId;
    this.ortVersion = ortVersion;
    this.blas = start.blas ?? null;
    this.rule = opts.rule ?? SUITE_RULES[opts.suite];
    this.report = { ...start.base, runId, status: 'complete' };
    this.started = start.started;
    this.clocks = clockWatch(deps, target, (line) => this.report.notes.push(line));
    this.reorders = new ReorderLabels(start.isStored, (t, replace) =>
      repo.insertMeasurements(runId, [toMeasurement(t.spec, runId, target, ortVersion, t.summary, null)], {
        onConflict: replace ? 'replace' : 'skip',
      }),
    );
    this.work = new WorkTracker(0, past);
    this.rounds = Math.max(1, opts.rounds ?? SUITE_ROUNDS[opts.suite]);
    this.priorNoisy = start.priorNoisy;
    this.remeasure = start.remeasure;
    this.oneThread = start.oneThread ?? new Map();
    this.stepMs = { overhead: expectedStepMs('overhead', past), calibration: expectedStepMs('calibration', past) };
  }

  /** The kernels of `specs` by where each comes from. */
  byOrigin(specs: readonly KernelSpec[]): KernelsByOrigin {
    const c = noKernels();
    for (const k of specs) c[this.origins.get(k.id) ?? 'suite']++;
    return c;
  }

  /** A clean round's label of a kernel, with the other work beside it (what the later pass reads). */
  addRound(id: string, medianUs: number, outcome: Extract<RunOutcome, { ok: true }>, first = false): void {
    if (first) {
      this.roundsUs.set(id, []);
      this.besideCpus.set(id, []);
    }
    this.roundsUs.get(id)?.push(medianUs);
    this.besideCpus.get(id)?.push(outcome.beside?.othersCpus ?? null);
    if (outcome.beside) this.hostCpus = outcome.beside.cpus;
  }

  aborted(): boolean {
    return this.opts.signal?.aborted === true;
  }

  /** How this run times its kernels (gpu-timing.ts). */
  method(): TimingMethod {
    return timingMethod(this.target.ep, this.opts.forceDifferencedTiming);
  }

  /** Stores a kernel's label (replacing a stored row when asked) and its NCHWc reorders. */
  store(spec: KernelSpec, outcome: Extract<RunOutcome, { ok: true }>, summary: TimingSummary, replace: boolean): void {
    const wall = summarize(outcome.wallUs);
    this.storeRow(spec, summary, wall, replace);
    const nodes = tracedNodes(spec, outcome);
    if (nodes === null) this.traced.delete(spec.id);
    else this.traced.set(spec.id, { spec, nodes, summary, wall });
    this.reorders.add(reorderTimings(spec, outcome, this.overhead, this.rule));
  }

  /** Writes a kernel's row (replacing a stored row when asked). */
  storeRow(spec: KernelSpec, summary: TimingSummary, wall: TimingSummary | null, replace: boolean): void {
    this.repo.insertMeasurements(
      this.runId,
      [toMeasurement(spec, this.runId, this.target, this.ortVersion, summary, wall)],
      replace ? { onConflict: 'replace' } : {},
    );
  }

  kernelEvent(spec: KernelSpec, r: { status: KernelStatus; medianUs?: number; error?: string }): void {
    this.opts.onEvent?.({
      type: 'kernel',
      index: this.work.done,
      total: this.work.total,
      spec,
      ...r,
      elapsedMs: Date.now() - this.started,
      remainingMs: this.work.remainingMs(),
    });
  }

  stepEvent(label: string): void {
    this.opts.onEvent?.({
      type: 'step',
      index: this.work.done,
      total: this.work.total,
      label,
      elapsedMs: Date.now() - this.started,
      remainingMs: this.work.remainingMs(),
    });
  }
}
