/**
 * One kernel timed once: copies and warm-up by the run's timing method, counted as a work item,
 * judged noisy or not, and stored (noisy ones too, kept with their spread and timed again later).
 */
import type { KernelStatus } from '../../core/domain/measurement.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import { spreadText, type StoppingRule, type TimingSummary } from '../../core/profiler/timing-stats.js';
import { expectedKernelMs } from '../../core/profiler/profile-plan.js';
import { methodRule } from '../../core/profiler/gpu-timing.js';
import type { RunOutcome } from '../../adapters/ort/protocol.js';
import { chainCopies, kernelTiming, type KernelTiming } from './kernel-timing.js';
import type { RunState } from './run-state.js';

/** One kernel timed: copies and warm-up by the EP's timing method (gpu-timing.ts), between nvidia-smi readings on CUDA. */
function runKernel(st: RunState, spec: KernelSpec, rule: StoppingRule): Promise<RunOutcome> {
  const method = st.method();
  const job = { spec, ep: st.target.ep, rule: methodRule(rule, method), chain: chainCopies(spec, method) };
  return st.clocks.around(spec.id, () => st.runner.run(job));
}

/** One kernel timed as a work item: its cost is counted against its expected cost. */
export async function timedKernel(st: RunState, spec: KernelSpec): Promise<{ outcome: RunOutcome; ms: number }> {
  const t0 = Date.now();
  const outcome = await runKernel(st, spec, st.rule);
  const ms = Date.now() - t0;
  if (!st.aborted()) st.work.finish('kernel', expectedKernelMs(spec, st.rule), ms);
  return { outcome, ms };
}

/** A kernel's timing with the injected noise source (tests) applied. */
export function judged(st: RunState, spec: KernelSpec, outcome: Extract<RunOutcome, { ok: true }>): KernelTiming {
  const t = kernelTiming(spec, outcome, st.overhead, st.rule);
  return st.opts.forceNoisy?.(spec) ? { ...t, noisy: true } : t;
}

const noisyError = (k: TimingSummary): string => `too noisy (${spreadText(k)}); kept, timed again later`;

/**
 * Times one kernel once and stores it. A noisy timing is stored too (kept with its spread,
 * marked noisy in the run) and timed again later: in the next round, among the other kernels,
 * and in the retry passes at the end (never back to back).
 */
export async function measureKernel(
  st: RunState,
  spec: KernelSpec,
): Promise<{ status: KernelStatus; medianUs?: number; error?: string }> {
  const { outcome } = await timedKernel(st, spec);
  if (st.aborted()) return { status: 'failed' };
  if (!outcome.ok) {
    st.report.failures.push({ kernel: spec.id, kind: outcome.kind, error: outcome.error });
    if (outcome.kind === 'ep-unavailable') st.epGone = outcome.error;
    return { status: 'failed', error: outcome.error };
  }
  const picked = judged(st, spec, outcome);
  const k = picked.summary;
  if (picked.note) st.report.notes.push(picked.note);
  st.store(spec, outcome, k, st.remeasure.has(spec.id));
  st.measured.push({ spec, medianUs: k.medianUs });
  st.report.measured++;
  if (!picked.noisy) st.addRound(spec.id, k.medianUs, outcome, true);
  if (picked.noisy) {
    st.noisy.set(spec.id, { spec, ciHalfWidth: k.ciHalfWidth, cv: k.cv, repetitions: k.repetitions });
    return { status: 'noisy', medianUs: k.medianUs, error: noisyError(k) };
  }
  return { status: 'measured', medianUs: k.medianUs };
}
