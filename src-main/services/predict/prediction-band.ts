/**
 * The 90% band of a whole-model prediction on a profiled device (core/predictor/model-band.ts):
 * this device's measure-model checks of other models, and the shipped bench residuals while
 * those are too few. measure-model adds a check after it measures.
 */
import { modelBand, type ModelBand } from '../../core/predictor/model-band.js';
import { SHIPPED_RESIDUALS } from '../../core/predictor/shipped-residuals.js';
import { fromNodeUs, type WorkloadPrediction } from '../../core/workload/predict-workload.js';
import { ModelCheckRepo } from '../../adapters/store/model-check-repo.js';
import type { Database } from '../../adapters/store/types.js';
import type { MachineState } from '../../core/profiler/machine-state.js';

export interface BandTarget {
  machineId: string;
  deviceKey: string;
  threads: number | null;
  /** The model's content hash, else its name. */
  model: string;
}

/** The band of a prediction as timed from Node (device time plus the binding). */
export function predictionBand(db: Database, p: WorkloadPrediction, t: BandTarget): ModelBand {
  const checks = new ModelCheckRepo(db).residuals(t.machineId, t.deviceKey);
  // The shipped residuals are CPU figures: a GPU's band stands on its own checks.
  const shipped = t.deviceKey === 'cpu' ? SHIPPED_RESIDUALS : [];
  return modelBand(fromNodeUs(p), { model: t.model, threads: t.threads }, checks, shipped);
}

/**
 * Records a measure-model run: what it measured against what was predicted, and the machine's
 * state then (core/profiler/machine-state.ts; null: not read). A run off the profiled speed is
 * kept but is no residual of the bands.
 */
export function recordCheck(
  db: Database,
  t: BandTarget & { label: string; predictor: string },
  measuredUs: number,
  predictedUs: number,
  state: Pick<MachineState, 'ratio' | 'off'> | null = null,
): void {
  if (!(measuredUs > 0 && predictedUs > 0)) return;
  new ModelCheckRepo(db).add({
    ...t,
    measuredUs,
    predictedUs,
    machineRatio: state?.ratio ?? null,
    offSpeed: state?.off ?? false,
  });
}
