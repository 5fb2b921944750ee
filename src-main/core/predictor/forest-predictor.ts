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
 * Op bias: trees split on what most samples share, so an op with few kernels (Gelu,
 * SkipLayerNormalization) gets its family's average even with its own op feature. Each
 * op's mean out-of-bag residual, shrunk toward 0 by OP_BIAS_PRIOR samples, is added to the
 * raw output (a linear term on the op features, so the ONNX export carries it).
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

/** Pseudo-samples of zero residual each op's bias is shrunk with: one or two kernels move it little. */
export const OP_BIAS_PRIOR = 2;

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
  /** Per feature (non-zero on op features only); absent: none. */
  opBias: z.array(z.number()).optional(),
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
  /** Added to the forest's raw output: coefficients over the feature vector, non-zero on op features. */
  opBias: number[] = FEATURE_NAMES.map(() => 0);

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
    const forestOob = this.forest.oobPredictions();
    this.opBias = opBiasFrom(x, y, forestOob);
    const oob = forestOob.map((r, i) => r + dot(this.opBias, x[i] as number[]));
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

  /** Raw outputs log(time / floor) for feature vectors: the forest plus the op bias, before the clamp. */
  raw(features: readonly (readonly number[])[]): number[] {
    return this.forest.predict(features).map((r, i) => r + dot(this.opBias, features[i] as readonly number[]));
  }

  predict(queries: readonly Query[]): Prediction[] {
    if (queries.length === 0) return [];
    const features = queries.map((q) => featureVector(q, q.device));
    const { mean, std } = this.forest.predictWithSpread(features);
    return queries.map((q, i) => {
      const floor = floorUs(q, q.device);
      const m = (mean[i] as number) + dot(this.opBias, features[i] as number[]);
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
      opBias: this.opBias,
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
    if (m.opBias && m.opBias.length !== FEATURE_NAMES.length) {
      throw new Error('stored forest model was trained on other features (retrain)');
    }
    p.opBias = m.opBias ?? FEATURE_NAMES.map(() => 0);
    return p;
  }
}

const dot = (a: readonly number[], b: readonly number[]): number => a.reduce((s, v, j) => s + v * (b[j] ?? 0), 0);

/**
 * Per op feature: the mean out-of-bag residual (target - forest) of the samples of that op,
 * shrunk toward 0 by OP_BIAS_PRIOR; 0 on every other feature.
 */
function opBiasFrom(x: readonly number[][], y: readonly number[], oob: readonly number[]): number[] {
  const sums = FEATURE_NAMES.map(() => ({ r: 0, n: 0 }));
  x.forEach((f, i) => {
    const r = (y[i] as number) - (oob[i] as number);
    if (!Number.isFinite(r)) return;
    OP_FEATURE_INDEXES.forEach((j) => {
      const s = sums[j] as { r: number; n: number };
      if (f[j] === 1) {
        s.r += r;
        s.n += 1;
      }
    });
  });
  return sums.map((s) => s.r / (s.n + OP_BIAS_PRIOR));
}

const OP_FEATURE_INDEXES = FEATURE_NAMES.flatMap((name, j) => (name.startsWith('op_') ? [j] : []));
