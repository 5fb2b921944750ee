/**
 * The work of one profile run, fixed before it starts, and how long what is left will take.
 *
 * A run's work items are counted up front: the overhead chains, the calibration rounds, every
 * kernel of the suite in every timing round (refinement's slots included) and a budget of
 * retries for noisy kernels. Items that turn out not to be needed (refinement that added
 * fewer kernels, retries not spent, a failed kernel's later rounds) are counted done when
 * that is known, so the total never changes and progress never goes back.
 *
 * The time left is a cost model: each pending item has an expected cost (a prior from the
 * kernel's size and the stopping rule, or this machine's measured costs of a past run), scaled
 * per kind by what the items finished so far actually took against what they were expected
 * to take. Pure.
 */
import type { KernelSpec } from '../kernels/types.js';
import type { StoppingRule } from './timing-stats.js';
import { count } from '../text/plural.js';

export type WorkKind = 'kernel' | 'overhead' | 'calibration';
const KINDS: readonly WorkKind[] = ['kernel', 'overhead', 'calibration'];

/**
 * How much re-measuring noisy kernels may cost: each noisy kernel is timed again up to
 * `retriesPerKernel` more times after the timing rounds, within `timeShare` of the run's
 * time so far and at most `slotShare` of the kernel timings as extra items.
 */
export interface RetryBudget {
  retriesPerKernel: number;
  timeShare: number;
  slotShare: number;
}

export const RETRY_BUDGET: RetryBudget = { retriesPerKernel: 2, timeShare: 0.25, slotShare: 0.25 };

/** The retry items a run reserves up front for `kernelTimings` timings. */
export function retrySlots(kernelTimings: number, budget: RetryBudget = RETRY_BUDGET): number {
  return Math.ceil(kernelTimings * budget.slotShare);
}

/** The budget in words, for the start line and the report. */
export function describeRetryBudget(slots: number, budget: RetryBudget = RETRY_BUDGET): string {
  return `noisy kernels are timed again later, up to ${count(budget.retriesPerKernel, 'more time')} each, within ${Math.round(budget.timeShare * 100)}% of the run's time (at most ${count(slots, 'retry')})`;
}

/** Whether one more retry fits: slots left and retry time within the share of the rest of the run. */
export function retryAllowed(
  used: { slots: number; retryMs: number },
  slots: number,
  otherMs: number,
  budget: RetryBudget = RETRY_BUDGET,
): boolean {
  return used.slots < slots && used.retryMs <= budget.timeShare * otherMs;
}

/** What a run's items cost on this machine, kept with the run (its summary) for the next estimate. */
export interface MeasuredCosts {
  /** Actual over expected time of the kernel timings. */
  kernelScale: number;
  /** One overhead-chain step (ms). */
  overheadMs: number | null;
  /** One calibration round (ms). */
  calibrationRoundMs: number | null;
}

/** Priors when this machine has no past run: a session, then warm-up and the minimum repetitions. */
const SESSION_MS = 25;
const PRIOR_GFLOPS = 20;
const PRIOR_GBPS = 8;
const PRIOR_KERNEL_FLOOR_US = 5;
export const PRIOR_OVERHEAD_MS = 4000;
export const PRIOR_CALIBRATION_ROUND_MS = 2500;

/** One timing of a kernel as the prior expects it (ms): a session, warm-up and the minimum runs, within the budget. */
export function expectedKernelMs(spec: Pick<KernelSpec, 'flops' | 'bytes'>, rule: StoppingRule): number {
  const runUs = spec.flops / (PRIOR_GFLOPS * 1e3) + spec.bytes / (PRIOR_GBPS * 1e3) + PRIOR_KERNEL_FLOOR_US;
  const runsMs = ((rule.warmupRuns + rule.minRepetitions) * runUs) / 1000;
  const timed = Math.max(rule.minDurationMs ?? 0, Math.min(runsMs, rule.budgetMs * 1.5));
  return SESSION_MS + timed;
}

/** The expected cost of one item of a kind that is not a kernel. */
export function expectedStepMs(kind: Exclude<WorkKind, 'kernel'>, past: MeasuredCosts | null): number {
  if (kind === 'overhead') return past?.overheadMs ?? PRIOR_OVERHEAD_MS;
  return past?.calibrationRoundMs ?? PRIOR_CALIBRATION_ROUND_MS;
}

type PerKind = Record<WorkKind, number>;
const zeros = (): PerKind => ({ kernel: 0, overhead: 0, calibration: 0 });

/**
 * Progress of one run: a fixed total of items, a done count that only grows, and the
 * expected time of what is pending, scaled by what finished items measured.
 */
export class WorkTracker {
  readonly total: number;
  #done = 0;
  #pending = zeros();
  #expectedDone = zeros();
  #actualDone = zeros();
  #actualSteps: Record<WorkKind, number[]> = { kernel: [], overhead: [], calibration: [] };
  readonly #priorScale: number;

  /** `total` items; `past` scales kernels before any finished here. */
  constructor(total: number, past: MeasuredCosts | null = null) {
    this.total = Math.max(0, Math.round(total));
    this.#priorScale = past && Number.isFinite(past.kernelScale) && past.kernelScale > 0 ? past.kernelScale : 1;
  }

  get done(): number {
    return this.#done;
  }

  /** Work expected to come (ms at the prior); does not change the item count. */
  expect(kind: WorkKind, expectedMs: number): void {
    this.#pending[kind] += Math.max(0, expectedMs);
  }

  /** Work no longer expected (its items are skipped or were replaced by others). */
  unexpect(kind: WorkKind, expectedMs: number): void {
    this.#pending[kind] = Math.max(0, this.#pending[kind] - Math.max(0, expectedMs));
  }

  /** One item finished: it took `actualMs` against `expectedMs`. */
  finish(kind: WorkKind, expectedMs: number, actualMs: number): void {
    this.unexpect(kind, expectedMs);
    this.#expectedDone[kind] += Math.max(0, expectedMs);
    this.#actualDone[kind] += Math.max(0, actualMs);
    this.#actualSteps[kind].push(Math.max(0, actualMs));
    this.#advance(1);
  }

  /** `items` reserved items that will not run (unused refinement or retry slots, a failed kernel's rounds). */
  skip(items: number): void {
    this.#advance(items);
  }

  /** All items accounted for (the run ended, or stopped). */
  complete(): void {
    this.#advance(this.total - this.#done);
    this.#pending = zeros();
  }

  #advance(items: number): void {
    this.#done = Math.min(this.total, this.#done + Math.max(0, Math.round(items)));
  }

  /** Actual over expected of a kind so far; kernels fall back on the past run's scale, other kinds on 1. */
  scale(kind: WorkKind): number {
    const expected = this.#expectedDone[kind];
    if (expected > 0) return this.#actualDone[kind] / expected;
    return kind === 'kernel' ? this.#priorScale : 1;
  }

  /** The expected time of what is pending (ms). */
  remainingMs(): number {
    if (this.#done >= this.total) return 0;
    return KINDS.reduce((sum, kind) => sum + this.#pending[kind] * this.scale(kind), 0);
  }

  /** What this run measured, to be kept for the next estimate. */
  costs(): MeasuredCosts {
    const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    return {
      kernelScale: this.scale('kernel'),
      overheadMs: mean(this.#actualSteps.overhead),
      calibrationRoundMs: mean(this.#actualSteps.calibration),
    };
  }
}

/** The measured costs a run's summary carries, or null when it has none (older runs). */
export function costsOf(summary: Record<string, unknown> | null | undefined): MeasuredCosts | null {
  const c = summary?.costs as Partial<MeasuredCosts> | undefined;
  if (!c || typeof c.kernelScale !== 'number' || !(c.kernelScale > 0)) return null;
  const ms = (v: unknown): number | null => (typeof v === 'number' && v >= 0 ? v : null);
  return { kernelScale: c.kernelScale, overheadMs: ms(c.overheadMs), calibrationRoundMs: ms(c.calibrationRoundMs) };
}

/** The items of a run: overhead step, calibration rounds, kernel timings over the rounds, retry slots. */
export interface RunItems {
  overhead: number;
  calibration: number;
  kernelTimings: number;
  retries: number;
  total: number;
}

export function runItems(p: {
  kernels: number;
  refineSlots: number;
  rounds: number;
  overhead: boolean;
  calibrationRounds: number;
}): RunItems {
  const kernelTimings = (p.kernels + p.refineSlots) * Math.max(1, p.rounds);
  const retries = retrySlots(kernelTimings);
  const overhead = p.overhead ? 1 : 0;
  return {
    overhead,
    calibration: p.calibrationRounds,
    kernelTimings,
    retries,
    total: overhead + p.calibrationRounds + kernelTimings + retries,
  };
}

/**
 * The expected time of a run before it starts (ms): the same items and costs the run's own
 * estimate starts from, scaled by this machine's past run when there is one.
 */
export function estimateRunMs(p: {
  kernels: readonly Pick<KernelSpec, 'flops' | 'bytes'>[];
  refineSlots: number;
  rounds: number;
  overhead: boolean;
  calibrationRounds: number;
  rule: StoppingRule;
  past: MeasuredCosts | null;
}): number {
  const one = p.kernels.reduce((sum, k) => sum + expectedKernelMs(k, p.rule), 0);
  const avg = p.kernels.length ? one / p.kernels.length : 0;
  const kernelsMs = (one + avg * p.refineSlots) * Math.max(1, p.rounds) * (p.past?.kernelScale ?? 1);
  return (
    kernelsMs +
    (p.overhead ? expectedStepMs('overhead', p.past) : 0) +
    p.calibrationRounds * expectedStepMs('calibration', p.past)
  );
}
