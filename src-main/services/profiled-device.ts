/**
 * The profiled device a prediction is made for: a device key (and thread count) on this
 * machine or a named one; of several matches, the one with the most measurements.
 */
import { UserError } from '../core/errors.js';
import type { Database } from '../adapters/store/types.js';
import { findMachine } from './machine-service.js';
import type { DeviceGroup } from './training-data.js';

export interface DeviceQuery {
  device: string;
  threads?: number;
  /** An imported machine's id or label; this machine when absent. */
  machine?: string;
}

/**
 * The device among `devices` (from loadTrainingData) that the query names, or null, with
 * what the machine has profiled ("cpu (8 threads)") for the caller's message.
 */
export function findProfiledDevice(
  db: Database,
  devices: readonly DeviceGroup[],
  q: DeviceQuery,
): { match: DeviceGroup | null; known: string[] } {
  const machineId = findMachine(db, q.machine)?.id;
  if (!machineId)
    throw new UserError(
      q.machine ? `no machine "${q.machine}" in the store` : 'no machine recorded yet: run pipedejavu profile',
    );
  const onMachine = devices.filter((d) => d.machineId === machineId);
  const candidates = onMachine.filter(
    (d) => d.deviceKey === q.device && (q.threads === undefined || d.threads === q.threads),
  );
  const known = [...new Set(onMachine.map((d) => d.deviceKey + (d.threads ? ` (${d.threads} threads)` : '')))];
  const match = candidates.length ? candidates.reduce((a, b) => (b.measurements > a.measurements ? b : a)) : null;
  return { match, known };
}
