/** What `--device` and `--threads` name on this machine, before anything is profiled. */
import { describe, expect, it } from 'vitest';
import type { MachineDetail } from '../../../../src-main/adapters/store/machine-repo.js';
import { devicesFromProbe } from '../../../../src-main/core/domain/devices.js';
import {
  defaultProfileThreads,
  defaultThreadCounts,
  parseBackends,
  parseThreads,
  resolveTargets,
} from '../../../../src-main/services/profile/device-targets.js';
import { serverProbe } from '../../../helpers/sample-probe.js';

function machine(gpus: number): MachineDetail {
  const probe = serverProbe('box', gpus);
  return { id: 'm1', probe, devices: devicesFromProbe(probe) } as MachineDetail;
}

describe('resolveTargets', () => {
  it('gives the CPU at each thread count, a named GPU, or everything with WebGPU', () => {
    const m = machine(2);
    expect(resolveTargets(m, 'cpu', [1, 8])).toEqual([
      { machineId: 'm1', deviceKey: 'cpu', ep: { name: 'cpu', threads: 1 } },
      { machineId: 'm1', deviceKey: 'cpu', ep: { name: 'cpu', threads: 8 } },
    ]);
    expect(resolveTargets(m, 'cuda:1', [1])).toEqual([
      { machineId: 'm1', deviceKey: 'cuda:1', ep: { name: 'cuda', deviceId: 1 } },
    ]);
    expect(resolveTargets(m, 'all', [4]).map((t) => t.deviceKey)).toEqual(['cpu', 'cuda:0', 'cuda:1', 'webgpu:0']);
    expect(resolveTargets(m, 'webgpu:2', [4])).toEqual([
      { machineId: 'm1', deviceKey: 'webgpu:2', ep: { name: 'webgpu', deviceId: 2 } },
    ]);
  });

  it('refuses a GPU the machine lacks and a device it cannot name', () => {
    expect(() => resolveTargets(machine(1), 'cuda:3', [1])).toThrow(
      'no GPU cuda:3 on this machine (it has cuda:0; rerun pipedejavu probe after adding one)',
    );
    expect(() => resolveTargets(machine(0), 'cuda:0', [1])).toThrow(/nvidia-smi found none/);
    expect(() => resolveTargets(machine(0), 'tpu', [1])).toThrow(
      '--device takes cpu, cuda:N, webgpu:N or all; got "tpu"',
    );
  });
});

describe('thread counts', () => {
  it('defaults to 1 and every physical core, and reads a list', () => {
    expect(defaultProfileThreads(16)).toEqual([1, 16]);
    expect(defaultProfileThreads(1)).toEqual([1]);
    expect(defaultThreadCounts(machine(0))).toEqual([1, machine(0).probe.cpu.physicalCores]);
    expect(parseThreads('8, 1,8')).toEqual([8, 1]);
    expect(() => parseThreads('0')).toThrow(
      '--threads takes thread counts like 4 or 1,8, each from 1 to 1024; got "0"',
    );
    expect(() => parseThreads('2.5')).toThrow(/--threads takes thread counts/);
  });
});

describe('resolveTargets with the PyTorch backend', () => {
  it('adds PyTorch on the CPU at each thread count and on each CUDA GPU, never on WebGPU', () => {
    const m = machine(2);
    expect(resolveTargets(m, 'all', [1, 4], ['ort', 'torch']).map((t) => `${t.deviceKey}/${t.ep.name}`)).toEqual([
      'cpu/cpu',
      'cpu/cpu',
      'cuda:0/cuda',
      'cuda:1/cuda',
      'webgpu:0/webgpu',
      'cpu/torch-cpu',
      'cpu/torch-cpu',
      'cuda:0/torch-cuda',
      'cuda:1/torch-cuda',
    ]);
    expect(resolveTargets(m, 'cuda:1', [1], ['torch'])).toEqual([
      { machineId: 'm1', deviceKey: 'cuda:1', ep: { name: 'torch-cuda', deviceId: 1 } },
    ]);
    expect(resolveTargets(m, 'cpu', [8], ['torch'])).toEqual([
      { machineId: 'm1', deviceKey: 'cpu', ep: { name: 'torch-cpu', threads: 8 } },
    ]);
    expect(resolveTargets(m, 'webgpu:0', [1], ['torch'])).toEqual([]);
  });

  it('still refuses a GPU the machine lacks, and names its backends', () => {
    expect(() => resolveTargets(machine(1), 'cuda:3', [1], ['torch'])).toThrow(/no GPU cuda:3 on this machine/);
    expect(parseBackends('all')).toEqual(['ort', 'torch']);
    expect(parseBackends('torch')).toEqual(['torch']);
    expect(() => parseBackends('tensorflow')).toThrow('--backend takes ort, torch or all; got "tensorflow"');
  });
});
