/**
 * The profiler's ONNX Runtime runner: two children. Micro-kernels run in one that keeps freed
 * memory for reuse (kernel-allocator.ts), so page faults stop spending their time budget; overhead
 * chains, the binding, calibration models and graph optimization run in one that allocates as a
 * user's process does, since the profile fits per-run and per-byte costs from their wall times.
 */
import type { ModelJob, OptimizeJob, OverheadJob, RunJob } from './protocol.js';
import { KernelRunner, type KernelRunnerApi, type KernelRunnerOptions } from './kernel-runner.js';
import { kernelAllocatorEnv } from './kernel-allocator.js';

export class ProfileRunner implements KernelRunnerApi {
  constructor(
    private readonly kernels: KernelRunnerApi,
    private readonly models: KernelRunnerApi,
  ) {}

  /** Both children from one set of options: the kernel child with the kernel allocator's tunables. */
  static local(opts: KernelRunnerOptions = {}): ProfileRunner {
    const env = opts.env ?? process.env;
    return new ProfileRunner(new KernelRunner({ ...opts, env: kernelAllocatorEnv(env) }), new KernelRunner(opts));
  }

  /** Both children at once (ONNX Runtime loads in each); what the kernel child's ORT says about itself. */
  async start(): ReturnType<KernelRunnerApi['start']> {
    const [info] = await Promise.all([this.kernels.start(), this.models.start()]);
    return info;
  }

  run(job: Omit<RunJob, 'id' | 'traceDir'>): ReturnType<KernelRunnerApi['run']> {
    return this.kernels.run(job);
  }

  runOverhead(job: Omit<OverheadJob, 'id' | 'traceDir'>): ReturnType<KernelRunnerApi['runOverhead']> {
    return this.models.runOverhead(job);
  }

  runModel(job: Omit<ModelJob, 'id' | 'traceDir'>): ReturnType<KernelRunnerApi['runModel']> {
    return this.models.runModel(job);
  }

  optimize(job: Omit<OptimizeJob, 'id'>): ReturnType<KernelRunnerApi['optimize']> {
    return this.models.optimize(job);
  }

  kill(): void {
    this.kernels.kill();
    this.models.kill();
  }

  async close(): Promise<void> {
    await Promise.all([this.kernels.close(), this.models.close()]);
  }
}
