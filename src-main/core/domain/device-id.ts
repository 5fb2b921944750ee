/**
 * One profiled device of a machine, as every API result names it: the device key, the execution
 * provider when it is not the key's own (the PyTorch backend's) and the thread count on a CPU.
 * `cpu@1t` and `cpu@2t` are two devices (one CPU profiled at 1 and at 2 threads); `cuda:0`,
 * `webgpu:0`, `cpu/torch-cpu@4t` and `cuda:0/torch-cuda` are others. Lists and maps of devices
 * key on this id; people read `deviceIdLabel` ("CPU, 2 threads"). Pure.
 */
import { count } from '../text/plural.js';

declare const DEVICE_ID: unique symbol;

/** A profiled device's id on its machine; make one with `deviceIdOf`, read one with `parseDeviceId`. */
export type DeviceId = string & { readonly [DEVICE_ID]: true };

/** What a device id is made of: as stored with every run and measurement. */
export interface DeviceIdParts {
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
}

/** The execution provider a device key implies: its kind ("cuda" for "cuda:0"). */
const ownProvider = (deviceKey: string): string => deviceKey.replace(/:\d+$/, '');

/** `/`, `@` and `%` inside a part are written %XX, so that any stored key makes an id that parses back. */
const escapePart = (s: string): string =>
  s.replace(/[%/@]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

const unescapePart = (s: string): string =>
  s.replace(/%([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

export function deviceIdOf(p: DeviceIdParts): DeviceId {
  const ep = p.executionProvider === ownProvider(p.deviceKey) ? '' : `/${escapePart(p.executionProvider)}`;
  const threads = p.threads === null ? '' : `@${p.threads}t`;
  return `${escapePart(p.deviceKey)}${ep}${threads}` as DeviceId;
}

const ID = /^([^/@]+)(?:\/([^/@]+))?(?:@(0|[1-9]\d*)t)?$/;

/** The parts of an id `deviceIdOf` made; null for any other text. */
export function parseDeviceId(id: string): DeviceIdParts | null {
  const m = ID.exec(id);
  if (!m?.[1]) return null;
  const deviceKey = unescapePart(m[1]);
  const parts: DeviceIdParts = {
    deviceKey,
    executionProvider: m[2] === undefined ? ownProvider(deviceKey) : unescapePart(m[2]),
    threads: m[3] === undefined ? null : Number(m[3]),
  };
  return deviceIdOf(parts) === id ? parts : null;
}

/** Whether a text is a device id (one `deviceIdOf` makes). */
export const isDeviceId = (s: string): s is DeviceId => parseDeviceId(s) !== null;

/** For people: "CPU, 2 threads", "cuda:0", "CPU (torch-cpu), 4 threads", "cuda:0 (torch-cuda)". */
export function deviceIdLabel(p: DeviceIdParts): string {
  const name = p.deviceKey === 'cpu' ? 'CPU' : p.deviceKey;
  const ep = p.executionProvider === ownProvider(p.deviceKey) ? '' : ` (${p.executionProvider})`;
  const threads = p.threads === null ? '' : `, ${count(p.threads, 'thread')}`;
  return `${name}${ep}${threads}`;
}
