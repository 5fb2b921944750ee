/**
 * Calibration with whole models: a few models of public architectures (never the ones
 * accuracy is reported on) are run end to end on each device at the end of its profile,
 * and their executed nodes' measured times (an ORT-traced pass's, less the ORT trace's cost and
 * scaled down to the untraced end to end where they exceed it) are kept. The ratio
 * measured / predicted per op family then corrects the micro-kernel predictor for what a node pays inside a real graph and not
 * alone (caches warmed by the previous node, the thread pool between nodes, layouts).
 * Ratios are bounded; a family the calibration models barely exercise keeps 1, and so does one
 * whose ratio does not carry from some calibration models to another. Pure.
 */
import type { DeviceFeatures, OpInstance, Predictor } from '../predictor/types.js';

/** One executed node of a calibration model, with what it measured. */
export interface CalibrationNode extends OpInstance {
  measuredUs: number;
}

export interface CalibrationRun {
  model: string;
  /** Untraced end to end (the ORT trace off), µs. */
  endToEndUs: number;
  nodes: CalibrationNode[];
}

/** Ratios are kept inside these bounds: a calibration is a correction, not a new predictor. */
export const RATIO_BOUNDS = { min: 0.5, max: 2.5 } as const;

/** A family needs this share of the calibration models' measured time to get a ratio of its own. */
const MIN_FAMILY_SHARE = 0.02;

/**
 * measured / predicted per op family over the calibration nodes; families not listed keep 1.
 * A family two or more calibration models exercise keeps its ratio only where it generalizes:
 * taken from all models but one, it must bring the one left out closer to what it measured
 * than no ratio does, summed over the models (heldOutHelps). On the 2-vCPU Zen 4 guest the
 * conv ratio did not: at 2 threads resnet-blocks' convs ran x0.79 of their prediction and
 * mobilenet-blocks' x1.01, so a ratio from either side moved the other one further off.
 */
export function familyRatios(
  runs: readonly CalibrationRun[],
  predictor: Predictor,
  device: DeviceFeatures,
): Record<string, number> {
  const nodes = runs.flatMap((r) => r.nodes);
  if (!nodes.length) return {};
  const predicted = predictor.predict(nodes.map((n) => ({ ...n, device })));
  const predictedUs = new Map(nodes.map((n, i) => [n, predicted[i]?.timeUs ?? 0]));
  const perModel = runs.map((r) => familySums(r.nodes, (n) => predictedUs.get(n) ?? 0));
  const total = perModel.reduce((a, m) => a + [...m.values()].reduce((b, s) => b + s.measured, 0), 0);
  const out: Record<string, number> = {};
  for (const family of new Set(nodes.map((n) => n.family))) {
    const sums = perModel.flatMap((m) => m.get(family) ?? []);
    const all = sums.reduce(add, ZERO);
    if (all.predicted <= 0 || all.measured < MIN_FAMILY_SHARE * total) continue;
    if (!heldOutHelps(perModel.flatMap((m) => exercised(m, family)))) continue;
    out[family] = ratioOf(all);
  }
  return out;
}

interface Sums {
  measured: number;
  predicted: number;
}

const ZERO: Sums = { measured: 0, predicted: 0 };
const add = (a: Sums, b: Sums): Sums => ({ measured: a.measured + b.measured, predicted: a.predicted + b.predicted });
const ratioOf = (s: Sums): number => Math.min(RATIO_BOUNDS.max, Math.max(RATIO_BOUNDS.min, s.measured / s.predicted));

function familySums(nodes: readonly CalibrationNode[], predictedUs: (n: CalibrationNode) => number): Map<string, Sums> {
  const sums = new Map<string, Sums>();
  for (const n of nodes)
    sums.set(n.family, add(sums.get(n.family) ?? ZERO, { measured: n.measuredUs, predicted: predictedUs(n) }));
  return sums;
}

/** A model's sums of a family, when the family is at least MIN_FAMILY_SHARE of the model's measured time. */
function exercised(model: Map<string, Sums>, family: string): Sums[] {
  const s = model.get(family);
  const total = [...model.values()].reduce((a, v) => a + v.measured, 0);
  return s && s.predicted > 0 && s.measured > 0 && s.measured >= MIN_FAMILY_SHARE * total ? [s] : [];
}

/**
 * Leave one model out: the ratio of the others, applied to the model left out, against no
 * ratio, by |log(measured / predicted)| summed over the models. True with fewer than two
 * models (nothing to hold out: the ratio is kept, as before this check).
 */
export function heldOutHelps(models: readonly Sums[]): boolean {
  if (models.length < 2) return true;
  let withRatio = 0;
  let without = 0;
  models.forEach((m, i) => {
    const rest = models.filter((_, j) => j !== i).reduce(add, ZERO);
    withRatio += Math.abs(Math.log(m.measured / (m.predicted * ratioOf(rest))));
    without += Math.abs(Math.log(m.measured / m.predicted));
  });
  return withRatio < without;
}
