/**
 * One profile run under the machine's profiler lock (profiler-service.ts takes it): the run's row,
 * its state, the kernels it measures (what is stored already is skipped, what past runs kept noisy
 * or measured in poor conditions is measured again), its work items, the overhead chains, the
 * rounds and the report.
 */
import { epThreads } from '../../core/domain/execution-provider.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import { runConditions } from '../../core/profiler/run-conditions.js';
import { SUITE_REFINEMENT } from '../../core/profiler/suite-policy.js';
import {
  describeRetryBudget,
  expectedKernelMs,
  runItems,
  WorkTracker,
  type MeasuredCosts,
} from '../../core/profiler/profile-plan.js';
import { count } from '../../core/text/plural.js';
import type { CalibrationRun } from '../../core/workload/calibration.js';
import type { ProfileRepo } from '../../adapters/store/profile-repo.js';
import type { DeviceCalibration } from './calibration-service.js';
import { RunState } from './run-state.js';
import { finish } from './profile-report.js';
import { kernelsAndCalibration } from './profile-rounds.js';
import { crowdedLeft } from './round-retime.js';
import { measureOverhead, startCalibration, step } from './profile-steps.js';
import type { KernelRunnerLike, ProfileOptions, ProfileReport, ProfilerDeps, ProfileTarget } from './profiler-types.js';
import type { ConditionsWatch } from './run-conditions-service.js';
import { epName, isStoredFn, oneThreadLabels, pastCosts, poorRunKernels, priorNoisyKernels } from './target-store.js';
import { blasPoolNote, type BlasPool } from '../../core/profiler/blas-pool.js';

export async function profileLocked(
  deps: ProfilerDeps,
  runner: KernelRunnerLike,
  target: ProfileTarget,
  opts: ProfileOptions,
  ctx: {
    repo: ProfileRepo;
    base: Omit<ProfileReport, 'status' | 'runId'>;
    started: number;
    ortVersion: string;
    /** PyTorch's runner: the BLAS library its products run on, and its own pool; else null. */
    blas: BlasPool | null;
    /** The kernels to measure: the options' or the suite's for this device (kernelsFor). */
    suite: KernelSpec[];
    /** The readings taken before the run (CPU targets on a host whose CPU times are read), else null. */
    watch: ConditionsWatch | null;
  },
): Promise<ProfileReport> {
  const { repo, base, started, ortVersion, suite } = ctx;
  const threads = epThreads(target.ep);
  const run = repo.createRun({
    machineId: target.machineId,
    deviceKey: target.deviceKey,
    suite: opts.suite,
    executionProvider: epName(target.ep),
    threads,
    runtimeVersion: ortVersion,
  });
  const poolNote = target.ep.name === 'torch-cpu' ? blasPoolNote(ctx.blas, threads ?? 1) : null;
  const priorNoisy = priorNoisyKernels(repo, target);
  const remeasure = new Set(priorNoisy);
  const isStored = isStoredFn(repo, target, remeasure);
  const past = pastCosts(repo, target);
  const st = new RunState({
    deps,
    runner,
    target,
    opts,
    repo,
    runId: run.id,
    ortVersion,
    started,
    base: { ...base, notes: [...base.notes, ...(poolNote ? [poolNote] : [])] },
    blas: ctx.blas,
    past,
    isStored,
    priorNoisy,
    remeasure,
    oneThread: oneThreadLabels(repo, target),
  });
  const onAbort = (): void => st.runner.kill();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let runs: CalibrationRun[] = [];
  let calibration: DeviceCalibration | null = null;
  try {
    calibration = await startCalibration(st);
    const all = withCalibrationKernels(suite, calibration, opts.calibrationKernels ?? !opts.kernels);
    for (const k of all.slice(suite.length)) st.origins.set(k.id, 'calibration');
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
  const read = ctx.watch ? await ctx.watch.finish({ skipWindow: st.aborted() }) : null;
  const crowded = crowdedLeft(st.retimed);
  const conditions = read && crowded ? runConditions({ ...read, crowdedKernels: crowded }) : read;
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
    byOrigin: st.byOrigin(queue),
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
