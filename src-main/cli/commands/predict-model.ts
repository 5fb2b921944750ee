import { UsageError } from '../../core/errors.js';
import { KernelRunner } from '../../adapters/ort/kernel-runner.js';
import { predictModelExecuted } from '../../services/model-prediction-service.js';
import type { Command } from '../command.js';
import { renderPrediction } from '../render/workload.js';
import { MAX_THREADS, WORKLOAD_OPTIONS, positiveInt, workloadSpecOptions } from '../workload-options.js';

export const predictModelCommand: Command = {
  name: 'predict-model',
  summary: 'predict a whole model on a profiled device: total, per layer, per node, per op family',
  usage:
    'MODEL.onnx|CATALOG-NAME|WORKLOAD --device D [--threads N] [--mode inference|training] [--dim ..] [--input ..] [--json]',
  options: {
    ...WORKLOAD_OPTIONS,
    device: { type: 'string', valueName: 'DEVICE', description: 'cpu, cuda:N, webgpu:N' },
    threads: {
      type: 'string',
      valueName: 'N',
      description: 'CPU thread count profiled (default: the one with most data)',
    },
    mode: { type: 'string', valueName: 'MODE', description: 'inference (default) or training (forward + backward)' },
    predictor: {
      type: 'string',
      valueName: 'NAME',
      description: 'forest, analytical, linear or roofline (default: best trained)',
    },
    machine: { type: 'string', valueName: 'ID', description: 'an imported machine (default: this one)' },
  },
  positionals: { min: 1, max: 1, names: 'MODEL.onnx or a catalog name' },
  async run(ctx, opts, [spec]) {
    if (typeof opts.device !== 'string') throw new UsageError('predict-model: --device is required');
    const mode = typeof opts.mode === 'string' ? opts.mode : 'inference';
    if (mode !== 'inference' && mode !== 'training')
      throw new UsageError(`--mode takes inference or training; got "${mode}"`);
    const threads = typeof opts.threads === 'string' ? positiveInt('--threads', opts.threads, MAX_THREADS) : undefined;
    const runner = new KernelRunner({ env: ctx.io.env });
    let p;
    try {
      p = await predictModelExecuted(ctx.database(), runner, spec as string, {
        ...workloadSpecOptions(opts),
        mode,
        device: opts.device,
        ...(threads !== undefined ? { threads } : {}),
        ...(typeof opts.predictor === 'string' ? { predictor: opts.predictor } : {}),
        ...(typeof opts.machine === 'string' ? { machine: opts.machine } : {}),
      });
    } finally {
      await runner.close();
    }
    if (ctx.json) ctx.printJson({ ...p, totalMs: p.totalUs / 1000, lowMs: p.lowUs / 1000, highMs: p.highUs / 1000 });
    else ctx.print(renderPrediction(p));
  },
};
