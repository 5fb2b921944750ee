/**
 * The ORT trace's cost per node, bounded by the run's quickest traced nodes (issue 62, item 3).
 *
 * A traced kernel's label is its trace reading less what the trace adds to a node
 * (`profilerNodeUs`, tracedLabelUs in overhead.ts). That cost is read once per run, as the median
 * trace time of a chain of tiny nodes, and ORT writes trace times in whole microseconds: the
 * median is a whole number that flips when the readings sit between two. Two back-to-back quick
 * profiles of one Zen 4 (bench:prediction run n, 2026-11-30) read it as 2 µs and 3 µs at one
 * thread, while the quickest kernels both runs traced read the same (24 kernels at 2 µs, 16 at 3,
 * in each). The 1 µs moved every traced label of the second run, 69 of them onto the 10% floor,
 * and PaddleOCR cls (about 250 executed nodes) came out 10.1% faster from the second profile.
 *
 * Every traced node's reading holds the trace's cost, so that cost is at most the lowest
 * reading of a one-node label the run traced: the bound reads the run's own kernels, not one
 * chain, and a slow phase during the chain's pass cannot raise it.
 *
 * The bound only lowers the figure. The chain's readings flipped upwards too: run w of
 * bench:prediction (Zen 4, 2026-11-30) read 3 µs at two threads in its first profile and 4 µs in
 * its second, while the quickest one-node kernels read 4 µs in both (and in both profiles of run
 * v, whose chains read 3); every traced 2-thread label of the second run lost 1 µs and PaddleOCR
 * cls came out 12.1% faster (bench/runs/h71-agree2.md). The chain's figure is therefore read
 * between the integers (wholeReadingsMedianUs): readings split between 3 and 4 give a figure
 * between them that moves with the split, not a whole microsecond that flips. Pure.
 */
import { tracedLabelUs, type RunOverhead } from './overhead.js';

type TraceOverhead = Pick<RunOverhead, 'nodeUs' | 'profilerNodeUs'>;

/** Trace readings grouped by value, ascending: how many read each (µs). What a run keeps of its chain. */
export type TraceReadings = { us: number; count: number }[];

/** The readings grouped by value (finite ones only), ascending. */
export function groupReadings(readingsUs: readonly number[]): TraceReadings {
  const counts = new Map<number, number>();
  for (const v of readingsUs) if (Number.isFinite(v)) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0] - b[0]).map(([us, count]) => ({ us, count }));
}

/**
 * The median of whole-microsecond trace readings read between the integers (µs): each reading k
 * stands for the interval [k - 1/2, k + 1/2), and the median is placed inside the interval that
 * holds the middle reading by the share of readings below it (the median of grouped data). Where
 * every reading is the same k it is k, as the plain median; half at 3 and half at 4 give 3.5 (the
 * plain median flips between 3 and 4 there). Readings that are not all whole: their plain median.
 * Null for none. Reads the readings grouped (groupReadings), as a run keeps them.
 */
export function wholeReadingsMedianUs(readings: TraceReadings): number | null {
  const groups = readings.filter((g) => Number.isFinite(g.us) && g.count > 0).sort((a, b) => a.us - b.us);
  const n = groups.reduce((a, g) => a + g.count, 0);
  if (!n) return null;
  /** The reading at a 0-based position of the sorted readings. */
  const at = (i: number): number => {
    let seen = 0;
    for (const g of groups) if ((seen += g.count) > i) return g.us;
    return groups[groups.length - 1]?.us ?? Number.NaN;
  };
  if (!groups.every((g) => Number.isInteger(g.us))) return (at(Math.floor((n - 1) / 2)) + at(Math.floor(n / 2))) / 2;
  // The interval of the middle reading: the first value with at least half the readings at or below it.
  let below = 0;
  for (const g of groups) {
    if (below + g.count >= n / 2) return g.us - 0.5 + (n / 2 - below) / g.count;
    below += g.count;
  }
  return null;
}

/**
 * The trace reading (µs) behind a traced label of `nodes` nodes: tracedLabelUs undone. The label
 * kept max(t - p * nodes, t / 10) + nodeUs * nodes; the floor held where 9 * (label less the
 * per-node cost) < p * nodes.
 */
export function traceReadingUs(labelUs: number, nodes: number, o: TraceOverhead): number {
  const v = labelUs - o.nodeUs * nodes;
  const p = o.profilerNodeUs;
  if (p === null || nodes <= 0) return v;
  return 9 * v < p * nodes ? v * 10 : v + p * nodes;
}

/**
 * Whether a reading can be a median of ORT trace times: whole microseconds, or halfway between
 * two (the mean of the middle two of an even count). A chained or self-timed label is a
 * difference of wall-clock medians and is not, beyond rounding.
 */
export function isWholeTraceReading(readingUs: number): boolean {
  const twice = readingUs * 2;
  return readingUs > 0 && Math.abs(twice - Math.round(twice)) < 1e-6;
}

/**
 * The trace's cost per node, no more than the lowest one-node reading of the run (µs); the
 * chain's figure where no reading is lower, or where there is none; null stays null.
 */
export function boundedTraceNodeUs(chainUs: number | null, oneNodeReadingsUs: readonly number[]): number | null {
  if (chainUs === null) return null;
  const lowest = Math.min(...oneNodeReadingsUs.filter((v) => Number.isFinite(v) && v > 0));
  return Number.isFinite(lowest) ? Math.min(chainUs, lowest) : chainUs;
}

/** A traced label re-made with the trace cost `toUs` in place of the one it was made with. */
export function retracedLabelUs(labelUs: number, nodes: number, from: TraceOverhead, toUs: number | null): number {
  return tracedLabelUs(traceReadingUs(labelUs, nodes, from), nodes, { nodeUs: from.nodeUs, profilerNodeUs: toUs });
}
