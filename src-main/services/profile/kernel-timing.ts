/**
 * How one kernel's outcome becomes its label: traced (the node the kernel is about, from the ORT
 * trace), chained (differences of chained and single runs) or timed by the runner itself
 * (PyTorch), and how many copies a kernel is timed with.
 */
import type { KernelSpec } from '../../core/kernels/types.js';
import { kernelChainable } from '../../core/kernels/build.js';
import { CHAIN_COPIES } from '../../core/kernels/chain.js';
import { isNoisy, median, summarize, type StoppingRule, type TimingSummary } from '../../core/profiler/timing-stats.js';
import { differencedCopies, type TimingMethod } from '../../core/profiler/gpu-timing.js';
import { tracedLabelUs, type RunOverhead } from '../../core/profiler/overhead.js';
import type { RunOutcome } from '../../adapters/ort/protocol.js';

/**
 * Nodes ORT inserts around a lone kernel that a real graph mostly does not pay: layout
 * reorders around an NCHWc conv or pool (consecutive NCHWc nodes share one layout), and
 * host-device copies of the feeds and outputs.
 */
const INSERTED_OPS: ReadonlySet<string> = new Set(['ReorderInput', 'ReorderOutput', 'MemcpyFromHost', 'MemcpyToHost']);

/**
 * Per run: the kernel time of the nodes the kernel is about (inserted nodes left out), as
 * tracedLabelUs makes a label of it: what the node adds to an untraced run of a real graph.
 */
function ownNodeUs(outcome: Extract<RunOutcome, { ok: true }>, overhead: RunOverhead | null): number[] {
  const inserted = Object.entries(outcome.byOpUs).filter(([op]) => INSERTED_OPS.has(op));
  const own = Object.values(outcome.nodeOps).filter((op) => !INSERTED_OPS.has(op)).length;
  return outcome.kernelUs.map((total, run) =>
    tracedLabelUs(total - inserted.reduce((a, [, v]) => a + (v[run] ?? 0), 0), own, overhead),
  );
}

/**
 * The nodes a traced label of this outcome holds (what tracedLabelUs took the trace's cost off
 * for); null where the label is not traced: chained, timed by the runner, a copy's Memcpy
 * time, or the wall time where ORT reported no kernel time.
 */
export function tracedNodes(spec: KernelSpec, outcome: Extract<RunOutcome, { ok: true }>): number | null {
  if (outcome.timedBy || outcome.chained || spec.family === 'copy') return null;
  if (!ownNodeUs(outcome, null).some((v) => v > 0)) return null;
  return Object.values(outcome.nodeOps).filter((op) => !INSERTED_OPS.has(op)).length;
}

/** A kernel's label with its spread, and whether the machine let it be pinned down. */
export interface KernelTiming {
  summary: TimingSummary;
  noisy: boolean;
  note?: string;
}

/** Smallest label a chained timing gives (µs): a difference of two noisy medians can reach 0. */
const MIN_CHAINED_US = 0.05;

/**
 * The label of one outcome. Chained: the median over run pairs of (chain - single) /
 * (copies - 1), noisy when either median is or when that difference is not positive. Traced: the node the kernel is about, without the reorders and
 * copies ORT inserts around it (copy kernels: the Memcpy nodes alone).
 */
export function kernelTiming(
  spec: KernelSpec,
  outcome: Extract<RunOutcome, { ok: true }>,
  overhead: RunOverhead | null,
  rule: StoppingRule,
): KernelTiming {
  if (outcome.timedBy) {
    // The runner timed the kernel itself (PyTorch: CUDA events or the wall clock per call).
    const summary = summarize(outcome.kernelUs);
    return { summary, noisy: isNoisy(summary, rule) };
  }
  if (outcome.chained) {
    const { singleUs, chainUs } = outcome.chained;
    const one = summarize(singleUs);
    const chain = summarize(chainUs);
    const diffs = summarize(outcome.kernelUs.map((v) => Math.max(v, MIN_CHAINED_US)));
    // The median of the paired differences (each chain run against the single run next to
    // it): a slow phase of the machine hits both runs of a pair, so it cancels, where a
    // difference of the two medians can land on either side of a two-mode distribution.
    const paired = median(outcome.kernelUs);
    const medianUs = Math.max(paired, MIN_CHAINED_US);
    return {
      summary: { ...diffs, medianUs, ciHalfWidth: Math.max(one.ciHalfWidth, chain.ciHalfWidth) },
      noisy: isNoisy(one, rule) || isNoisy(chain, rule) || !(paired > 0),
    };
  }
  let samples = ownNodeUs(outcome, overhead);
  let note: string | undefined;
  if (spec.family === 'copy') {
    const memcpy = outcome.byOpUs[spec.op === 'CopyH2D' ? 'MemcpyFromHost' : 'MemcpyToHost'];
    if (memcpy && memcpy.some((v) => v > 0)) samples = memcpy;
  } else if (!samples.some((v) => v > 0)) {
    samples = outcome.wallUs;
    note = `${spec.id}: ORT reported no kernel time; wall time stored`;
  }
  const summary = summarize(samples);
  return { summary, noisy: isNoisy(summary, rule), ...(note ? { note } : {}) };
}

/**
 * Kernels this small are timed chained: the per-run cost and the ORT trace's per-node cost
 * are a large part of their time. Bigger kernels are timed from the trace, where those
 * costs are a few percent (and a chain of them would take most of the time budget).
 */
const CHAIN_MAX_FLOPS = 2e7;
const CHAIN_MAX_BYTES = 4 * 2 ** 20;

/**
 * Copies to time a kernel with. On the CPU: CHAIN_COPIES for small kernels whose output can
 * feed them again, else 1 (traced). Differenced (accelerators): every kernel but the copies.
 */
export function chainCopies(spec: KernelSpec, method: TimingMethod = 'cpu'): number {
  if (method === 'differenced') return differencedCopies(spec);
  if (method === 'direct') return 1;
  const small = spec.flops <= CHAIN_MAX_FLOPS && spec.bytes <= CHAIN_MAX_BYTES;
  return small && spec.family !== 'copy' && kernelChainable(spec) ? CHAIN_COPIES : 1;
}
