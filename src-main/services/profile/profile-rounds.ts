/**
 * The kernel rounds of a run: the first round (every kernel not stored yet, then refinement
 * where the curves bend), the later rounds that re-time every kernel, and the retry passes for
 * the kernels still noisy, with a calibration round before, between and after them.
 */
import type { KernelSpec } from '../../core/kernels/types.js';
import { planRefinement, type MeasuredKernel } from '../../core/profiler/refinement.js';
import { SUITE_REFINEMENT } from '../../core/profiler/suite-policy.js';
import { expectedKernelMs, RETRY_BUDGET, retryAllowed } from '../../core/profiler/profile-plan.js';
import type { CalibrationRun } from '../../core/workload/calibration.js';
import type { RunOutcome } from '../../adapters/ort/protocol.js';
import type { DeviceCalibration } from './calibration-service.js';
import { reorderTimings } from './inserted-reorders.js';
import { judged, measureKernel, timedKernel } from './measure-kernel.js';
import type { KernelTiming } from './kernel-timing.js';
import { retimeDisagreeing } from './round-retime.js';
import type { RunState } from './run-state.js';
import { step } from './profile-steps.js';
import { boundTraceCost } from './trace-cost-bound.js';

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
  for (const k of extra) {
    known.add(k.id);
    st.origins.set(k.id, 'refinement');
  }
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
  for (let i = 0; i < queue.length && !st.aborted() && !st.epGone; i++) {
    const spec = queue[i] as KernelSpec;
    const r = await measureKernel(st, spec);
    if (st.aborted()) break;
    if (r.status === 'failed') skipLaterRounds(st, spec);
    st.kernelEvent(spec, r);
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
function retime(
  st: RunState,
  m: MeasuredKernel,
  outcome: Extract<RunOutcome, { ok: true }>,
  round: number,
): KernelTiming {
  const t = judged(st, m.spec, outcome);
  const wasNoisy = st.noisy.has(m.spec.id);
  let label: number | null;
  if (wasNoisy && !t.noisy) {
    label = t.summary.medianUs;
    st.noisy.delete(m.spec.id);
  } else if (t.noisy && !wasNoisy) label = null;
  else label = roundLabel(m.medianUs, t.summary.medianUs, round, !!outcome.chained);
  if (label !== null) {
    st.store(m.spec, outcome, { ...t.summary, medianUs: label }, true);
    m.medianUs = label;
  } else st.reorders.add(reorderTimings(m.spec, outcome, st.overhead, st.rule));
  return t;
}

/**
 * Later rounds re-time every kernel (see roundLabel), noisy ones among the others. The rounds
 * are spread over the whole run, so one slow minute spoils one round at most.
 */
async function laterRounds(st: RunState): Promise<void> {
  const firstRound = [...st.measured];
  for (let round = 2; round <= st.rounds && !st.aborted() && !st.epGone; round++) {
    for (const m of firstRound) {
      if (st.aborted() || st.epGone) break;
      const { outcome } = await timedKernel(st, m.spec);
      if (st.aborted()) break;
      if (outcome.ok) {
        const t = retime(st, m, outcome, round);
        // The round's own label (not the combined one): what the rounds' agreement is read from.
        if (!t.noisy) st.addRound(m.spec.id, t.summary.medianUs, outcome);
      }
      const noisy = st.noisy.has(m.spec.id);
      st.kernelEvent(m.spec, { status: noisy ? 'noisy' : 'measured', medianUs: m.medianUs });
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
      if (st.aborted() || st.epGone) return;
      const otherMs = Date.now() - st.started - st.retries.retryMs;
      if (!retryAllowed(st.retries, st.items.retries, otherMs)) return;
      const m = byId.get(id) as MeasuredKernel;
      st.work.expect('kernel', expectedKernelMs(m.spec, st.rule));
      const { outcome, ms } = await timedKernel(st, m.spec);
      if (st.aborted()) return;
      st.retries.slots++;
      st.retries.retryMs += ms;
      if (outcome.ok) retime(st, m, outcome, st.rounds + pass);
      st.kernelEvent(m.spec, { status: st.noisy.has(id) ? 'noisy' : 'measured', medianUs: m.medianUs });
    }
  }
}

/**
 * The kernel rounds with a calibration round before, between and after them: a slow phase of
 * the machine then spoils one calibration round at most (each model keeps its fastest). After
 * the rounds, the kernels whose rounds disagree are re-timed (round-retime.ts), then the retry
 * passes for noisy kernels.
 */
export async function kernelsAndCalibration(
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
  await retimeDisagreeing(st);
  await retryNoisy(st);
  boundTraceCost(st);
  if (!calibration) return [];
  const { runs, notes } = calibration.result(st.overhead);
  st.report.notes.push(...notes);
  return runs;
}
