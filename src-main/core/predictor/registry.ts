/** The predictors by name: fresh instances for training, and loading stored ones. Pure. */
import { AnalyticalPredictor } from './analytical-predictor.js';
import { ForestPredictor } from './forest-predictor.js';
import { LinearPredictor } from './linear-predictor.js';
import { RooflinePredictor } from './roofline-predictor.js';
import type { Predictor } from './types.js';
import type { PredictorName } from './predictor-names.js';

export { isPredictorName, PREDICTOR_NAMES, type PredictorName } from './predictor-names.js';

export function createPredictor(name: PredictorName): Predictor {
  switch (name) {
    case 'roofline':
      return new RooflinePredictor();
    case 'analytical':
      return new AnalyticalPredictor();
    case 'linear':
      return new LinearPredictor();
    case 'forest':
      return new ForestPredictor();
  }
}

export function loadPredictor(name: string, json: unknown): Predictor {
  switch (name) {
    case 'roofline':
      return RooflinePredictor.load(json);
    case 'analytical':
      return AnalyticalPredictor.load(json);
    case 'linear':
      return LinearPredictor.load(json);
    case 'forest':
      return ForestPredictor.load(json);
    default:
      throw new Error(`unknown predictor "${name}"`);
  }
}
