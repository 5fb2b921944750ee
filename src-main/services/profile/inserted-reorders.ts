/**
 * The NCHWc reorders ORT inserts around a lone conv or pool, kept as measurements of their
 * own (core/kernels/reorders.ts): a kernel's label leaves them out (kernel-timing.ts
 * INSERTED_OPS), and a real graph runs them wherever its layout changes, so their trace
 * times, which every traced NCHWc kernel brings along, are what the reorders of a real
 * graph are priced from. Labelled as kernels are: the node's trace time less the
 * ORT trace's per-node cost, plus the executor's per-node cost; a reorder met in several
 * kernels or rounds keeps its lowest median, as a traced kernel does over rounds.
 */
import { reorderKernels } from '../../core/kernels/reorders.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import { tracedLabelUs, type RunOverhead } from '../../core/profiler/overhead.js';
import { isNoisy, summarize, type StoppingRule, type TimingSummary } from '../../core/profiler/timing-stats.js';
import type { RunOutcome } from '../../adapters/ort/protocol.js';

export interface ReorderTiming {
  spec: KernelSpec;
  summary: TimingSummary;
}

const REORDER_OPS = ['ReorderInput', 'ReorderOutput'] as const;

/** The reorders one traced kernel run brought along, each with its own per-run times; none for chained or self-timed runs. */
export function reorderTimings(
  spec: KernelSpec,
  outcome: Extract<RunOutcome, { ok: true }>,
  overhead: RunOverhead | null,
  rule: StoppingRule,
): ReorderTiming[] {
  if (outcome.timedBy || outcome.chained) return [];
  const kernels = reorderKernels(spec);
  if (!kernels) return [];
  return REORDER_OPS.flatMap((op) => {
    const runs = outcome.byOpUs[op];
    if (!runs || !runs.some((v) => v > 0)) return [];
    const summary = summarize(runs.map((v) => tracedLabelUs(v, 1, overhead)));
    return isNoisy(summary, rule) ? [] : [{ spec: kernels[op], summary }];
  });
}

/**
 * This run's reorder labels: the first sighting is stored unless an earlier run stored that
 * reorder already (left alone, as stored kernels are), a lower median later replaces it.
 */
export class ReorderLabels {
  /** id -> the timing stored by this run; null: stored by an earlier run. */
  private readonly labels = new Map<string, ReorderTiming | null>();

  constructor(
    private readonly storedBefore: (k: KernelSpec) => boolean,
    private readonly store: (t: ReorderTiming, replace: boolean) => void,
  ) {}

  /** Reorders this run has stored. */
  get count(): number {
    return [...this.labels.values()].filter((v) => v !== null).length;
  }

  /** The medians this run stored (µs). */
  storedUs(): number[] {
    return [...this.labels.values()].flatMap((t) => (t ? [t.summary.medianUs] : []));
  }

  /** Every reorder this run stored, stored again with its timing re-made by `remake`. */
  remake(remake: (s: TimingSummary) => TimingSummary): void {
    for (const [id, t] of this.labels) {
      if (!t) continue;
      const again = { spec: t.spec, summary: remake(t.summary) };
      this.store(again, true);
      this.labels.set(id, again);
    }
  }

  add(timings: readonly ReorderTiming[]): void {
    for (const t of timings) {
      const id = t.spec.id;
      if (!this.labels.has(id)) {
        if (this.storedBefore(t.spec)) {
          this.labels.set(id, null);
          continue;
        }
        this.store(t, false);
        this.labels.set(id, t);
        continue;
      }
      const stored = this.labels.get(id);
      if (!stored || t.summary.medianUs >= stored.summary.medianUs) continue;
      this.store(t, true);
      this.labels.set(id, t);
    }
  }
}
