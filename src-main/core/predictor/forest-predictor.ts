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
 * family's (at the thread count) out-of-bag residual 5th/95th percentiles (residual-band.ts), so it is wide both
 * where the trees disagree and where the forest was found wrong on unseen rows.
 */
import { z } from 'zod';
import { positionsBy } from '../util/group-by.js';
import { featureVector, FEATURE_NAMES, floorUs, learnedMinLogRatio, MIN_LOG_RATIO } from './features.js';
import { VARIANTS, routeVariant } from './kernel-variant.js';
import { RandomForestRegressor, type ForestOptions } from './random-forest.js';
import { bandFor, BandTableSchema, fitBands, type BandTable } from './residual-band.js';
import { extrapolationWarning, trainingRanges, TrainingRangesSchema, type TrainingRanges } from './training-ranges.js';
import { checkPredictorJson } from './types.js';
import type { OpQuery, Prediction, Predictor, PredictorJson, Sample } from './types.js';

/** Pseudo-samples of zero residual each op's bias is shrunk with: one or two kernels move it little. */
const OP_BIAS_PRIOR = 2;

const FOREST_PREDICTOR_DEFAULTS: ForestOptions = {
  nEstimators: 100,
  maxDepth: 20,
  minSamplesLeaf: 2,
  minSamplesSplit: 2,
  maxFeatures: 'third',
  bootstrap: true,
  seed: 42,
};

const PartSchema = z.object({ forest: z.unknown(), opBias: z.array(z.number()) });

const StoredSchema = z.object({
  featureNames: z.array(z.string()),
  /** The shared forest: every row, and the rows of variants too small for a forest of their own. */
  forest: z.unknown(),
  ranges: TrainingRangesSchema,
  bands: BandTableSchema,
  /** Absent in predictors stored before the clamp was learned: MIN_LOG_RATIO. */
  minLogRatio: z.number().optional(),
  /** The shared forest's op bias, per feature (non-zero on op features only); absent: none. */
  opBias: z.array(z.number()).optional(),
  /** The variants with a forest of their own (kernel-variant.ts). */
  variants: z.record(z.string(), PartSchema).optional(),
});

/** A forest and the op bias added to its raw output. */
export interface ForestPart {
  forest: RandomForestRegressor;
  /** Coefficients over the feature vector, non-zero on op features. */
  opBias: number[];
}

/** A variant gets a forest of its own from this many samples; with fewer it uses the shared one. */
const MIN_VARIANT_SAMPLES = 6;

export class ForestPredictor implements Predictor {
  static readonly NAME = 'forest';
  static readonly VERSION = 2;
  readonly name = ForestPredictor.NAME;
  readonly version = ForestPredictor.VERSION;
  private readonly options: ForestOptions;
  private sharedPart: ForestPart;
  private variantParts = new Map<string, ForestPart>();
  private ranges: TrainingRanges = { devices: [], families: [], work: {} };
  private bands: BandTable = {};
  /** The raw output's lower clamp (learnedMinLogRatio of the training targets). */
  minLogRatio = MIN_LOG_RATIO;

  /** minVariantSamples: Infinity trains the shared forest alone (one forest for every row). */
  constructor(
    options: Partial<ForestOptions> = {},
    private readonly minVariantSamples = MIN_VARIANT_SAMPLES,
  ) {
    this.options = { ...FOREST_PREDICTOR_DEFAULTS, ...options };
    this.sharedPart = { forest: new RandomForestRegressor(this.options), opBias: FEATURE_NAMES.map(() => 0) };
  }

  /** The shared forest, and the variants' own (for export). */
  get parts(): { shared: ForestPart; variants: ReadonlyMap<string, ForestPart> } {
    return { shared: this.sharedPart, variants: this.variantParts };
  }

  /** The part that predicts a feature vector: its variant's forest, or the shared one. */
  private partFor(x: readonly number[]): ForestPart {
    return this.variantParts.get(routeVariant(x)) ?? this.sharedPart;
  }

  train(samples: readonly Sample[]): void {
    if (!samples.length) throw new Error('no samples to train the forest on');
    const x = samples.map((s) => featureVector(s, s.device));
    const y = samples.map((s) => Math.log(s.timeUs / floorUs(s, s.device)));
    this.minLogRatio = learnedMinLogRatio(y);
    this.ranges = trainingRanges(samples);
    const shared = fitPart(x, y, this.options);
    this.sharedPart = shared.part;
    this.variantParts = new Map();
    const oob = [...shared.oob];
    for (const [variant, rows] of positionsBy(x.map(routeVariant))) {
      if (rows.length < this.minVariantSamples) continue;
      const own = fitPart(
        rows.map((i) => x[i] as number[]),
        rows.map((i) => y[i] as number),
        this.options,
      );
      this.variantParts.set(variant, own.part);
      rows.forEach((i, k) => (oob[i] = own.oob[k] as number));
    }
    this.bands = fitBands(
      samples.flatMap((s, i) => {
        const r = oob[i];
        if (r === undefined || Number.isNaN(r)) return [];
        return [
          {
            family: s.family,
            threads: s.device.threads,
            actual: s.timeUs,
            predicted: floorUs(s, s.device) * Math.exp(Math.max(this.minLogRatio, r)),
          },
        ];
      }),
    );
  }

  /** Raw outputs log(time / floor) for feature vectors: each row's forest plus its op bias, before the clamp. */
  raw(features: readonly (readonly number[])[]): number[] {
    return this.spread(features).mean;
  }

  /** Mean and spread over trees of the raw output, each row from its own part. */
  private spread(features: readonly (readonly number[])[]): { mean: number[]; std: number[] } {
    const mean = new Array<number>(features.length).fill(0);
    const std = new Array<number>(features.length).fill(0);
    for (const [part, rows] of positionsBy(features.map((x) => this.partFor(x)))) {
      const got = part.forest.predictWithSpread(rows.map((i) => features[i] as readonly number[]));
      rows.forEach((i, k) => {
        mean[i] = (got.mean[k] as number) + dot(part.opBias, features[i] as readonly number[]);
        std[i] = got.std[k] as number;
      });
    }
    return { mean, std };
  }

  predict(queries: readonly OpQuery[]): Prediction[] {
    if (queries.length === 0) return [];
    const features = queries.map((q) => featureVector(q, q.device));
    const { mean, std } = this.spread(features);
    return queries.map((q, i) => {
      const floor = floorUs(q, q.device);
      const m = mean[i] as number;
      const s = std[i] as number;
      const band = bandFor(this.bands, q.family, q.device.threads);
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
      forest: this.sharedPart.forest.toJSON(),
      ranges: this.ranges,
      bands: this.bands,
      minLogRatio: this.minLogRatio,
      opBias: this.sharedPart.opBias,
      variants: Object.fromEntries(
        [...this.variantParts].map(([v, p]) => [v, { forest: p.forest.toJSON(), opBias: p.opBias }]),
      ),
    };
  }

  static load(json: unknown): ForestPredictor {
    const j = checkPredictorJson(json, ForestPredictor.NAME, ForestPredictor.VERSION);
    const m = StoredSchema.parse(j);
    if (m.featureNames.join(',') !== FEATURE_NAMES.join(',')) {
      throw new Error('stored forest predictor was trained on other features (retrain)');
    }
    const part = (forestJson: unknown, opBias: number[] | undefined): ForestPart => {
      const forest = RandomForestRegressor.fromJSON(forestJson);
      if (forest.featureCount !== FEATURE_NAMES.length || (opBias && opBias.length !== FEATURE_NAMES.length)) {
        throw new Error('stored forest predictor was trained on other features (retrain)');
      }
      return { forest, opBias: opBias ?? FEATURE_NAMES.map(() => 0) };
    };
    const shared = part(m.forest, m.opBias);
    const p = new ForestPredictor(shared.forest.options);
    p.sharedPart = shared;
    for (const [v, vp] of Object.entries(m.variants ?? {})) {
      if (!VARIANTS.includes(v))
        throw new Error(`stored forest predictor has an unknown kernel variant "${v}" (retrain)`);
      p.variantParts.set(v, part(vp.forest, vp.opBias));
    }
    p.ranges = m.ranges;
    p.bands = m.bands;
    p.minLogRatio = m.minLogRatio ?? MIN_LOG_RATIO;
    return p;
  }
}

/** A forest fitted on rows, its op bias, and its out-of-bag raw outputs (bias included). */
function fitPart(
  x: readonly number[][],
  y: readonly number[],
  options: ForestOptions,
): { part: ForestPart; oob: number[] } {
  const forest = new RandomForestRegressor(options);
  forest.fit(x, y);
  const forestOob = forest.oobPredictions();
  const opBias = opBiasFrom(x, y, forestOob);
  return { part: { forest, opBias }, oob: forestOob.map((r, i) => r + dot(opBias, x[i] as number[])) };
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
