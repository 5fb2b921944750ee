/**
 * The real profiler dependencies: a kernel-runner child process on this machine, the PyTorch
 * backend's Python child (started only when a torch target is profiled), and nvidia-smi.
 */
import { cudaUnavailableReason } from '../../adapters/ort/ep-options.js';
import { ProfileRunner } from '../../adapters/ort/profile-runner.js';
import { localClockSampler } from '../../adapters/nvidia-smi/sample-clocks.js';
import { TorchRunner } from '../../adapters/torch/torch-runner.js';
import { readCpuTimes } from '../../adapters/system/cpu-times.js';
import { conditionsOff } from './run-conditions-service.js';
import type { EpConfig } from '../../core/domain/execution-provider.js';
import type { Database } from '../../adapters/store/types.js';
import type { ProfilerDeps } from './profiler-types.js';

export function localProfilerDeps(db: Database, env: NodeJS.ProcessEnv = process.env, python?: string): ProfilerDeps {
  return {
    db,
    runner: ProfileRunner.local({ env }),
    torch: new TorchRunner({ env, ...(python ? { python } : {}) }),
    now: () => new Date(),
    epUnavailable: (ep: EpConfig) => (ep.name === 'cuda' ? cudaUnavailableReason() : null),
    // SM clock, temperature, power and throttle reasons around every batch on a CUDA GPU.
    gpuClocks: localClockSampler(env),
    // The host's CPU times around a CPU run (/proc/stat; null elsewhere): load before and after, steal.
    ...(conditionsOff(env) ? {} : { cpuTimes: () => readCpuTimes() }),
  };
}
