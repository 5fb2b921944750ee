/**
 * A profiled device as people read it in the CLI: its machine's label, the device and the
 * thread count ("vm · CPU, 2 threads", "rig · cuda:0"), never the machine's id (a hash).
 */
import { count } from '../core/text/plural.js';
import type { DeviceGroup } from './training-data.js';

export function deviceName(
  d: Pick<DeviceGroup, 'machineLabel' | 'deviceKey' | 'executionProvider' | 'threads'>,
): string {
  const own = d.deviceKey.replace(/:\d+$/, '');
  const key = d.deviceKey === 'cpu' ? 'CPU' : d.deviceKey;
  const ep = d.executionProvider === own ? '' : ` (${d.executionProvider})`;
  const threads = d.threads === null ? '' : `, ${count(d.threads, 'thread')}`;
  return `${d.machineLabel} · ${key}${ep}${threads}`;
}
