/**
 * Runs every protocol: for each fold, fresh predictors train on the training samples and
 * predict the test samples (given without their measured time), and the test predictions
 * are aggregated per protocol × predictor. Pure.
 */
import type { OpQuery, Predictor, Sample } from '../types.js';
import { capScatter, summariseByPredictor } from './aggregate.js';
import { sampleAt } from './groups.js';
import { foldsFor, resolveOptions } from './protocols.js';
import type { EvaluationOptions, EvaluationReport, Fold, ProtocolName, ProtocolReport, ScatterRow } from './types.js';

/** What a predictor may see of a test sample: everything but its measured time. */
function queryOf(s: Sample): OpQuery {
  return {
    op: s.op,
    family: s.family,
    shape: { ...s.shape },
    dtype: s.dtype,
    flops: s.flops,
    bytes: s.bytes,
    device: s.device,
  };
}

function rowsOfFold(
  samples: readonly Sample[],
  protocol: ProtocolName,
  fold: Fold,
  predictors: readonly Predictor[],
): ScatterRow[] {
  const train = fold.train.map((i) => sampleAt(samples, i));
  const tests = fold.test.map((i) => sampleAt(samples, i));
  const queries = tests.map(queryOf);
  const rows: ScatterRow[] = [];
  for (const p of predictors) {
    const where = `${protocol} ${fold.name}: ${p.name}`;
    try {
      p.train(train);
    } catch (e) {
      throw new Error(`${where}: training failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    const predictions = p.predict(queries);
    if (predictions.length !== queries.length) {
      throw new Error(`${where}: ${predictions.length} predictions for ${queries.length} queries`);
    }
    tests.forEach((s, j) => {
      const predictedUs = predictions[j]?.timeUs ?? NaN;
      if (!Number.isFinite(predictedUs)) throw new Error(`${where}: non-finite prediction for sample ${fold.test[j]}`);
      rows.push({
        protocol,
        fold: fold.name,
        predictor: p.name,
        index: fold.test[j] as number,
        family: s.family,
        device: s.device.deviceId,
        actualUs: s.timeUs,
        predictedUs,
        lowUs: predictions[j]?.lowUs ?? predictedUs,
        highUs: predictions[j]?.highUs ?? predictedUs,
      });
    });
  }
  return rows;
}

function freshPredictors(makePredictors: () => Predictor[], expected: string[] | null): Predictor[] {
  const predictors = makePredictors();
  const names = predictors.map((p) => p.name);
  if (new Set(names).size !== names.length) throw new Error(`predictor names repeat: ${names.join(', ')}`);
  if (expected && names.join('\n') !== expected.join('\n')) {
    throw new Error(`makePredictors gave [${names.join(', ')}], earlier [${expected.join(', ')}]`);
  }
  return predictors;
}

export function evaluateProtocols(
  samples: readonly Sample[],
  makePredictors: () => Predictor[],
  opts: EvaluationOptions,
  /** Every test prediction of a protocol, uncapped (the report keeps a capped scatter). */
  onRows?: (protocol: ProtocolName, rows: readonly ScatterRow[]) => void,
): EvaluationReport {
  const options = resolveOptions(opts);
  const protocols: ProtocolReport[] = [];
  const allRows: ScatterRow[] = [];
  let names: string[] | null = null;
  for (const name of options.protocols) {
    const split = foldsFor(samples, name, options);
    const rows: ScatterRow[] = [];
    for (const fold of split.folds) {
      const predictors = freshPredictors(makePredictors, names);
      names = predictors.map((p) => p.name);
      rows.push(...rowsOfFold(samples, name, fold, predictors));
    }
    allRows.push(...rows);
    onRows?.(name, rows);
    protocols.push({
      name,
      folds: split.folds.length,
      skipped: split.skipped,
      byPredictor: summariseByPredictor(rows, options.tinyUs, options.bigUs),
    });
  }
  return {
    protocols,
    scatter: capScatter(allRows, options.scatterCap, options.protocols),
    samples: samples.length,
    devices: [...new Set(samples.map((s) => s.device.deviceId))].sort(),
    options,
  };
}
