/**
 * Views of an evaluation report: the per-protocol table, the scatter of one protocol and
 * the errors by op family. Metrics are in percent; NaN metrics arrive as null over JSON. Pure.
 */
import type { EvaluationView } from '../../../src-main/api/view-models.js';

type Report = EvaluationView['report'];
type ProtocolReport = Report['protocols'][number];
type Summary = ProtocolReport['byPredictor'][string];
export type Metrics = Summary['overall'];
export type ScatterRow = Report['scatter'][number];

export interface EvalRow {
  protocol: string;
  folds: number;
  predictor: string;
  above100us: Metrics;
  overall: Metrics;
  /** Lowest MAPE on ops ≥ 100 µs within the protocol. */
  best: boolean;
}

/** A metric that may have been NaN (null after JSON). */
export function metric(v: number | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function predictorsOf(report: Report): string[] {
  const names = new Set<string>();
  for (const p of report.protocols) for (const n of Object.keys(p.byPredictor)) names.add(n);
  return [...names];
}

export function evalRows(report: Report): EvalRow[] {
  const rows: EvalRow[] = [];
  for (const p of report.protocols) {
    const entries = Object.entries(p.byPredictor);
    let best: string | null = null;
    let bestMape = Infinity;
    for (const [name, s] of entries) {
      const m = metric(s.above100us.mape);
      if (m !== null && s.above100us.count > 0 && m < bestMape) {
        bestMape = m;
        best = name;
      }
    }
    for (const [name, s] of entries) {
      rows.push({
        protocol: p.name,
        folds: p.folds,
        predictor: name,
        above100us: s.above100us,
        overall: s.overall,
        best: name === best,
      });
    }
  }
  return rows;
}

/** A scatter point with its device named for people (the report's `device` is the training id). */
export type ScatterPoint = ScatterRow & { deviceLabel: string };

/**
 * The points of one protocol (and predictors) a log chart can show, each named by its
 * device's label from the evaluation's `deviceLabels`; a device without one keeps its id.
 */
export function scatterOf(
  report: Report,
  protocol: string,
  predictors?: readonly string[],
  labels: Readonly<Record<string, string>> = {},
): ScatterPoint[] {
  return report.scatter
    .filter(
      (r) =>
        r.protocol === protocol &&
        (!predictors || predictors.includes(r.predictor)) &&
        r.actualUs > 0 &&
        r.predictedUs > 0 &&
        Number.isFinite(r.actualUs + r.predictedUs),
    )
    .map((r) => ({ ...r, deviceLabel: labels[r.device] ?? r.device }));
}

/** Share of rows whose prediction is within ±`band` (fraction) of the measured time. */
export function withinBand(rows: readonly ScatterRow[], band = 0.1): number | null {
  if (rows.length === 0) return null;
  const n = rows.filter((r) => Math.abs(r.predictedUs - r.actualUs) <= band * r.actualUs).length;
  return n / rows.length;
}

export interface FamilyErrors {
  family: string;
  /** Median APE (%) per predictor, null where undefined. */
  byPredictor: Record<string, number | null>;
  count: number;
}

export function familyErrors(report: Report, protocol: string): FamilyErrors[] {
  const p = report.protocols.find((x) => x.name === protocol);
  if (!p) return [];
  const families = new Map<string, FamilyErrors>();
  for (const [name, s] of Object.entries(p.byPredictor)) {
    for (const [family, m] of Object.entries(s.byFamily)) {
      const f = families.get(family) ?? { family, byPredictor: {}, count: 0 };
      f.byPredictor[name] = metric(m.medianApe);
      f.count = Math.max(f.count, m.count);
      families.set(family, f);
    }
  }
  return [...families.values()].sort((a, b) => a.family.localeCompare(b.family));
}
