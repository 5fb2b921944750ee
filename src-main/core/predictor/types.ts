/**
 * Execution-time predictors: shared vocabulary. A sample is one measured kernel on one
 * device (op, shape, dtype, device features) with its time; predictors learn from
 * samples and predict time in microseconds. Shaped like mljs models: train, predict,
 * toJSON, static load that checks name and version. Pure.
 */
import type { MachineDeviceId } from '../domain/device-id.js';
import type { Dtype } from '../domain/measurement.js';

/** What the predictor knows about a device, from its measured summary and its probe. */
export interface DeviceFeatures {
  /** The device across machines, for grouping: `machineId/cpu/cpu/2t` (MachineDeviceId). */
  deviceId: MachineDeviceId;
  kind: 'cpu' | 'gpu';
  /** Measured peak GFLOP/s per dtype (fp32 at least). */
  peakGflops: Partial<Record<Dtype, number>>;
  /** Measured DRAM bandwidth, GB/s. */
  bandwidthGBps: number;
  /** Smallest measured kernel time, µs. */
  dispatchUs: number;
  threads: number | null;
  /** CPU caches in bytes (null for GPUs or unknown). */
  l2Bytes: number | null;
  l3Bytes: number | null;
  /** GPU SM count and max SM clock (null for CPUs or unknown). */
  smCount: number | null;
  smClockMHz: number | null;
}

/** One op instance to predict: the kernel's identity and cost, without its time. */
export interface OpInstance {
  op: string;
  family: string;
  shape: Record<string, number>;
  dtype: Dtype;
  flops: number;
  bytes: number;
}

/** One op on one device: what a predictor is asked. */
export interface OpQuery extends OpInstance {
  device: DeviceFeatures;
}

export interface Sample extends OpQuery {
  /** Where the sample comes from: 'profile' (micro-kernels) or `model:<name>` (measure-model); absent: profile. */
  origin?: string;
  /** Measured median time, µs. */
  timeUs: number;
  /** Stored by a profile that could not pin it down (cv above NOISY_CV): kept, but no anchor. */
  noisy?: boolean;
}

export interface Prediction {
  timeUs: number;
  /** Lower and upper bound of the uncertainty band (µs). */
  lowUs: number;
  highUs: number;
  /** Set when the query lies outside what the predictor was trained on. */
  warning: string | null;
  /**
   * The kernel's backward in a training step (µs), where the predictor prices it apart (fused and
   * unfused attention on a datasheet GPU); absent: twice its forward (core/planner/cost/training-step.ts).
   */
  backwardUs?: number;
}

export interface PredictorJson {
  name: string;
  version: number;
  [key: string]: unknown;
}

export interface Predictor {
  readonly name: string;
  readonly version: number;
  train(samples: readonly Sample[]): void;
  predict(queries: readonly OpQuery[]): Prediction[];
  toJSON(): PredictorJson;
}

/** Throws when a stored predictor's JSON is not this predictor's or of another version. */
export function checkPredictorJson(json: unknown, name: string, version: number): PredictorJson {
  if (typeof json !== 'object' || json === null) throw new Error(`stored ${name} predictor is not an object`);
  const j = json as Partial<PredictorJson>;
  if (j.name !== name) throw new Error(`stored predictor is "${String(j.name)}", not "${name}"`);
  if (j.version !== version) {
    throw new Error(
      `stored ${name} predictor has version ${String(j.version)}; this pipeDejavu reads version ${version} (retrain)`,
    );
  }
  return j as PredictorJson;
}
