/**
 * The pure roofline baseline: every op at the device's measured peak compute or
 * bandwidth (efficiency 1), plus its dispatch cost. A lower bound, not a forecast. Pure.
 */
import { floorUs } from './features.js';
import { extrapolationWarning, trainingRanges, TrainingRangesSchema, type TrainingRanges } from './training-ranges.js';
import { checkPredictorJson } from './types.js';
import type { OpQuery, Prediction, Predictor, PredictorJson, Sample } from './types.js';

export class RooflinePredictor implements Predictor {
  static readonly NAME = 'roofline';
  static readonly VERSION = 1;
  readonly name = RooflinePredictor.NAME;
  readonly version = RooflinePredictor.VERSION;
  private ranges: TrainingRanges = { devices: [], families: [], work: {} };

  train(samples: readonly Sample[]): void {
    this.ranges = trainingRanges(samples);
  }

  predict(queries: readonly OpQuery[]): Prediction[] {
    return queries.map((q) => {
      const t = floorUs(q, q.device);
      // A bound, not a forecast: no band around it.
      return { timeUs: t, lowUs: t, highUs: t, warning: extrapolationWarning(this.ranges, q) };
    });
  }

  toJSON(): PredictorJson {
    return { name: this.name, version: this.version, ranges: this.ranges };
  }

  static load(json: unknown): RooflinePredictor {
    const j = checkPredictorJson(json, RooflinePredictor.NAME, RooflinePredictor.VERSION);
    const p = new RooflinePredictor();
    p.ranges = TrainingRangesSchema.parse(j.ranges);
    return p;
  }
}
