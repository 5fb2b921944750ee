/**
 * The ids of a profiled device. A device is a device key ("cpu", "cuda:0", "webgpu:0") run by one
 * execution provider at one thread count (on a CPU): one CPU profiled at 1 and at 2 threads is two
 * devices. It has two written forms, each with its type here:
 * - `DeviceId`, on its own machine, as every API result names it: `cpu@2t`, `cuda:0`,
 *   `cpu/torch-cpu@4t`, `cuda:0/torch-cuda` (the provider only when it is not the key's own).
 *   Lists and maps of one machine's devices key on it; people read `deviceIdLabel`.
 * - `MachineDeviceId`, across the machines of the database, as training, evaluation and
 *   predictions name it: `machineId/deviceKey/executionProvider[/Nt]`.
 * (The planner names a plan's devices `machine/deviceKey`, e.g. "lab-ws-01/cuda:3": PlanDevice.id.)
 * Pure.
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

/** For people: "CPU, 2 threads", "cuda:0", "CPU (torch-cpu), 4 threads", "cuda:0 (torch-cuda)". */
export function deviceIdLabel(p: DeviceIdParts): string {
  const name = p.deviceKey === 'cpu' ? 'CPU' : p.deviceKey;
  const ep = p.executionProvider === ownProvider(p.deviceKey) ? '' : ` (${p.executionProvider})`;
  const threads = p.threads === null ? '' : `, ${count(p.threads, 'thread')}`;
  return `${name}${ep}${threads}`;
}

/**
 * A device across the machines of the database, as training samples, evaluation reports and
 * predictions name it: `machineId/deviceKey/executionProvider`, then `/Nt` with a thread count:
 * `m-3f2a9c/cpu/cpu/2t`, `m-3f2a9c/cuda:0/cuda`, `m-3f2a9c/cpu/torch-cpu/4t`. Machine ids are
 * `[A-Za-z0-9_-]` (the profile schema), so the first `/` ends the machine. Stored evaluation
 * reports keep these ids: the form does not change. Make one with `machineDeviceId`.
 */
export type MachineDeviceId = string;

/** The id of a device across machines (MachineDeviceId's form). */
export function machineDeviceId(
  machineId: string,
  deviceKey: string,
  executionProvider: string,
  threads: number | null,
): MachineDeviceId {
  return `${machineId}/${deviceKey}/${executionProvider}${threads === null ? '' : `/${threads}t`}`;
}

/**
 * How many devices the ids name: one CPU profiled at 1 and at 2 threads, or by two providers, is
 * one device here (the machine and the device key), though it is two ids. The count `train`,
 * `evaluate`, `export` and the app give.
 */
export function physicalDeviceCount(ids: readonly MachineDeviceId[]): number {
  return new Set(ids.map((id) => id.split('/').slice(0, 2).join('/'))).size;
}
