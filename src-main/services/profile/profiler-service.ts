/**
 * Profiling one device: runs a suite's micro-kernels through the kernel-runner child,
 * stores every measurement as soon as it is taken (so a kill keeps what finished),
 * skips what is already stored (so rerunning resumes), refines where curves bend, and
 * stores the device's measured roofline with the run.
 *
 * This file takes the machine's profiler lock, checks the device can run and waits for a quiet
 * moment; the run itself is in parts: profile-locked.ts (the run under the lock), run-state.ts
 * (what it keeps), profile-rounds.ts and measure-kernel.ts (the kernel rounds), profile-steps.ts
 * (overhead chains and calibration), profile-report.ts (the report), target-store.ts (what the
 * store holds for the target), kernel-timing.ts (a kernel's label) and profiler-types.ts (its types).
 */
import type { Dtype } from '../../core/domain/measurement.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import { makeKernel } from '../../core/kernels/cost.js';
import { suiteKernels, type SuiteName } from '../../core/kernels/suites.js';
import { SUITE_REFINEMENT, SUITE_ROUNDS, SUITE_RULES } from '../../core/profiler/suite-policy.js';
import { estimateRunMs } from '../../core/profiler/profile-plan.js';
import { noKernels } from '../../core/profiler/kernel-counts.js';
import { epThreads, isTorchEp, onCpu, type EpConfig } from '../../core/domain/execution-provider.js';
import { ProfileRepo } from '../../adapters/store/profile-repo.js';
import type { Database } from '../../adapters/store/types.js';
import type { RunnerInfo } from '../../adapters/ort/kernel-runner.js';
import { DEFAULT_QUIET_BUDGET_MS, type ConditionsWatch } from './run-conditions-service.js';
import { QuietWaits } from './quiet-waits.js';
import { takeProfilerLock } from './profiler-lock.js';
import { profileLocked } from './profile-locked.js';
import type { KernelRunnerLike, ProfileOptions, ProfileReport, ProfilerDeps, ProfileTarget } from './profiler-types.js';
import { epName, isStoredFn, lastSuiteRunMs, pastCosts, poorRunKernels, priorNoisyKernels } from './target-store.js';

const FP_DTYPES_GPU: Dtype[] = ['fp32', 'fp16'];
/** PyTorch trains in bf16 on the GPUs that have it (torch_runner.py runs bf16 where torch does). */
const FP_DTYPES_TORCH_GPU: Dtype[] = ['fp32', 'fp16', 'bf16'];
const FP_DTYPES_CPU: Dtype[] = ['fp32'];

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
    byOrigin: noKernels(),
    reorders: 0,
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
      blas: unavailable.blas ?? null,
      suite: opts.kernels ?? kernelsFor(target.ep, opts.suite),
      watch,
    });
  } finally {
    release();
  }
}

/**
 * A CPU run's readings before it starts (run-conditions-service.ts): 1 s windows while nothing of
 * ours runs, waiting for a quiet moment within the budget (said in a 'wait' event); the command's
 * waits (quiet-waits.ts) when it gives them, else this run's own. Null when the host's CPU times
 * are not read (no cpuTimes given, not Linux) or the target is not a CPU.
 */
async function conditionsBefore(
  deps: ProfilerDeps,
  target: ProfileTarget,
  opts: ProfileOptions,
): Promise<ConditionsWatch | null> {
  if (!onCpu(target.ep) || !deps.cpuTimes) return null;
  const waits = opts.quietWaits ?? quietWaitsOf(deps, opts.quietBudgetMs);
  return waits.start({
    ...(opts.signal ? { signal: opts.signal } : {}),
    onWait: (line) => opts.onEvent?.({ type: 'wait', line }),
  });
}

/** The waits for a quiet moment of one command on these deps' host (null when its CPU times are not read). */
export function quietWaitsOf(deps: ProfilerDeps, budgetMs = DEFAULT_QUIET_BUDGET_MS): QuietWaits {
  const cpuTimes = deps.cpuTimes ?? (() => null);
  return new QuietWaits({ cpuTimes, ...(deps.sleep ? { sleep: deps.sleep } : {}) }, budgetMs);
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
 * models' own kernels are known only once they are prepared, so they are left out here; the
 * estimate is no less than the last run of the same suite on the target took.
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
    overhead: true,
    calibrationRounds: torch ? 0 : 3,
    rule: SUITE_RULES[suite],
    past,
  });
  // No less than the last run of this suite here took: what the cost model leaves out, it measured.
  const lastMs = lastSuiteRunMs(repo, target, suite) ?? 0;
  return {
    kernels: pending.length,
    estimatedMs: Math.max(estimatedMs, lastMs),
    basis: past || lastMs > 0 ? 'measured' : 'prior',
  };
}
