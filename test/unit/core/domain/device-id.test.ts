import { describe, expect, it } from 'vitest';
import {
  deviceIdLabel,
  deviceIdOf,
  machineDeviceId,
  parseDeviceId,
  physicalDeviceCount,
  type DeviceIdParts,
} from '../../../../src-main/core/domain/device-id.js';

const cpu = (threads: number | null): DeviceIdParts => ({ deviceKey: 'cpu', executionProvider: 'cpu', threads });

describe('device ids', () => {
  it('tells one CPU at two thread counts apart', () => {
    expect(deviceIdOf(cpu(1))).toBe('cpu@1t');
    expect(deviceIdOf(cpu(2))).toBe('cpu@2t');
    expect(deviceIdOf(cpu(1))).not.toBe(deviceIdOf(cpu(2)));
  });

  it('names the execution provider only when it is not the device key own', () => {
    expect(deviceIdOf({ deviceKey: 'cuda:0', executionProvider: 'cuda', threads: null })).toBe('cuda:0');
    expect(deviceIdOf({ deviceKey: 'webgpu:1', executionProvider: 'webgpu', threads: null })).toBe('webgpu:1');
    expect(deviceIdOf({ deviceKey: 'cuda:0', executionProvider: 'torch-cuda', threads: null })).toBe(
      'cuda:0/torch-cuda',
    );
    expect(deviceIdOf({ deviceKey: 'cpu', executionProvider: 'torch-cpu', threads: 4 })).toBe('cpu/torch-cpu@4t');
    expect(deviceIdOf(cpu(null))).toBe('cpu');
  });

  it('parses back every id it makes, odd stored keys included', () => {
    const all: DeviceIdParts[] = [
      cpu(1),
      cpu(16),
      cpu(null),
      cpu(0),
      { deviceKey: 'cuda:3', executionProvider: 'cuda', threads: null },
      { deviceKey: 'cuda:0', executionProvider: 'torch-cuda', threads: null },
      { deviceKey: 'cpu', executionProvider: 'torch-cpu', threads: 2 },
      { deviceKey: 'odd/key@x%', executionProvider: 'ep/@', threads: 3 },
    ];
    for (const p of all) expect(parseDeviceId(deviceIdOf(p))).toEqual(p);
    expect(new Set(all.map(deviceIdOf)).size).toBe(all.length);
  });

  it('refuses text that is not an id', () => {
    for (const s of ['', 'cpu@', 'cpu@2', 'cpu@t', 'cpu/cpu@2t', 'cpu@02t', 'a/b/c', 'cpu@1t@2t', 'x%zz'])
      expect(parseDeviceId(s), s).toBeNull();
  });

  it('labels devices for people, apart from the id', () => {
    expect(deviceIdLabel(cpu(1))).toBe('CPU, 1 thread');
    expect(deviceIdLabel(cpu(2))).toBe('CPU, 2 threads');
    expect(deviceIdLabel(cpu(null))).toBe('CPU');
    expect(deviceIdLabel({ deviceKey: 'cuda:0', executionProvider: 'cuda', threads: null })).toBe('cuda:0');
    expect(deviceIdLabel({ deviceKey: 'cpu', executionProvider: 'torch-cpu', threads: 4 })).toBe(
      'CPU (torch-cpu), 4 threads',
    );
  });
});

describe('machineDeviceId', () => {
  it('names a device across machines: machine, device key, execution provider, then the threads', () => {
    expect(machineDeviceId('m-3f2a9c', 'cpu', 'cpu', 2)).toBe('m-3f2a9c/cpu/cpu/2t');
    expect(machineDeviceId('m-3f2a9c', 'cuda:0', 'cuda', null)).toBe('m-3f2a9c/cuda:0/cuda');
    expect(machineDeviceId('m-3f2a9c', 'cpu', 'torch-cpu', 4)).toBe('m-3f2a9c/cpu/torch-cpu/4t');
  });
});

describe('physicalDeviceCount', () => {
  it('counts a device once whatever its thread counts and providers, per machine', () => {
    const ids = [
      machineDeviceId('m1', 'cpu', 'cpu', 1),
      machineDeviceId('m1', 'cpu', 'cpu', 2),
      machineDeviceId('m1', 'cpu', 'torch-cpu', 4),
      machineDeviceId('m1', 'cuda:0', 'cuda', null),
      machineDeviceId('m2', 'cpu', 'cpu', 1),
    ];
    expect(physicalDeviceCount(ids)).toBe(3);
    expect(physicalDeviceCount([])).toBe(0);
  });
});
