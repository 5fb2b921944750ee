/**
 * The later pass for kernels whose rounds disagree (issue 62): after the rounds, each kernel
 * whose rounds differ by more than the run's own spread (round-agreement.ts), and at more threads
 * each kernel whose every round is slower than the same kernel on one thread, is timed once more
 * between two timings of a reference kernel (a kernel whose rounds agreed, nearest in the run's
 * order and timed the same way), and keeps the mode of its rounds and that timing, the timing
 * divided by how far the reference drifted from its label. What was re-timed, why and what was
 * kept is stored with the run and said in its notes. The pass spends the noisy kernels' retry
 * budget, at most half of its slots.
 */
import type { KernelSpec } from '../../core/kernels/types.js';
import type { MeasuredKernel } from '../../core/profiler/refinement.js';
import { expectedKernelMs, retryAllowed } from '../../core/profiler/profile-plan.js';
import {
  crowdedKernels,
  keptMode,
  oneThreadCeiling,
  referenceDrift,
  roundSpread,
  slowerThanOneThread,
  type Disagreement,
  type RoundSpread,
} from '../../core/profiler/round-agreement.js';
import { count } from '../../core/text/plural.js';
import { crowded } from '../../core/profiler/run-conditions.js';
import { epThreads } from '../../core/domain/execution-provider.js';
import type { RunOutcome } from '../../adapters/ort/protocol.js';
import { chainCopies } from './kernel-timing.js';
import { judged, timedKernel } from './measure-kernel.js';
import type { RunState } from './run-state.js';
import { kernelKey } from './target-store.js';

/** One kernel re-timed: its rounds, the later timing, the reference's drift and the label kept. */
export interface RetimedKernel {
  kernel: string;
  /** Its clean round labels (µs), in round order. */
  roundsUs: number[];
  /** How far its rounds disagreed, less the run's drift (fraction, signed); or, with oneThreadUs, its fastest round over that label, less 1. */
  deviation: number;
  /** Re-timed for running slower than the same kernel on one thread: that label (µs); null otherwise. */
  oneThreadUs: number | null;
  /** Re-timed because every round shared its CPUs with other work: the least of it (CPUs); null otherwise. */
  besideCpus?: number | null;
  /** The later timing (µs), before the reference's drift is taken out; null when it failed or was noisy. */
  laterUs: number | null;
  reference: string | null;
  /** The reference's timings around it over its label (1.1: the machine ran 10% slower than in the rounds; referenceDrift). */
  referenceDrift: number | null;
  /** The label kept (µs) and which values (rounds, then the later timing) it was kept from. */
  keptUs: number;
  kept: number[];
  settled: boolean;
}

/** The run's rounds' spread and the kernels re-timed, as stored with the run (its summary's `retimed`). */
export interface RetimedKernels {
  /** The deviation beyond which rounds disagree (fraction). */
  threshold: number;
  /** The run's drift per round after the first (fraction). */
  drift: number[];
  /** Kernels with clean rounds the spread was read from. */
  kernels: number;
  /** Timings this pass spent (kernels and references), out of the retry budget. */
  timings: number;
  /** Kernels every round of which shared its CPUs with other work (re-timed or not: the budget may end first). */
  crowded?: number;
  retimed: RetimedKernel[];
}

/** A timing in the pass, counted against the retry budget; null when the budget is spent. */
async function budgeted(st: RunState, spec: KernelSpec): Promise<RunOutcome | null> {
  const otherMs = Date.now() - st.started - st.retries.retryMs;
  if (!retryAllowed(st.retries, Math.ceil(st.items.retries / 2), otherMs)) return null;
  st.work.expect('kernel', expectedKernelMs(spec, st.rule));
  const { outcome, ms } = await timedKernel(st, spec);
  st.retries.slots++;
  st.retries.retryMs += ms;
  (st.retimed as RetimedKernels).timings++;
  return outcome;
}

/** The reference's timing now over its label, or null (failed, noisy, out of budget). */
async function drift(st: RunState, ref: MeasuredKernel): Promise<number | null> {
  const o = await budgeted(st, ref.spec);
  if (!o?.ok) return null;
  const t = judged(st, ref.spec, o);
  return t.noisy ? null : t.summary.medianUs / ref.medianUs;
}

/** The steady kernel nearest to `at` in the run's order, timed the same way (chained or not). */
function reference(
  st: RunState,
  spread: RoundSpread,
  at: number,
  chained: boolean,
  retimed: ReadonlySet<string>,
): MeasuredKernel | null {
  const steady = new Set(spread.steady.filter((id) => !retimed.has(id)));
  const method = st.method();
  let best: { m: MeasuredKernel; d: number } | null = null;
  st.measured.forEach((m, i) => {
    if (!steady.has(m.spec.id) || st.noisy.has(m.spec.id)) return;
    if (chainCopies(m.spec, method) > 1 !== chained) return;
    if (!best || Math.abs(i - at) < best.d) best = { m, d: Math.abs(i - at) };
  });
  return (best as { m: MeasuredKernel } | null)?.m ?? null;
}

/** Re-times one disagreeing kernel between two timings of its reference; false when the budget is spent. */
async function retimeOne(
  st: RunState,
  spread: RoundSpread,
  d: Disagreement,
  retimed: ReadonlySet<string>,
): Promise<boolean> {
  if (d.besideCpus !== undefined) return retimeCrowded(st, d);
  const at = st.measured.findIndex((m) => m.spec.id === d.id);
  const m = st.measured[at] as MeasuredKernel;
  const chained = chainCopies(m.spec, st.method()) > 1;
  const ref = reference(st, spread, at, chained, retimed);
  const before = ref ? await drift(st, ref) : 1;
  const outcome = await budgeted(st, m.spec);
  if (!outcome) return false;
  const after = ref ? await drift(st, ref) : 1;
  const roundsUs = st.roundsUs.get(d.id) ?? [];
  const t = outcome.ok ? judged(st, m.spec, outcome) : null;
  const refDrift = referenceDrift(before, after, spread.threshold);
  const laterUs = t && !t.noisy ? t.summary.medianUs : null;
  const values = laterUs !== null && refDrift !== null ? [...roundsUs, laterUs / refDrift] : roundsUs;
  const ceiling = oneThreadCeiling(st.oneThread.get(kernelKey(m.spec)), spread.threshold);
  const mode = keptMode(values, spread.threshold, chained, ceiling);
  if (outcome.ok && t && laterUs !== null && refDrift !== null) {
    st.store(m.spec, outcome, { ...t.summary, medianUs: mode.us }, true);
    m.medianUs = mode.us;
  }
  (st.retimed as RetimedKernels).retimed.push({
    kernel: d.id,
    roundsUs,
    deviation: d.deviation,
    oneThreadUs: d.oneThreadUs ?? null,
    laterUs,
    reference: ref?.spec.id ?? null,
    referenceDrift: refDrift,
    keptUs: m.medianUs,
    kept: mode.kept,
    settled: mode.settled && laterUs !== null && refDrift !== null,
  });
  st.kernelEvent(m.spec, { status: 'measured', medianUs: m.medianUs });
  return true;
}

/**
 * Re-times a kernel every round of which shared its CPUs with other work: the later timing is kept
 * when nothing crowded it (no reference: the references' rounds may have been crowded too), else
 * the rounds' label stays and the kernel is unsettled.
 */
async function retimeCrowded(st: RunState, d: Disagreement): Promise<boolean> {
  const m = st.measured.find((k) => k.spec.id === d.id) as MeasuredKernel;
  const outcome = await budgeted(st, m.spec);
  if (!outcome) return false;
  const t = outcome.ok ? judged(st, m.spec, outcome) : null;
  const laterUs = t && !t.noisy ? t.summary.medianUs : null;
  const threads = epThreads(st.target.ep) ?? 1;
  const clear = outcome.ok && !crowded(outcome.beside?.othersCpus ?? null, threads, outcome.beside?.cpus ?? threads);
  const roundsUs = st.roundsUs.get(d.id) ?? [];
  const settled = outcome.ok && t !== null && laterUs !== null && clear;
  if (settled) {
    st.store(m.spec, outcome, t.summary, true);
    m.medianUs = laterUs;
  }
  (st.retimed as RetimedKernels).retimed.push({
    kernel: d.id,
    roundsUs,
    deviation: d.deviation,
    oneThreadUs: null,
    besideCpus: d.besideCpus ?? null,
    laterUs,
    reference: null,
    referenceDrift: null,
    keptUs: m.medianUs,
    kept: settled ? [roundsUs.length] : roundsUs.map((_, i) => i),
    settled,
  });
  st.kernelEvent(m.spec, { status: 'measured', medianUs: m.medianUs });
  return true;
}

/** The later pass: every disagreeing kernel, worst first, within the budget. */
export async function retimeDisagreeing(st: RunState): Promise<void> {
  const rounds = [...st.roundsUs].filter(([id]) => !st.noisy.has(id)).map(([id, roundsUs]) => ({ id, roundsUs }));
  const spread = roundSpread(rounds);
  if (!Number.isFinite(spread.threshold)) return;
  st.retimed = { threshold: spread.threshold, drift: spread.drift, kernels: spread.kernels, timings: 0, retimed: [] };
  const specs = new Map(st.measured.map((m) => [m.spec.id, m.spec]));
  const oneThreadUs = (id: string): number | undefined => {
    const spec = specs.get(id);
    return spec ? st.oneThread.get(kernelKey(spec)) : undefined;
  };
  const slower = slowerThanOneThread(
    rounds,
    oneThreadUs,
    spread.threshold,
    new Set(spread.disagreeing.map((d) => d.id)),
  );
  const beside = crowdedKernels(
    rounds,
    (id) => st.besideCpus.get(id),
    epThreads(st.target.ep) ?? 1,
    st.hostCpus ?? 1,
    new Set([...spread.disagreeing, ...slower].map((d) => d.id)),
  );
  st.retimed.crowded = beside.length;
  // Alternated, so that the retry budget, spent worst first, reaches every kind.
  const lists = [spread.disagreeing, slower, beside];
  const all = Array.from({ length: Math.max(...lists.map((l) => l.length)) }, (_, i) =>
    lists.map((l) => l[i]).filter((d): d is Disagreement => d !== undefined),
  ).flat();
  const ids = new Set(all.map((d) => d.id));
  for (const d of all) {
    if (st.aborted() || st.epGone) return;
    if (!(await retimeOne(st, spread, d, ids))) return;
  }
}

const pct = (v: number): string => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(0)}%`;

/** The run's note on the kernels it re-timed: how many, by what rule, and what each kept. */
/** Kernels crowded in every round that the pass could not time clear: their labels read slow where a parallel loop is short (the run's conditions say so). */
export function crowdedLeft(r: RetimedKernels | null): number {
  const clear = r?.retimed.filter((k) => k.besideCpus !== undefined && k.besideCpus !== null && k.settled).length ?? 0;
  return Math.max(0, (r?.crowded ?? 0) - clear);
}

export function retimedNote(r: RetimedKernels | null): string[] {
  if (!r?.retimed.length) return [];
  const each = r.retimed.slice(0, 4).map((k) => {
    const kept = k.settled
      ? `kept ${k.kept.map((i) => (i < k.roundsUs.length ? `round ${i + 1}` : 'the later timing')).join(' and ')}`
      : 'unsettled, kept the median';
    const over = k.oneThreadUs === null ? '' : ` over its ${k.oneThreadUs.toFixed(1)} µs on 1 thread`;
    if (k.besideCpus !== undefined && k.besideCpus !== null) {
      const what = k.settled ? 'kept the later timing' : 'crowded again or failed, kept its rounds';
      return `${k.kernel} beside ${k.besideCpus.toFixed(1)} CPUs of other work (${what}: ${k.keptUs.toFixed(1)} µs)`;
    }
    return `${k.kernel} ${pct(k.deviation)}${over} (${kept}: ${k.keptUs.toFixed(1)} µs)`;
  });
  const more = r.retimed.length > 4 ? `; ... (all in the run's summary, \`retimed\`)` : '';
  if (r.retimed.every((k) => k.besideCpus !== undefined && k.besideCpus !== null))
    return [
      `${count(r.retimed.length, 'kernel')} re-timed in a later pass: every round of ${r.retimed.length === 1 ? 'it' : 'each'} shared its CPUs with other work, where a pool thread waiting for a CPU leaves short loops to one thread: ${each.join('; ')}${more}`,
    ];
  return [
    `${count(r.retimed.length, 'kernel')} re-timed in a later pass beside a steady reference kernel: ${r.retimed.length === 1 ? 'its' : 'their'} rounds disagreed by more than the run's own spread (±${(r.threshold * 100).toFixed(0)}%, from ${count(r.kernels, 'kernel')})${slowerClause(r)}: ${each.join('; ')}${more}`,
  ];
}

/** ", or ran slower than on 1 thread by more" when any kernel was re-timed for that; ", or shared ..." for crowded ones. */
function slowerClause(r: RetimedKernels): string {
  const n = r.retimed.filter((k) => k.oneThreadUs !== null).length;
  const b = r.retimed.filter((k) => k.besideCpus !== undefined && k.besideCpus !== null).length;
  const slower = n
    ? `, or ${n === r.retimed.length ? 'every round' : `for ${count(n, 'kernel')} every round`} ran slower than the same kernel on 1 thread by more than that`
    : '';
  const shared = b
    ? `, or ${b === r.retimed.length ? 'every round' : `for ${count(b, 'kernel')} every round`} shared its CPUs with other work`
    : '';
  return slower + shared;
}
