/** Readable names for the predictor's device ids ("<machine id>/cpu/cpu/2t" -> "vm · CPU, 2 threads"). */
import type { Database } from '../adapters/store/types.js';
import { deviceIdLabel, type MachineDeviceId } from '../core/domain/device-id.js';
import { loadTrainingData, type DeviceGroup } from '../services/predict/training-data.js';

export function deviceLabel(
  d: Pick<DeviceGroup, 'machineLabel' | 'deviceKey' | 'executionProvider' | 'threads'>,
): string {
  return `${d.machineLabel} · ${deviceIdLabel(d)}`;
}

/** Each trained device's label by its MachineDeviceId. */
export function deviceLabels(db: Database): Record<MachineDeviceId, string> {
  const out: Record<MachineDeviceId, string> = {};
  for (const d of loadTrainingData(db).devices) out[d.deviceId] = deviceLabel(d);
  return out;
}
