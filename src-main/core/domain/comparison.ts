/**
 * Machines side by side (`machine:compare`): each profiled device's measured summary and
 * per-family efficiency, and a workload's predicted time on it. Pure.
 */
import type { Mode } from '../planner/types.js';
import type { DeviceSummary } from '../profiler/device-summary.js';
import type { DeviceId } from './device-id.js';

/** One profiled device of a compared machine. */
export interface ComparedDevice {
  /** The profiled device on its machine ("cpu@2t"): columns and bars key on it with the machine's id. */
  id: DeviceId;
  /** For people: "CPU, 2 threads". */
  label: string;
  deviceKey: string;
  name: string;
  executionProvider: string;
  threads: number | null;
  summary: DeviceSummary;
  /** Median share of the roofline bound per op family (0..1], from the profiled kernels. */
  familyEfficiency: Record<string, number>;
  /** The chosen workload's predicted time on the device (µs); absent without one. */
  predictedUs?: number;
}

export interface ComparedMachine {
  id: string;
  label: string;
  source: 'local' | 'imported';
  devices: ComparedDevice[];
}

/** Machines in the order asked; a machine without a profile has no device. */
export interface Comparison {
  machines: ComparedMachine[];
  /** The workload predicted on every device, with its settings; null without one. */
  workload: { name: string; mode: Mode; batch: number; predictor: string } | null;
}
