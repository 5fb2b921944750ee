import { UsageError } from '../../core/errors.js';
import { KernelRunner } from '../../adapters/ort/kernel-runner.js';
import { measureModel } from '../../services/measure/measure-model-service.js';
import type { Command } from '../command.js';
import { renderMeasurement } from '../render/workload.js';
import { deviceNameOf } from '../../services/predict/device-names.js';
import { WORKLOAD_OPTIONS, workloadSpecOptions } from '../workload-options.js';
import { PROFILED_DEVICE_OPTIONS, profiledDeviceQuery } from '../device-options.js';
import { localConditionsProbe } from '../../services/profile/run-conditions-service.js';
import { localStateTimer } from '../../services/measure/machine-state-probe.js';

export const measureModelCommand: Command = {
  name: 'measure-model',
  summary: 'run a real ONNX model on ONNX Runtime with its ORT trace; measured against predicted, per node',
  usage: 'MODEL.onnx --device D [--threads N] [--dim ..] [--input ..] [--trace FILE] [--json]',
  details:
    'Measured nodes are stored as measurements, so the next `pipedejavu train` learns from your model.\n' +
    'End-to-end times come from runs with the ORT trace (ONNX Runtime’s profiler) off: it costs\n' +
    'microseconds per node. A short traced pass after them only attributes time to nodes. --trace FILE\n' +
    'keeps the ORT trace of that pass (Chrome trace JSON: open it in https://ui.perfetto.dev or\n' +
    'chrome://tracing); its times are traced ones.',
  options: {
    ...WORKLOAD_OPTIONS,
    ...PROFILED_DEVICE_OPTIONS,
    trace: {
      type: 'string',
      valueName: 'FILE',
      description: 'keep the ORT trace of the model (Chrome trace JSON, for Perfetto) in FILE',
    },
  },
  positionals: { min: 1, max: 1, names: 'MODEL.onnx' },
  async run(ctx, opts, [spec]) {
    if (typeof opts.device !== 'string') throw new UsageError('measure-model: --device is required');
    const device = profiledDeviceQuery(opts, opts.device);
    const trace = typeof opts.trace === 'string' ? opts.trace : undefined;
    if (trace !== undefined && trace.trim() === '') throw new UsageError('--trace needs a file name');
    const runner = new KernelRunner({ env: ctx.io.env });
    try {
      const m = await measureModel(ctx.database(), runner, spec as string, {
        ...workloadSpecOptions(opts),
        ...device,
        ...(trace !== undefined ? { traceFile: trace } : {}),
        // Load around the timing (Linux /proc/stat): a time taken under load says so.
        conditions: localConditionsProbe(ctx.io.env),
        // The profile's calibration model before and after: a time taken off the profiled speed is no check of the band.
        machineState: localStateTimer(ctx.io.env, runner),
      });
      if (ctx.json) ctx.printJson(m);
      else {
        ctx.print(renderMeasurement(m, deviceNameOf(ctx.database(), m.device)));
        if (m.trace)
          ctx.printLine(
            `Trace: ${m.trace.file} (the ORT trace of ${m.trace.runs} traced runs, a warm-up first;` +
              ' open it in https://ui.perfetto.dev or chrome://tracing). The end-to-end times above come from the untraced runs.',
          );
      }
    } finally {
      await runner.close();
    }
  },
};
