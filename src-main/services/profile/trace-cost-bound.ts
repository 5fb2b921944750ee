/**
 * The end of a CPU profile run: the ORT trace's per-node cost, read from one chain of tiny nodes
 * in the overhead step, bounded by the lowest reading of a one-node label the run traced
 * (core/profiler/trace-cost.ts). Where the bound is lower, every traced row of the run (kernels
 * and their NCHWc reorders) is stored again with the lower cost taken off, and the run's overhead
 * keeps it, so the calibration models and measure-model read the same figure. No kernel is timed
 * again: the labels are re-made from what was stored.
 */
import {
  boundedTraceNodeUs,
  isWholeTraceReading,
  retracedLabelUs,
  traceReadingUs,
} from '../../core/profiler/trace-cost.js';
import type { TimingSummary } from '../../core/profiler/timing-stats.js';
import type { RunState } from './run-state.js';

/** What the bound did: the chain's figure, the bounded one, and the rows stored again; null where nothing moved. */
export interface TraceCostBound {
  chainUs: number;
  boundedUs: number;
  rows: number;
}

export function boundTraceCost(st: RunState): TraceCostBound | null {
  const o = st.overhead;
  if (!o || o.profilerNodeUs === null || st.aborted()) return null;
  const readings = [
    ...[...st.traced.values()].filter((r) => r.nodes === 1).map((r) => r.summary.medianUs),
    ...st.reorders.storedUs(),
  ]
    .map((us) => traceReadingUs(us, 1, o))
    // A label the later pass scaled by its reference kernel is not a trace reading: only whole or half µs count.
    .filter(isWholeTraceReading);
  const bounded = boundedTraceNodeUs(o.profilerNodeUs, readings);
  if (bounded === null || !(bounded < o.profilerNodeUs)) return null;
  const remake =
    (nodes: number) =>
    (s: TimingSummary): TimingSummary => {
      const re = (us: number): number => retracedLabelUs(us, nodes, o, bounded);
      return { ...s, medianUs: re(s.medianUs), p10Us: re(s.p10Us), p90Us: re(s.p90Us), meanUs: re(s.meanUs) };
    };
  for (const [id, r] of st.traced) {
    const summary = remake(r.nodes)(r.summary);
    st.storeRow(r.spec, summary, r.wall, true);
    st.traced.set(id, { ...r, summary });
  }
  st.reorders.remake(remake(1));
  st.overhead = { ...o, profilerNodeUs: bounded };
  const rows = st.traced.size + st.reorders.count;
  // The chain's figure is read between whole µs (wholeReadingsMedianUs): two decimals, no float tails.
  const us = (v: number): string => String(Number(v.toFixed(2)));
  st.report.notes.push(
    `ORT trace cost per node: the chain read ${us(o.profilerNodeUs)} µs, the run's quickest traced node ${us(bounded)} µs; ${rows} traced labels re-made with ${us(bounded)} µs.`,
  );
  return { chainUs: o.profilerNodeUs, boundedUs: bounded, rows };
}
