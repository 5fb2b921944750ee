/**
 * Trained predictors as ONNX models (ai.onnx.ml) that other tools run without this
 * app: inputs `features` [N, F] (see the model's metadata for the names) and
 * `floor_us` [N, 1]; output `time_us`. `featureRows` gives both inputs for queries.
 */
import { UserError } from '../core/errors.js';
import { FEATURE_NAMES, featureVector, floorUs } from '../core/predictor/features.js';
import { ForestPredictor } from '../core/predictor/forest-predictor.js';
import { LinearPredictor } from '../core/predictor/linear-predictor.js';
import { forestToOnnx, linearToOnnx } from '../core/predictor/onnx-export.js';
import type { OpQuery } from '../core/predictor/types.js';
import type { Database } from '../adapters/store/types.js';
import { storedPredictorNamed } from './predictor-service.js';

export const ONNX_EXPORTABLE = ['forest', 'linear'] as const;
export type OnnxExportable = (typeof ONNX_EXPORTABLE)[number];

export function exportPredictorOnnx(db: Database, name: OnnxExportable): { bytes: Uint8Array; trainedAt: string } {
  const stored = storedPredictorNamed(db, name);
  if (!stored) throw new UserError(`no trained ${name} predictor: run \`pipedejavu train --predictor ${name}\` first`);
  const p = stored.predictor;
  if (p instanceof ForestPredictor)
    return { bytes: forestToOnnx(p.parts, FEATURE_NAMES, p.minLogRatio), trainedAt: stored.trainedAt };
  if (p instanceof LinearPredictor) {
    return {
      bytes: linearToOnnx(p.coefficients, p.intercept, FEATURE_NAMES, p.minLogRatio),
      trainedAt: stored.trainedAt,
    };
  }
  throw new UserError(`the ${name} predictor cannot be exported as ONNX`);
}

/** The two inputs of an exported model for some queries. */
export function featureRows(queries: readonly OpQuery[]): {
  features: Float32Array;
  floorUs: Float32Array;
} {
  const f = FEATURE_NAMES.length;
  const features = new Float32Array(queries.length * f);
  const floor = new Float32Array(queries.length);
  queries.forEach((q, i) => {
    features.set(featureVector(q, q.device), i * f);
    floor[i] = floorUs(q, q.device);
  });
  return { features, floorUs: floor };
}
