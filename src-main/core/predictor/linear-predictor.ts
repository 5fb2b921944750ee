/**
 * Linear regression on log features (ridge, standardized): predicts log(time / floor)
 * where floor is the roofline bound plus dispatch, so predictions stay tied to the
 * device's measured roofline. Pure.
 */
import { z } from 'zod';
import { featureVector, floorUs, FEATURE_NAMES, learnedMinLogRatio, MIN_LOG_RATIO } from './features.js';
import { ridge } from './linear-algebra.js';
import { bandedPrediction, BandTableSchema, fitBands, type BandTable } from './residual-band.js';
import { trainingRanges, TrainingRangesSchema, type TrainingRanges } from './training-ranges.js';
import { checkPredictorJson } from './types.js';
import type { OpQuery, Prediction, Predictor, PredictorJson, Sample } from './types.js';

const StoredSchema = z.object({
  featureNames: z.array(z.string()),
  coefficients: z.array(z.number()),
  intercept: z.number(),
  alpha: z.number(),
  ranges: TrainingRangesSchema,
  bands: BandTableSchema,
  /** Absent in predictors stored before the clamp was learned: MIN_LOG_RATIO. */
  minLogRatio: z.number().optional(),
});

export class LinearPredictor implements Predictor {
  static readonly NAME = 'linear';
  static readonly VERSION = 1;
  readonly name = LinearPredictor.NAME;
  readonly version = LinearPredictor.VERSION;
  coefficients: number[] = [];
  intercept = 0;
  private ranges: TrainingRanges = { devices: [], families: [], work: {} };
  private bands: BandTable = {};
  /** The raw output's lower clamp (learnedMinLogRatio of the training targets). */
  minLogRatio = MIN_LOG_RATIO;

  constructor(private readonly alpha = 1e-3) {}

  train(samples: readonly Sample[]): void {
    if (!samples.length) throw new Error('no samples to train the linear predictor on');
    const x = samples.map((s) => featureVector(s, s.device));
    const y = samples.map((s) => Math.log(s.timeUs / floorUs(s, s.device)));
    const fit = ridge(x, y, this.alpha);
    this.coefficients = fit.coef;
    this.intercept = fit.intercept;
    this.minLogRatio = learnedMinLogRatio(y);
    this.ranges = trainingRanges(samples);
    this.bands = fitBands(
      samples.map((s) => ({ family: s.family, threads: s.device.threads, actual: s.timeUs, predicted: this.point(s) })),
    );
  }

  /** The raw output log(time / floor) for a feature vector. */
  raw(features: readonly number[]): number {
    return features.reduce((a, v, j) => a + v * (this.coefficients[j] ?? 0), this.intercept);
  }

  private point(q: OpQuery): number {
    const r = Math.max(this.minLogRatio, this.raw(featureVector(q, q.device)));
    return floorUs(q, q.device) * Math.exp(r);
  }

  predict(queries: readonly OpQuery[]): Prediction[] {
    return queries.map((q) => bandedPrediction(this.bands, this.ranges, q, this.point(q)));
  }

  toJSON(): PredictorJson {
    return {
      name: this.name,
      version: this.version,
      featureNames: [...FEATURE_NAMES],
      coefficients: this.coefficients,
      intercept: this.intercept,
      alpha: this.alpha,
      ranges: this.ranges,
      bands: this.bands,
      minLogRatio: this.minLogRatio,
    };
  }

  static load(json: unknown): LinearPredictor {
    const j = checkPredictorJson(json, LinearPredictor.NAME, LinearPredictor.VERSION);
    const m = StoredSchema.parse(j);
    if (m.featureNames.join(',') !== FEATURE_NAMES.join(',') || m.coefficients.length !== FEATURE_NAMES.length) {
      throw new Error('stored linear predictor was trained on other features (retrain)');
    }
    const p = new LinearPredictor(m.alpha);
    p.coefficients = m.coefficients;
    p.intercept = m.intercept;
    p.ranges = m.ranges;
    p.bands = m.bands;
    p.minLogRatio = m.minLogRatio ?? MIN_LOG_RATIO;
    return p;
  }
}
