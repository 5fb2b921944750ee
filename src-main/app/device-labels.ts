/** Readable names for the predictor's device ids ("<machine id>/cpu/cpu/1t" -> "vm cpu x1 thread"). */
import type { Database } from '../adapters/store/types.js';
import { loadTrainingData, type DeviceGroup } from '../services/training-data.js';

export function deviceLabel(d: Pick<DeviceGroup, 'machineLabel' | 'deviceKey' | 'threads'>): string {
  const threads = d.threads ? ` x${d.threads} thread${d.threads === 1 ? '' : 's'}` : '';
  return `${d.machineLabel} ${d.deviceKey}${threads}`;
}

export function deviceLabels(db: Database): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of loadTrainingData(db).devices) out[d.deviceId] = deviceLabel(d);
  return out;
}
