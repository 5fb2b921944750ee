/**
 * Random-forest predictor: a forest on the shared feature vector learns
 * log(time / floor), the inefficiency above the roofline floor (roofline bound + dispatch).
 * Trees average training targets, so the ratio stays within what was measured: predictions
 * follow the roofline as sizes grow instead of extrapolating wildly. Pure.
 *
 * Clamp: a prediction is at least MIN_FLOOR_RATIO (0.8) x the floor, or the lowest ratio its
 * training data reached where that is lower (learnedMinLogRatio: cache-resident operands beat
 * the DRAM floor). The floor uses the peak the micro-kernels reached, not the hardware's, so
 * kernels measured under it are normal. The ONNX export applies the same clamp.
 *
 * Band: per query, the spread over trees (in log space) combined in quadrature with the
 * family's out-of-bag residual 10th/90th percentiles (residual-band.ts), so it is wide both
 * where the trees disagree and where the model was found wrong on unseen rows.
 */
import { z } from 'zod';
import { featureVector, FEATURE_NAMES, floorUs, learnedMinLogRatio, MIN_LOG_RATIO } from './features.js';
import { RandomForestRegressor, type ForestOptions } from './random-forest.js';
import { BandTableSchema, fitBands, type BandTable } from './residual-band.js';
import { extrapolationWarning, trainingRanges, TrainingRangesSchema, type TrainingRanges } from './training-ranges.js';
import {
  checkModelJson,
  type DeviceFeatures,
  type OpInstance,
  type Prediction,
  type Predictor,
  type PredictorJson,
  type Sample,
} from './types.js';

export const FOREST_PREDICTOR_DEFAULTS: ForestOptions = {
  nEstimators: 100,
  maxDepth: 20,
  minSamplesLeaf: 2,
  minSamplesSplit: 2,
  maxFeatures: 'third',
  bootstrap: true,
  seed: 42,
};

const ModelSchema = z.object({
  featureNames: z.array(z.string()),
  forest: z.unknown(),
  ranges: TrainingRangesSchema,
  bands: BandTableSchema,
  /** Absent in models stored before the clamp was learned: MIN_LOG_RATIO. */
  minLogRatio: z.number().optional(),
});

type Query = OpInstance & { device: DeviceFeatures };

export class ForestPredictor implements Predictor {
  static readonly NAME = 'forest';
  static readonly VERSION = 1;
  readonly name = ForestPredictor.NAME;
  readonly version = ForestPredictor.VERSION;
  private forest: RandomForestRegressor;
  private ranges: TrainingRanges = { devices: [], families: [], work: {} };
  private bands: BandTable = {};
  /** The raw output's lower clamp (learnedMinLogRatio of the training targets). */
  minLogRatio = MIN_LOG_RATIO;

  constructor(options: Partial<ForestOptions> = {}) {
    this.forest = new RandomForestRegressor({ ...FOREST_PREDICTOR_DEFAULTS, ...options });
  }

  /** The fitted forest (for export). */
  get model(): RandomForestRegressor {
    return this.forest;
  }

  train(samples: readonly Sample[]): void {
    if (!samples.length) throw new Error('no samples to train the forest on');
    const x = samples.map((s) => featureVector(s, s.device));
    const y = samples.map((s) => Math.log(s.timeUs / floorUs(s, s.device)));
    this.forest.fit(x, y);
    this.minLogRatio = learnedMinLogRatio(y);
    this.ranges = trainingRanges(samples);
    const oob = this.forest.oobPredictions();
    this.bands = fitBands(
      samples.flatMap((s, i) => {
        const r = oob[i];
        if (r === undefined || Number.isNaN(r)) return [];
        return [
          {
            family: s.family,
            actual: s.timeUs,
            predicted: floorUs(s, s.device) * Math.exp(Math.max(this.minLogRatio, r)),
          },
        ];
      }),
    );
  }

  /** The forest's raw outputs log(time / floor) for feature vectors (before the clamp). */
  raw(features: readonly (readonly number[])[]): number[] {
    return this.forest.predict(features);
  }

  predict(queries: readonly Query[]): Prediction[] {
    if (queries.length === 0) return [];
    const { mean, std } = this.forest.predictWithSpread(queries.map((q) => featureVector(q, q.device)));
    return queries.map((q, i) => {
      const floor = floorUs(q, q.device);
      const m = mean[i] as number;
      const s = std[i] as number;
      const band = this.bands[q.family] ?? this.bands['*'] ?? { lo: Math.log(0.7), hi: Math.log(1.4) };
      const at = (r: number): number => floor * Math.exp(Math.max(this.minLogRatio, r));
      return {
        timeUs: at(m),
        lowUs: at(m - Math.hypot(s, band.lo)),
        highUs: at(m + Math.hypot(s, band.hi)),
        warning: extrapolationWarning(this.ranges, q),
      };
    });
  }

  toJSON(): PredictorJson {
    return {
      name: this.name,
      version: this.version,
      featureNames: [...FEATURE_NAMES],
      forest: this.forest.toJSON(),
      ranges: this.ranges,
      bands: this.bands,
      minLogRatio: this.minLogRatio,
    };
  }

  static load(json: unknown): ForestPredictor {
    const j = checkModelJson(json, ForestPredictor.NAME, ForestPredictor.VERSION);
    const m = ModelSchema.parse(j);
    if (m.featureNames.join(',') !== FEATURE_NAMES.join(',')) {
      throw new Error('stored forest model was trained on other features (retrain)');
    }
    const forest = RandomForestRegressor.fromJSON(m.forest);
    if (forest.featureCount !== FEATURE_NAMES.length) {
      throw new Error('stored forest model was trained on other features (retrain)');
    }
    const p = new ForestPredictor(forest.options);
    p.forest = forest;
    p.ranges = m.ranges;
    p.bands = m.bands;
    p.minLogRatio = m.minLogRatio ?? MIN_LOG_RATIO;
    return p;
  }
}
