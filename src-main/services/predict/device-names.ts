/**
 * A profiled device as people read it in the CLI: its machine's label and the device as the
 * app names it (core/domain/device-id.ts deviceIdLabel): "vm · CPU, 2 threads", "rig · cuda:0";
 * never the machine's id (a hash).
 */
import { deviceIdLabel, type MachineDeviceId } from '../../core/domain/device-id.js';
import type { Database } from '../../adapters/store/types.js';
import { loadTrainingData, type DeviceGroup } from './training-data.js';

export function deviceName(
  d: Pick<DeviceGroup, 'machineLabel' | 'deviceKey' | 'executionProvider' | 'threads'>,
): string {
  return `${d.machineLabel} · ${deviceIdLabel(d)}`;
}

/** The name of a profiled device by its id (`DeviceGroup.deviceId`); the id itself when the store has no such device. */
export function deviceNameOf(db: Database, deviceId: MachineDeviceId): string {
  const d = loadTrainingData(db).devices.find((x) => x.deviceId === deviceId);
  return d ? deviceName(d) : deviceId;
}
