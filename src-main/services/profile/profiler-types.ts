/**
 * What profiling one device takes and gives (profiler-service.ts): its dependencies (the runners,
 * the store, the clock), the target, the options, the events it sends while it goes and the report
 * it ends with.
 */
import type { KernelStatus } from '../../core/domain/measurement.js';
import type { EpConfig } from '../../core/domain/execution-provider.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import type { SuiteName } from '../../core/kernels/suites.js';
import type { DeviceSummary } from '../../core/profiler/device-summary.js';
import type { KernelsByOrigin } from '../../core/profiler/kernel-counts.js';
import type { StoppingRule } from '../../core/profiler/timing-stats.js';
import type { RunItems } from '../../core/profiler/profile-plan.js';
import type { GpuClockSampler } from '../../core/profiler/gpu-clocks.js';
import type { CpuTimes, RunConditions } from '../../core/profiler/run-conditions.js';
import type { Database } from '../../adapters/store/types.js';
import type { KernelRunnerApi } from '../../adapters/ort/kernel-runner.js';
import type { FailureKind } from '../../adapters/ort/protocol.js';
import type { QuietWaits } from './quiet-waits.js';

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
  /** The command's waits for a quiet moment, shared by its targets (profileTargets); default: the run's own. */
  quietWaits?: QuietWaits;
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
      /** The same kernels by where each comes from (kernel-counts.ts). */
      byOrigin: KernelsByOrigin;
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
  /** Kernels this run measured (a kernel timed in several rounds once), = the sum of byOrigin. */
  measured: number;
  /** The measured kernels by where each comes from: the suite, the calibration nodes, refinement. */
  byOrigin: KernelsByOrigin;
  /** NCHWc reorders this run stored beside its kernels (not kernels: inserted-reorders.ts). */
  reorders: number;
  alreadyMeasured: number;
  failures: KernelFailure[];
  noisy: string[];
  elapsedMs: number;
  summary: (DeviceSummary & Record<string, unknown>) | null;
  notes: string[];
  /** The conditions a CPU run was taken in (load around it, steal); absent or null: not read. */
  conditions?: RunConditions | null;
}
