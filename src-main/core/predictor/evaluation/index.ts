/** Evaluation of execution-time predictors on held-out data: splits, metrics, report. Pure. */
export * from './types.js';
export * from './metrics.js';
export { dimBucket, groupKey, sizeLog2 } from './groups.js';
export { groupedKFold, leaveOneDeviceOut, leaveOneFamilyOut } from './splits.js';
export {
  EXTRAPOLATION_SHARE,
  INTERPOLATION_SHARE,
  extrapolationSplit,
  interpolationSplit,
  unseenShapes,
} from './unseen-shapes.js';
export { SIZE_BUCKETS, sizeBucket } from './aggregate.js';
export { foldsFor } from './protocols.js';
export { evaluateProtocols } from './evaluate.js';
export { addExternalPredictions } from './external.js';
export { formatReport } from './format.js';
export { formatSummary, summarizeEvaluation, type EvaluationSummary } from './summary.js';
