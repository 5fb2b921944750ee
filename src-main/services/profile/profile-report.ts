/**
 * The report of a run in words: its summary (measured roofline, overhead, calibration, how the
 * kernels were timed), the notes on what stayed noisy or is missing (each with the command that
 * measures it again), the conditions it ran in, and its final status, stored with the run.
 */
import { epThreads, isTorchEp } from '../../core/domain/execution-provider.js';
import type { SuiteName } from '../../core/kernels/suites.js';
import { CHAIN_COPIES } from '../../core/kernels/chain.js';
import { summarizeDevice, type DeviceSummary } from '../../core/profiler/device-summary.js';
import { methodRule } from '../../core/profiler/gpu-timing.js';
import { spreadText } from '../../core/profiler/timing-stats.js';
import type { RunOverhead } from '../../core/profiler/overhead.js';
import type { RunConditions } from '../../core/profiler/run-conditions.js';
import type { CalibrationRun } from '../../core/workload/calibration.js';
import { count } from '../../core/text/plural.js';
import type { RunState } from './run-state.js';
import type { ProfileReport, ProfileTarget } from './profiler-types.js';
import { poorRunNote } from './run-conditions-service.js';
import { retimedNote } from './round-retime.js';
import { epName } from './target-store.js';

/** How the run's kernels were timed, for its summary; nothing for the CPU EP's usual mix. */
function timingNote(st: RunState): { timing?: Record<string, unknown> } {
  const method = st.method();
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
  const spread = worst.map((k) => `${k.spec.id} ${spreadText(k)}`);
  const one = still.length === 1;
  return [
    `${count(still.length, 'kernel')} stayed too noisy after ${count(st.retries.slots - (st.retimed?.timings ?? 0), 'retry', 'retries')} in this run; kept with ${one ? 'its' : 'their'} spread and marked noisy (${spread.join('; ')}${still.length > 3 ? '; ...' : ''}); \`${rerunCommand(st.target, st.opts.suite)}\` on a quieter machine measures ${one ? 'it' : 'them'} again`,
  ];
}

/** The run's summary (measured roofline, overhead, calibration), its notes and final status. */
export function finish(
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
  st.stepEvent('done');
  // Kernels a past run kept noisy that this run did not reach stay noisy.
  const unreached = [...st.priorNoisy].filter((id) => !st.measured.some((m) => m.spec.id === id));
  const device = mine.length ? summarizeDevice(mine) : null;
  const summary = device
    ? {
        ...device,
        threads,
        executionProvider: epName(target.ep),
        ...(overhead ? { overhead } : {}),
        ...(st.blas ? { blas: st.blas } : {}),
        ...(calibration.length ? { calibration } : {}),
        ...timingNote(st),
        ...(st.clocks.result() ? { gpuClocks: st.clocks.result() } : {}),
        noisyKernels: [...new Set([...st.noisy.keys(), ...unreached])],
        ...(st.retimed ? { retimed: st.retimed } : {}),
        costs: st.work.costs(),
      }
    : null;
  if (st.epGone) report.notes.push(`stopped: ${st.epGone}`);
  report.noisy = [...st.noisy.keys()];
  report.byOrigin = st.byOrigin(st.measured.map((m) => m.spec));
  report.reorders = st.reorders.count;
  report.notes.push(...retimedNote(st.retimed), ...noisyNote(st));
  if (device && !st.aborted()) report.notes.push(...missingFigures(device, target, st.opts.suite));
  report.status = st.aborted() ? 'interrupted' : st.epGone && report.measured === 0 ? 'failed' : 'complete';
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
