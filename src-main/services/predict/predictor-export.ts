/**
 * Trained predictors as ONNX models (ai.onnx.ml) that other tools run without this
 * app: inputs `features` [N, F] (a query's featureVector, in FEATURE_NAMES order; the model's
 * metadata names them) and `floor_us` [N, 1] (its floorUs); output `time_us`.
 */
import { UserError } from '../../core/errors.js';
import { FEATURE_NAMES } from '../../core/predictor/features.js';
import { ForestPredictor } from '../../core/predictor/forest-predictor.js';
import { LinearPredictor } from '../../core/predictor/linear-predictor.js';
import { forestToOnnx, linearToOnnx } from '../../core/predictor/onnx-export.js';
import type { Database } from '../../adapters/store/types.js';
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
