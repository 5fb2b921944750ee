/**
 * Calibration with whole models: a few models of public architectures (never the ones
 * accuracy is reported on) are run end to end on each device at the end of its profile,
 * and their executed nodes' measured times (a profiled pass's shares, scaled to the
 * unprofiled end to end) are kept. The ratio measured / predicted per op family then
 * corrects the micro-kernel predictor for what a node pays inside a real graph and not
 * alone (caches warmed by the previous node, the thread pool between nodes, layouts).
 * Ratios are bounded, and a family the calibration models barely exercise keeps 1. Pure.
 */
import type { DeviceFeatures, OpInstance, Predictor } from '../predictor/types.js';

/** One executed node of a calibration model, with what it measured. */
export interface CalibrationNode extends OpInstance {
  measuredUs: number;
}

export interface CalibrationRun {
  model: string;
  /** Unprofiled end to end, µs. */
  endToEndUs: number;
  nodes: CalibrationNode[];
}

/** Ratios are kept inside these bounds: a calibration is a correction, not a new predictor. */
export const RATIO_BOUNDS = { min: 0.5, max: 2.5 } as const;

/** A family needs this share of the calibration models' measured time to get a ratio of its own. */
export const MIN_FAMILY_SHARE = 0.02;

/** measured / predicted per op family over the calibration nodes; families not listed keep 1. */
export function familyRatios(
  runs: readonly CalibrationRun[],
  predictor: Predictor,
  device: DeviceFeatures,
): Record<string, number> {
  const nodes = runs.flatMap((r) => r.nodes);
  if (!nodes.length) return {};
  const predicted = predictor.predict(nodes.map((n) => ({ ...n, device })));
  const sums = new Map<string, { measured: number; predicted: number }>();
  nodes.forEach((n, i) => {
    const s = sums.get(n.family) ?? { measured: 0, predicted: 0 };
    s.measured += n.measuredUs;
    s.predicted += predicted[i]?.timeUs ?? 0;
    sums.set(n.family, s);
  });
  const total = [...sums.values()].reduce((a, s) => a + s.measured, 0);
  const out: Record<string, number> = {};
  for (const [family, s] of sums) {
    if (s.predicted <= 0 || s.measured < MIN_FAMILY_SHARE * total) continue;
    out[family] = Math.min(RATIO_BOUNDS.max, Math.max(RATIO_BOUNDS.min, s.measured / s.predicted));
  }
  return out;
}
