/**
 * Rounds that disagree (issue 62): which kernels' timing rounds differ by more than the run's
 * own kernels show between the same rounds, and which value a later re-timing keeps. Pure.
 *
 * The rule: for each round after the first, a kernel's ratio to its first round, on a log
 * scale, less the run's drift (the median of that ratio over every kernel: the machine as a
 * whole running faster or slower in that round). A kernel disagrees when that deviation is
 * beyond max(FLOOR, DEVIATIONS robust standard deviations of the run's ratios): the spread the
 * rest of the run shows between the same rounds, not a fixed figure. The worst are re-timed
 * first, at most SHARE of the run's kernels.
 *
 * The mode: the later timing, divided by the drift of reference kernels (kernels whose rounds
 * agreed, timed before and after it; referenceDrift), joins the rounds; the largest cluster of values within the
 * threshold of one of them is kept (its mean for a chained label, its lower value for a traced
 * one, as rounds combine), and a kernel whose values form no cluster of two is unsettled.
 *
 * The same kernel on one thread (a CPU run at more threads, where this machine's 1-thread run of
 * it is stored) bounds it too: more threads never need more than the run's spread over the
 * 1-thread label, so a kernel whose every round is slower is re-timed, and a value above that
 * ceiling is a mode the rest of the run does not support (a pool thread the OS took away); it is
 * left out wherever a value under the ceiling is there to keep. Kernels under FEWER_THREADS.minUs
 * on one thread are not bounded: there a pool's wake-up is a real cost of several µs.
 */
import { crowded } from './run-conditions.js';
import { median } from './timing-stats.js';

const ROUND_AGREEMENT = {
  /** Never flag a deviation under 5%: below what a 2% stopping rule can tell apart over two rounds. */
  floor: 0.05,
  /** Robust standard deviations (1.4826 x the MAD) of the run's own round ratios. */
  deviations: 3,
  /** At most this share of the run's kernels is re-timed. */
  share: 0.1,
  /** Fewer kernels with clean rounds than this: the run's spread is not known, nothing is flagged. */
  minKernels: 8,
} as const;

/** One kernel's clean round labels (µs), in round order. */
export interface KernelRounds {
  id: string;
  roundsUs: readonly number[];
}

export interface Disagreement {
  id: string;
  /** The largest drift-corrected deviation of a round from the first (fraction, signed); for a kernel slower than on one thread, its fastest round over its 1-thread label, less 1. */
  deviation: number;
  /** Set when the kernel is re-timed for being slower than the same kernel on one thread: that label (µs). */
  oneThreadUs?: number;
  /** Set when every round of it shared its CPUs with other work: the least other work beside a round (CPUs). */
  besideCpus?: number;
}

/** A kernel on one thread under this many µs bounds nothing: a pool's wake-up is a real cost there. */
const FEWER_THREADS = { minUs: 10 } as const;

/** The ceiling a kernel's values at more threads may not pass: its 1-thread label plus the run's spread. */
export const oneThreadCeiling = (oneThreadUs: number | undefined, threshold: number): number | undefined =>
  oneThreadUs !== undefined && oneThreadUs >= FEWER_THREADS.minUs && Number.isFinite(threshold)
    ? oneThreadUs * (1 + threshold)
    : undefined;

/**
 * Kernels whose every round ran slower than the same kernel on one thread by more than the run's
 * spread (`threshold`, a fraction), worst first; those `exclude` names (already re-timed) are left out.
 */
export function slowerThanOneThread(
  kernels: readonly KernelRounds[],
  oneThreadUs: (id: string) => number | undefined,
  threshold: number,
  exclude: ReadonlySet<string> = new Set(),
): Disagreement[] {
  return kernels
    .flatMap((k) => {
      const one = oneThreadUs(k.id);
      const ceiling = oneThreadCeiling(one, threshold);
      const fastest = Math.min(...k.roundsUs);
      return ceiling !== undefined && one !== undefined && k.roundsUs.length && fastest > ceiling && !exclude.has(k.id)
        ? [{ id: k.id, deviation: fastest / one - 1, oneThreadUs: one }]
        : [];
    })
    .sort((a, b) => b.deviation - a.deviation);
}

/**
 * Kernels every round of which shared its CPUs with other work (run-conditions.ts crowded): a pool
 * thread that waits for a CPU leaves a short parallel loop to the calling thread, so such a kernel
 * reads no faster at 2 threads than at 1 while long GEMMs still split (issue 62). `besideOf` gives
 * each round's other work (CPUs; null: not read), in round order. Most crowded first; those
 * `exclude` names (already re-timed) are left out.
 */
export function crowdedKernels(
  kernels: readonly KernelRounds[],
  besideOf: (id: string) => readonly (number | null)[] | undefined,
  threads: number,
  cpus: number,
  exclude: ReadonlySet<string> = new Set(),
): Disagreement[] {
  return kernels
    .flatMap((k) => {
      const rounds = besideOf(k.id) ?? [];
      const all = rounds.length > 0 && rounds.every((b) => crowded(b, threads, cpus));
      return all && !exclude.has(k.id)
        ? [{ id: k.id, deviation: 0, besideCpus: Math.min(...(rounds as number[])) }]
        : [];
    })
    .sort((a, b) => b.besideCpus - a.besideCpus);
}

export interface RoundSpread {
  /** The run's drift per round after the first (fraction: 0.1 = the round ran 10% slower). */
  drift: number[];
  /** The deviation beyond which rounds disagree (fraction). */
  threshold: number;
  /** Kernels with clean rounds the spread was read from. */
  kernels: number;
  /** Worst first, at most `share` of the kernels. */
  disagreeing: Disagreement[];
  /** Kernels whose rounds agreed within the middle half of the run's deviations: the references. */
  steady: string[];
}

const MAD_TO_SD = 1.4826;

/** Which kernels' rounds disagree beyond the run's own spread (see the module's rule). */
export function roundSpread(kernels: readonly KernelRounds[], rule = ROUND_AGREEMENT): RoundSpread {
  const rounds = Math.max(0, ...kernels.map((k) => k.roundsUs.length));
  const full = kernels.filter((k) => k.roundsUs.length === rounds && k.roundsUs.every((v) => v > 0));
  if (rounds < 2 || full.length < rule.minKernels)
    return { drift: [], threshold: Number.POSITIVE_INFINITY, kernels: full.length, disagreeing: [], steady: [] };
  const logs = full.map((k) => k.roundsUs.slice(1).map((v) => Math.log(v / (k.roundsUs[0] as number))));
  const drift = Array.from({ length: rounds - 1 }, (_, r) => median(logs.map((l) => l[r] as number)));
  const dev = logs.map((l) => l.map((v, r) => v - (drift[r] as number)));
  const worst = dev.map((d) => d.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0));
  const mad = median(worst.map(Math.abs));
  const threshold = Math.max(Math.log1p(rule.floor), rule.deviations * MAD_TO_SD * mad);
  const disagreeing = full
    .map((k, i) => ({ id: k.id, log: worst[i] as number }))
    .filter((d) => Math.abs(d.log) > threshold)
    .sort((a, b) => Math.abs(b.log) - Math.abs(a.log))
    .slice(0, Math.max(1, Math.floor(full.length * rule.share)))
    .map((d) => ({ id: d.id, deviation: Math.expm1(d.log) }));
  const steady = full.filter((_, i) => Math.abs(worst[i] as number) <= mad).map((k) => k.id);
  return { drift: drift.map(Math.expm1), threshold: Math.expm1(threshold), kernels: full.length, disagreeing, steady };
}

/**
 * The machine's drift around a later timing (1.2: it ran 20% slower than in the rounds), from a
 * reference's timings before and after it, each over the reference's label; null when either is
 * missing. A reading faster than the label by more than the run's spread (`threshold`) says the
 * reference's rounds agreed in a slow mode of its own (at 2 threads a pool thread the OS took away,
 * in both rounds): a slow phase only ever slows a kernel down, so that is its label moving, not the
 * machine, and the reading counts as 1. Dividing by it would carry the reference's slow mode into
 * the kernel re-timed (on the Zen 4 guest a reference read x0.46 and a conv's later 36.8 µs became
 * 80.8, siding with its slow round, 93.4, over its fast one, 37.8).
 */
export function referenceDrift(before: number | null, after: number | null, threshold: number): number | null {
  if (before === null || after === null) return null;
  const machine = (reading: number): number => (reading * (1 + threshold) < 1 ? 1 : reading);
  return Math.sqrt(machine(before) * machine(after));
}

export interface KeptMode {
  /** The label kept (µs). */
  us: number;
  /** Indexes into the values (the rounds, then the later timing) of the cluster kept; all of them when unsettled. */
  kept: number[];
  settled: boolean;
}

/**
 * The mode of a kernel's values (its rounds and its drift-corrected later timing): the largest
 * cluster of values within `threshold` (fraction) of one of them, its centre, ties to the faster cluster. Chained labels
 * average the cluster, traced ones keep its lower value (a slow phase only slows a kernel down).
 * No two values within the threshold: unsettled, the median of them all. With a `ceilingUs`
 * (oneThreadCeiling), values above it are left out when any value is under it; one value left is kept.
 */
export function keptMode(values: readonly number[], threshold: number, chained: boolean, ceilingUs?: number): KeptMode {
  const under = ceilingUs === undefined ? [] : values.flatMap((v, i) => (v <= ceilingUs ? [i] : []));
  if (under.length && under.length < values.length) {
    const sub = keptMode(
      under.map((i) => values[i] as number),
      threshold,
      chained,
    );
    const single = under.length === 1;
    return { us: sub.us, kept: sub.kept.map((j) => under[j] as number), settled: sub.settled || single };
  }
  const limit = Math.log1p(threshold);
  let best: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const centre = values[i] as number;
    const around = values.flatMap((v, j) => (Math.abs(Math.log(v / centre)) <= limit ? [j] : []));
    const sum = (c: number[]): number => c.reduce((a, j) => a + (values[j] as number), 0) / c.length;
    if (around.length > best.length || (around.length === best.length && sum(around) < sum(best))) best = around;
  }
  if (best.length < 2) return { us: median(values), kept: values.map((_, i) => i), settled: false };
  const vals = best.map((j) => values[j] as number);
  const us = chained ? vals.reduce((a, b) => a + b, 0) / vals.length : Math.min(...vals);
  return { us, kept: best, settled: true };
}
