import { UsageError } from '../../core/errors.js';
import { KernelRunner } from '../../adapters/ort/kernel-runner.js';
import { measureModel } from '../../services/measure-model-service.js';
import type { Command } from '../command.js';
import { renderMeasurement } from '../render/workload.js';
import { MAX_THREADS, WORKLOAD_OPTIONS, positiveInt, workloadSpecOptions } from '../workload-options.js';

export const measureModelCommand: Command = {
  name: 'measure-model',
  summary: 'run a real ONNX model on ONNX Runtime with profiling; measured against predicted, per node',
  usage: 'MODEL.onnx --device D [--threads N] [--dim ..] [--input ..] [--json]',
  details: 'Measured nodes are stored as measurements, so the next `pipedejavu train` learns from your model.',
  options: {
    ...WORKLOAD_OPTIONS,
    device: { type: 'string', valueName: 'DEVICE', description: 'cpu, cuda:N, webgpu:N' },
    threads: {
      type: 'string',
      valueName: 'N',
      description: 'CPU threads (default: the profiled count with most data)',
    },
  },
  positionals: { min: 1, max: 1, names: 'MODEL.onnx' },
  async run(ctx, opts, [spec]) {
    if (typeof opts.device !== 'string') throw new UsageError('measure-model: --device is required');
    const threads = typeof opts.threads === 'string' ? positiveInt('--threads', opts.threads, MAX_THREADS) : undefined;
    const runner = new KernelRunner({ env: ctx.io.env });
    try {
      const m = await measureModel(ctx.database(), runner, spec as string, {
        ...workloadSpecOptions(opts),
        device: opts.device,
        ...(threads !== undefined ? { threads } : {}),
      });
      if (ctx.json) ctx.printJson(m);
      else ctx.print(renderMeasurement(m));
    } finally {
      await runner.close();
    }
  },
};
