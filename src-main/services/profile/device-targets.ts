/**
 * Which devices `--device` names on this machine, and the execution provider and
 * thread counts each is profiled with.
 */
import { REQUEST_LIMITS } from '../../core/workload/limits.js';
import { quoted } from '../../core/text/shown.js';
import { BACKENDS, type Backend } from '../../core/domain/execution-provider.js';
import { UsageError } from '../../core/errors.js';
import type { MachineDetail } from '../../adapters/store/machine-repo.js';
import type { SuiteName } from '../../core/kernels/suites.js';
import type { ProfileTarget } from './profiler-types.js';

/** The suite `pipedejavu profile` runs when none is named (README: what each suite buys). */
export const DEFAULT_SUITE: SuiteName = 'quick';

/** CPU thread counts a user would run: 1 and all physical cores (ORT's default). */
export function defaultProfileThreads(physicalCores: number): number[] {
  return [...new Set([1, Math.max(1, physicalCores)])];
}

export function defaultThreadCounts(machine: MachineDetail): number[] {
  return defaultProfileThreads(machine.probe.cpu.physicalCores);
}

export function parseThreads(value: string): number[] {
  const { min, max } = REQUEST_LIMITS.threads;
  const parts = value.split(',').map((s) => s.trim());
  const nums = parts.map(Number);
  if (!parts.length || nums.some((n) => !Number.isInteger(n) || n < min || n > max)) {
    throw new UsageError(
      `--threads takes thread counts like 4 or 1,8, each from ${min} to ${max}; got ${quoted(value)}`,
    );
  }
  return [...new Set(nums)];
}

/**
 * The targets `--device` and `--backend` name: ONNX Runtime's providers (cpu at each thread
 * count, cuda:N, webgpu:N) and, with the torch backend, PyTorch on the CPU at each thread count
 * and on each CUDA GPU (stored as torch-cpu and torch-cuda on the same device keys).
 */
export function resolveTargets(
  machine: MachineDetail,
  device: string,
  threads: number[],
  backends: readonly Backend[] = ['ort'],
): ProfileTarget[] {
  const ort = backends.includes('ort') ? ortTargets(machine, device, threads) : checkDevice(machine, device);
  return backends.includes('torch') ? [...ort, ...torchTargets(machine, device, threads)] : ort;
}

/** The backends `--backend` names: ort, torch or all. */
export function parseBackends(value: string): Backend[] {
  if (value === 'all') return [...BACKENDS];
  if ((BACKENDS as readonly string[]).includes(value)) return [value as Backend];
  throw new UsageError(`--backend takes ort, torch or all; got ${quoted(value)}`);
}

/** No ONNX Runtime targets, but the device must still be one this machine has. */
function checkDevice(machine: MachineDetail, device: string): ProfileTarget[] {
  ortTargets(machine, device, [1]);
  return [];
}

function torchTargets(machine: MachineDetail, device: string, threads: number[]): ProfileTarget[] {
  const gpus = machine.devices.filter((d) => d.kind === 'gpu').map((d) => d.key);
  const cpu = threads.map<ProfileTarget>((t) => ({
    machineId: machine.id,
    deviceKey: 'cpu',
    ep: { name: 'torch-cpu', threads: t },
  }));
  const gpu = (key: string): ProfileTarget => ({
    machineId: machine.id,
    deviceKey: key,
    ep: { name: 'torch-cuda', deviceId: Number(key.slice('cuda:'.length)) },
  });
  if (device === 'all') return [...cpu, ...gpus.map(gpu)];
  if (device === 'cpu') return cpu;
  return /^cuda:\d+$/.test(device) ? [gpu(device)] : [];
}

function ortTargets(machine: MachineDetail, device: string, threads: number[]): ProfileTarget[] {
  const gpus = machine.devices.filter((d) => d.kind === 'gpu').map((d) => d.key);
  const cpuTargets = threads.map<ProfileTarget>((t) => ({
    machineId: machine.id,
    deviceKey: 'cpu',
    ep: { name: 'cpu', threads: t },
  }));
  const gpuTarget = (key: string): ProfileTarget => ({
    machineId: machine.id,
    deviceKey: key,
    ep: { name: 'cuda', deviceId: Number(key.slice('cuda:'.length)) },
  });
  if (device === 'all') {
    return [
      ...cpuTargets,
      ...gpus.map(gpuTarget),
      { machineId: machine.id, deviceKey: 'webgpu:0', ep: { name: 'webgpu', deviceId: 0 } },
    ];
  }
  if (device === 'cpu') return cpuTargets;
  if (/^cuda:\d+$/.test(device)) {
    if (!gpus.includes(device)) {
      throw new UsageError(
        `no GPU ${device} on this machine (${gpus.length ? `it has ${gpus.join(', ')}` : 'nvidia-smi found none'}; rerun pipedejavu probe after adding one)`,
      );
    }
    return [gpuTarget(device)];
  }
  const webgpu = /^webgpu:(\d+)$/.exec(device);
  if (webgpu)
    return [{ machineId: machine.id, deviceKey: device, ep: { name: 'webgpu', deviceId: Number(webgpu[1]) } }];
  throw new UsageError(`--device takes cpu, cuda:N, webgpu:N or all; got ${quoted(device)}`);
}
