/**
 * Adds a predictor evaluated elsewhere (e.g. scikit-learn's forest on the folds from
 * `foldsFor`) to a report, with the same aggregates. Its predictions must cover every
 * test sample of every fold of each protocol it is given for, exactly once. Pure.
 */
import type { Sample } from '../types.js';
import { capScatter, summarise } from './aggregate.js';
import { sampleAt } from './groups.js';
import { foldsFor } from './protocols.js';
import type { EvaluationReport, ExternalPrediction, ProtocolReport, ScatterRow } from './types.js';

function rowsForProtocol(
  samples: readonly Sample[],
  report: EvaluationReport,
  protocol: ProtocolReport,
  predictor: string,
  given: readonly ExternalPrediction[],
): ScatterRow[] {
  const split = foldsFor(samples, protocol.name, report.options);
  if (split.folds.length !== protocol.folds) {
    throw new Error(
      `${protocol.name}: these samples give ${split.folds.length} folds, the report has ${protocol.folds}`,
    );
  }
  const open = new Map(split.folds.map((f) => [f.name, new Set(f.test)]));
  const rows: ScatterRow[] = [];
  for (const g of given) {
    const where = `${predictor}, ${protocol.name} ${g.fold} sample ${g.index}`;
    const pending = open.get(g.fold);
    if (!pending) throw new Error(`${where}: no such fold (folds: ${[...open.keys()].join(', ')})`);
    if (!pending.delete(g.index)) throw new Error(`${where}: not a test sample of the fold, or given twice`);
    if (!Number.isFinite(g.predictedUs)) throw new Error(`${where}: non-finite prediction ${g.predictedUs}`);
    const s = sampleAt(samples, g.index);
    rows.push({
      protocol: protocol.name,
      fold: g.fold,
      predictor,
      index: g.index,
      family: s.family,
      device: s.device.deviceId,
      actualUs: s.timeUs,
      predictedUs: g.predictedUs,
    });
  }
  const missing = [...open].reduce((n, [, set]) => n + set.size, 0);
  if (missing > 0) throw new Error(`${predictor}, ${protocol.name}: ${missing} test samples have no prediction`);
  return rows;
}

/**
 * A copy of `report` with `predictorName` added to every protocol that `rows` cover.
 * `samples` must be the samples the report was evaluated on.
 */
export function addExternalPredictions(
  report: EvaluationReport,
  predictorName: string,
  rows: readonly ExternalPrediction[],
  samples: readonly Sample[],
): EvaluationReport {
  if (samples.length !== report.samples) {
    throw new Error(`the report was made on ${report.samples} samples, got ${samples.length}`);
  }
  if (report.protocols.some((p) => predictorName in p.byPredictor)) {
    throw new Error(`the report already has a predictor "${predictorName}"`);
  }
  const known = new Set(report.protocols.map((p) => p.name));
  const unknown = rows.find((r) => !known.has(r.protocol));
  if (unknown) throw new Error(`protocol "${unknown.protocol}" is not in the report`);
  const added: ScatterRow[] = [];
  const protocols = report.protocols.map((p) => {
    const given = rows.filter((r) => r.protocol === p.name);
    if (given.length === 0) return p;
    const protocolRows = rowsForProtocol(samples, report, p, predictorName, given);
    added.push(...protocolRows);
    const { tinyUs, bigUs } = report.options;
    return { ...p, byPredictor: { ...p.byPredictor, [predictorName]: summarise(protocolRows, tinyUs, bigUs) } };
  });
  return {
    ...report,
    protocols,
    scatter: capScatter([...report.scatter, ...added], report.options.scatterCap, report.options.protocols),
  };
}
