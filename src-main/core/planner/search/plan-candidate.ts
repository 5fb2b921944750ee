/** A device the plan may use, with what predicts its layer times. Pure. */
import type { DeviceFeatures, Predictor } from '../../predictor/types.js';
import type { PlanDevice } from '../types.js';

export interface PlanCandidate {
  device: PlanDevice;
  features: DeviceFeatures;
  /** A datasheet GPU's own predictor (its datasheet and the shipped kernel fractions); absent: the trained one. */
  predictor?: Predictor;
  /** The bandwidth a decode step streams weights at (generation-service.ts); the roofline's for datasheet devices. */
  decodeGBps: number;
}
