/** Evaluation of execution-time predictors on held-out data: splits, metrics, report. Pure. */
export * from './types.js';
export * from './metrics.js';
export { foldsFor } from './protocols.js';
export { evaluateProtocols } from './evaluate.js';
export { addExternalPredictions } from './external.js';
export { formatReport } from './format.js';
export { formatSummary, summarizeEvaluation, type EvaluationSummary } from './summary.js';
