/**
 * Evaluation vocabulary: protocol names, folds, per-sample prediction rows and the report
 * that aggregates them. Times are µs; error metrics are in percent (see metrics.ts). Pure.
 */
import type { MachineDeviceId } from '../../domain/device-id.js';
import type { Metrics } from './metrics.js';

export const PROTOCOL_NAMES = [
  'grouped-kfold',
  'interpolation',
  'extrapolation',
  'leave-one-family-out',
  'leave-one-device-out',
  'leave-one-model-out',
] as const;
export type ProtocolName = (typeof PROTOCOL_NAMES)[number];

/** One train/test split, as indices into the evaluated `samples` array (ascending). */
export interface Fold {
  name: string;
  train: number[];
  test: number[];
}

/** The folds of one protocol; `skipped` says why a fold or a part of the data was left out. */
export interface SplitResult {
  folds: Fold[];
  skipped: string[];
}

/** One test prediction: a point of the predicted-vs-measured scatter. */
export interface ScatterRow {
  protocol: ProtocolName;
  fold: string;
  predictor: string;
  /** Index of the sample in the evaluated `samples` array. */
  index: number;
  family: string;
  /** `device.deviceId` of the sample. */
  device: MachineDeviceId;
  /** Measured time, µs. */
  actualUs: number;
  /** Predicted time, µs. */
  predictedUs: number;
  /** The prediction's 90% band, µs; absent for an outside predictor's rows (scikit-learn). */
  lowUs?: number;
  highUs?: number;
}

/** Aggregates of one predictor under one protocol (all buckets by measured time). */
export interface PredictorSummary {
  overall: Metrics;
  /** Ops whose measured time is ≥ `bigUs` (default 100 µs): the headline numbers. */
  above100us: Metrics;
  /** Ops whose measured time is < `tinyUs` (default 10 µs): timer noise dominates. */
  under10us: Metrics;
  /** Per op family (only families present in the test sets). */
  byFamily: Record<string, Metrics>;
  /** Per size bucket of measured time (see SIZE_BUCKETS; only non-empty buckets). */
  bySize: Record<string, Metrics>;
}

export interface ProtocolReport {
  name: ProtocolName;
  /** Folds evaluated (skipped folds not counted). */
  folds: number;
  skipped: string[];
  byPredictor: Record<string, PredictorSummary>;
}

export interface EvaluationOptions {
  /** Folds of grouped k-fold (integer ≥ 2). */
  k: number;
  seed: number;
  /** Protocols to run, in this order (default: all of PROTOCOL_NAMES). */
  protocols?: readonly ProtocolName[];
  /** Measured time under which an op counts as tiny, µs (default 10). */
  tinyUs?: number;
  /** Measured time from which an op counts as big (headline), µs (default 100). */
  bigUs?: number;
  /** Most scatter rows kept in the report (default 5000). */
  scatterCap?: number;
}

export type ResolvedEvaluationOptions = Required<Omit<EvaluationOptions, 'protocols'>> & {
  protocols: ProtocolName[];
};

export interface EvaluationReport {
  protocols: ProtocolReport[];
  /** Subsample of the test predictions (same samples for every predictor of a protocol). */
  scatter: ScatterRow[];
  /** Number of samples evaluated. */
  samples: number;
  /** Distinct `device.deviceId`s, sorted. */
  devices: MachineDeviceId[];
  /** The options the report was made with (needed to rebuild its folds). */
  options: ResolvedEvaluationOptions;
}

/** A prediction made elsewhere (e.g. scikit-learn) on a fold given by `foldsFor`. */
export interface ExternalPrediction {
  protocol: ProtocolName;
  fold: string;
  index: number;
  predictedUs: number;
}
