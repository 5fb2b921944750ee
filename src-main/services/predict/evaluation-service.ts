/**
 * `pipedejavu evaluate`: every predictor under every protocol on the stored
 * measurements, with scikit-learn's forest on the same features, targets and folds
 * as the reference for ours. The report is attached to the stored predictors.
 */
import { featureVector, floorUs, learnedMinLogRatio } from '../../core/predictor/features.js';
import { createPredictor, PREDICTOR_NAMES } from '../../core/predictor/registry.js';
import type { Sample } from '../../core/predictor/types.js';
import {
  addExternalPredictions,
  evaluateProtocols,
  foldsFor,
  PROTOCOL_NAMES,
  summarizeEvaluation,
  type EvaluationReport,
  type EvaluationSummary,
  type ExternalPrediction,
  type ProtocolName,
  type ScatterRow,
} from '../../core/predictor/evaluation/index.js';
import { UserError } from '../../core/errors.js';
import { runSklearnForest } from '../../adapters/python/sklearn-reference.js';
import { PredictorRepo } from '../../adapters/store/predictor-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { loadTrainingData } from './training-data.js';
import { deviceName } from './device-names.js';
import { predictorRowsInUse } from './predictor-service.js';
import { count } from '../../core/text/plural.js';

const SKLEARN_NAME = 'sklearn-forest';

export interface EvaluateOptions {
  k?: number;
  seed?: number;
  /** Run scikit-learn's forest as the reference (default true). */
  sklearn?: boolean;
}

export interface EvaluationResult {
  report: EvaluationReport;
  /** The screenful: grouped k-fold per predictor and the best predictor per device (not in the stored report). */
  summary: EvaluationSummary;
  /** Device id -> the name people read (machine label, device, threads). */
  deviceNames: Record<string, string>;
  notes: string[];
  sklearnFitSeconds: number | null;
}

/** scikit-learn's forest on identical folds; its predictions use our forest's target and floor. */
async function sklearnRows(
  samples: readonly Sample[],
  report: EvaluationReport,
): Promise<{ rows: ExternalPrediction[]; fitSeconds: number } | string> {
  const X = samples.map((s) => featureVector(s, s.device));
  const floors = samples.map((s) => floorUs(s, s.device));
  const y = samples.map((s, i) => Math.log(s.timeUs / (floors[i] as number)));
  const rows: ExternalPrediction[] = [];
  let fitSeconds = 0;
  for (const protocol of report.options.protocols) {
    const split = foldsFor(samples, protocol, report.options);
    if (!split.folds.length) continue;
    const result = await runSklearnForest({
      X,
      y,
      folds: split.folds.map((f) => ({ name: f.name, train: [...f.train], test: [...f.test] })),
      trees: 100,
      depth: 20,
      minLeaf: 2,
      maxFeatures: 1 / 3,
      seed: report.options.seed,
    });
    if (!result.ok) return result.reason;
    fitSeconds += result.fitSeconds;
    for (const f of result.folds) {
      const train = split.folds.find((s) => s.name === f.name)?.train ?? [];
      const clamp = learnedMinLogRatio(train.map((i) => y[i] as number));
      f.test.forEach((index, j) => {
        const raw = Math.max(clamp, f.predicted[j] as number);
        rows.push({ protocol, fold: f.name, index, predictedUs: (floors[index] as number) * Math.exp(raw) });
      });
    }
  }
  return { rows, fitSeconds };
}

export async function evaluatePredictors(db: Database, opts: EvaluateOptions = {}): Promise<EvaluationResult> {
  const { samples, devices } = loadTrainingData(db);
  if (samples.length < 20) {
    throw new UserError(
      `only ${count(samples.length, 'measurement')} in the store; run \`pipedejavu profile --suite quick\` first`,
    );
  }
  const notes: string[] = [];
  const summaryRows: ScatterRow[] = [];
  let report = evaluateProtocols(
    samples,
    () => PREDICTOR_NAMES.map((n) => createPredictor(n)),
    { k: opts.k ?? 5, seed: opts.seed ?? 42, protocols: [...PROTOCOL_NAMES] },
    (protocol, rows) => {
      if (protocol === SUMMARY_PROTOCOL) summaryRows.push(...rows);
    },
  );
  let sklearnFitSeconds: number | null = null;
  if (opts.sklearn !== false) {
    const sk = await sklearnRows(samples, report);
    if (typeof sk === 'string') notes.push(sk);
    else {
      report = addExternalPredictions(report, SKLEARN_NAME, sk.rows, samples);
      sklearnFitSeconds = sk.fitSeconds;
      summaryRows.push(...externalRows(sk.rows, samples));
    }
  }
  const repo = new PredictorRepo(db);
  const summary = {
    protocols: report.protocols,
    samples: report.samples,
    devices: report.devices,
    options: report.options,
    evaluatedAt: new Date().toISOString(),
  };
  for (const p of predictorRowsInUse(db)) repo.setReport(p.id, summary);
  const folds = report.protocols.find((p) => p.name === SUMMARY_PROTOCOL)?.folds ?? 0;
  return {
    report,
    summary: summarizeEvaluation(SUMMARY_PROTOCOL, folds, summaryRows),
    deviceNames: Object.fromEntries(devices.map((d) => [d.deviceId, deviceName(d)])),
    notes,
    sklearnFitSeconds,
  };
}

/** The protocol the summary tells: grouped k-fold, where no near-duplicate shape is both trained on and tested. */
const SUMMARY_PROTOCOL: ProtocolName = 'grouped-kfold';

/** scikit-learn's predictions of the summary's protocol as test rows. */
function externalRows(rows: readonly ExternalPrediction[], samples: readonly Sample[]): ScatterRow[] {
  return rows.flatMap((r) => {
    const s = samples[r.index];
    if (r.protocol !== SUMMARY_PROTOCOL || !s) return [];
    return [
      {
        protocol: r.protocol,
        fold: r.fold,
        predictor: SKLEARN_NAME,
        index: r.index,
        family: s.family,
        device: s.device.deviceId,
        actualUs: s.timeUs,
        predictedUs: r.predictedUs,
      },
    ];
  });
}
