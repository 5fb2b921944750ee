/**
 * The steps of a run that are not kernels, each counted as a work item: the overhead chains
 * (the device's per-run and per-node cost) and the calibration models' rounds.
 */
import type { WorkKind } from '../../core/profiler/profile-plan.js';
import {
  BINDING_ELEMENTS,
  CHAIN_LENGTHS,
  CHAIN_ROUNDS,
  fitBinding,
  fitOverhead,
  traceRunNodeCost,
  fitWake,
  fitParallelOp,
  WAKE_CHAIN_LENGTHS,
  type RunOverhead,
} from '../../core/profiler/overhead.js';
import { isTorchEp } from '../../core/domain/execution-provider.js';
import { DeviceCalibration } from './calibration-service.js';
import type { RunState } from './run-state.js';

/** One step that is not a kernel (overhead chains, a calibration round), counted as a work item. */
export async function step<T>(
  st: RunState,
  kind: Exclude<WorkKind, 'kernel'>,
  label: string,
  fn: () => Promise<T>,
): Promise<T> {
  const t0 = Date.now();
  const out = await fn();
  if (!st.aborted()) {
    st.work.finish(kind, st.stepMs[kind], Date.now() - t0);
    st.stepEvent(label);
  }
  return out;
}

/** The per-run and per-node overhead of the device (chains of tiny nodes, ORT trace off); null when not measured. */
export async function measureOverhead(st: RunState): Promise<RunOverhead | null> {
  if (!st.runner.runOverhead || st.aborted() || st.epGone) return null;
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
  // PyTorch: a kernel's time is one eager call, its dispatch inside; the chains' slope is that dispatch.
  if (isTorchEp(st.target.ep)) return { ...fitted, nodeUs: 0, binding: null, dispatchUs: fitted.nodeUs };
  const perNode = traceRunNodeCost(outcome.tracedRuns ?? [], fitted.nodeUs);
  const binding = perNode === null ? null : fitBinding(outcome.binding ?? [], perNode, fitted.runUs);
  if (!binding) st.report.notes.push('the Node binding was not measured apart: device times include its per-call cost');
  const wake = outcome.wake;
  const wakeUs = wake ? fitWake(wake.atThreads, wake.atOneThread) : null;
  const threads = st.target.ep.name === 'cpu' ? st.target.ep.threads : 1;
  const parallelOpUs = wake ? fitParallelOp(wake.atThreads, wake.atOneThread, threads) : null;
  const readings = outcome.traceReadings;
  return {
    ...fitted,
    ...(readings ? { profilerNodeReadings: readings } : {}),
    binding,
    profilerRunNodeUs: perNode,
    wakeUs,
    parallelOpUs,
  };
}

/** The calibration models prepared on the device (calibration-service.ts); null when the runner cannot run models. */
export async function startCalibration(st: RunState): Promise<DeviceCalibration | null> {
  const { runModel, optimize } = st.runner;
  if (!runModel || !optimize || st.aborted() || st.epGone) return null;
  const runner = st.runner;
  const calibrating = {
    start: () => runner.start(),
    optimize: (j: Parameters<typeof optimize>[0]) => optimize.call(runner, j),
    runModel: (j: Parameters<typeof runModel>[0]) => runModel.call(runner, j),
  };
  return DeviceCalibration.prepare(st.deps.db, calibrating, st.target.ep, () => st.aborted() || !!st.epGone);
}
