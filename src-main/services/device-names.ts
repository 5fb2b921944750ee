/**
 * A profiled device as people read it in the CLI: its machine's label, the device and the
 * thread count ("vm · CPU, 2 threads", "rig · cuda:0"), never the machine's id (a hash).
 */
import { count } from '../core/text/plural.js';
import type { Database } from '../adapters/store/types.js';
import { loadTrainingData, type DeviceGroup } from './training-data.js';

export function deviceName(
  d: Pick<DeviceGroup, 'machineLabel' | 'deviceKey' | 'executionProvider' | 'threads'>,
): string {
  const own = d.deviceKey.replace(/:\d+$/, '');
  const key = d.deviceKey === 'cpu' ? 'CPU' : d.deviceKey;
  const ep = d.executionProvider === own ? '' : ` (${d.executionProvider})`;
  const threads = d.threads === null ? '' : `, ${count(d.threads, 'thread')}`;
  return `${d.machineLabel} · ${key}${ep}${threads}`;
}

/** The name of a profiled device by its id (`DeviceGroup.deviceId`); the id itself when the store has no such device. */
export function deviceNameOf(db: Database, deviceId: string): string {
  const d = loadTrainingData(db).devices.find((x) => x.deviceId === deviceId);
  return d ? deviceName(d) : deviceId;
}
