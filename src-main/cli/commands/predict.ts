import { UsageError } from '../../core/errors.js';
import { OP_DIMS, KERNEL_OPS } from '../../core/kernels/types.js';
import { predictOp } from '../../services/predict/predictor-service.js';
import { predictOpOnDatasheet } from '../../services/predict/datasheet-prediction-service.js';
import type { Command } from '../command.js';
import { formatTable } from '../output.js';
import {
  MACHINE_OPTION,
  PROFILED_DEVICE_OPTIONS,
  VIRTUAL_OPTION,
  deviceOrVirtual,
  profiledDeviceQuery,
} from '../device-options.js';
import { deviceNameOf } from '../../services/predict/device-names.js';

const fmtUs = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(3)} ms` : `${v.toFixed(1)} µs`);

/** A prediction's band; "-" for a predictor that has none (the roofline's low = high). */
const bandText = (p: { lowUs: number; highUs: number }): string =>
  p.lowUs === p.highUs ? '-' : `${fmtUs(p.lowUs)} - ${fmtUs(p.highUs)}`;

export const predictCommand: Command = {
  name: 'predict',
  summary: 'predict how long one op takes on a profiled device, with its 90% band',
  usage: '--op OP --shape AxBx... --device DEVICE|--virtual GPU [--dtype fp32] [--threads N] [--machine ID] [--json]',
  details: `Shapes by op: ${KERNEL_OPS.filter((o) => !o.startsWith('Copy'))
    .map((o) => `${o} ${OP_DIMS[o].join('x')}`)
    .join('; ')}.`,
  options: {
    op: { type: 'string', valueName: 'OP', description: 'MatMul, Conv, Softmax, ...' },
    shape: { type: 'string', valueName: 'DIMS', description: 'dimensions separated by x, in the order above' },
    dtype: { type: 'string', valueName: 'DTYPE', description: 'fp32, fp16, ... (default fp32)' },
    ...PROFILED_DEVICE_OPTIONS,
    machine: MACHINE_OPTION,
    virtual: VIRTUAL_OPTION,
  },
  async run(ctx, opts) {
    for (const required of ['op', 'shape'] as const) {
      if (typeof opts[required] !== 'string') throw new UsageError(`predict: --${required} is required`);
    }
    const target = deviceOrVirtual('predict', opts);
    const op = {
      op: opts.op as string,
      shape: opts.shape as string,
      dtype: typeof opts.dtype === 'string' ? opts.dtype : 'fp32',
    };
    const r =
      'virtual' in target
        ? predictOpOnDatasheet(ctx.database(), { ...op, gpu: target.virtual })
        : predictOp(ctx.database(), { ...op, ...profiledDeviceQuery(opts, target.device) });
    if (ctx.json) {
      ctx.printJson(r);
      return;
    }
    ctx.printLine(
      `${r.op} ${Object.entries(r.shape)
        .map(([k, v]) => `${k}=${v}`)
        .join(
          ' ',
        )} ${r.dtype} on ${deviceNameOf(ctx.database(), r.device)}: ${(r.flops / 1e9).toFixed(3)} GFLOP, ${(r.bytes / 2 ** 20).toFixed(1)} MiB`,
    );
    ctx.print(
      formatTable(
        ['PREDICTOR', 'TIME', '90% BAND'],
        r.predictions.map((p) => [p.predictor, fmtUs(p.timeUs), bandText(p)]),
      ),
    );
    for (const w of r.warnings) ctx.printLine(`warning: ${w}`);
  },
};
