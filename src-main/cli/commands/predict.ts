import { UsageError } from '../../core/errors.js';
import { OP_DIMS, KERNEL_OPS } from '../../core/kernels/types.js';
import { predictOp } from '../../services/predictor-service.js';
import { predictOpOnDatasheet } from '../../services/datasheet-prediction-service.js';
import type { Command } from '../command.js';
import { formatTable } from '../output.js';
import { MAX_THREADS, positiveInt } from '../workload-options.js';
import { deviceNameOf } from '../../services/device-names.js';

const fmtUs = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(3)} ms` : `${v.toFixed(1)} µs`);

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
    device: { type: 'string', valueName: 'DEVICE', description: 'cpu, cuda:N, webgpu:N' },
    threads: {
      type: 'string',
      valueName: 'N',
      description: 'CPU thread count profiled (default: the most threads profiled, all cores by default)',
    },
    machine: { type: 'string', valueName: 'ID', description: 'an imported machine (default: this one)' },
    virtual: {
      type: 'string',
      valueName: 'GPU',
      description: 'a datasheet GPU instead of a profiled device ("H100 SXM5", "RTX 4090"): no profile needed',
    },
  },
  async run(ctx, opts) {
    for (const required of ['op', 'shape'] as const) {
      if (typeof opts[required] !== 'string') throw new UsageError(`predict: --${required} is required`);
    }
    if (typeof opts.device !== 'string' && typeof opts.virtual !== 'string')
      throw new UsageError('predict: --device or --virtual is required');
    if (typeof opts.device === 'string' && typeof opts.virtual === 'string')
      throw new UsageError('--virtual and --device name different devices: give one');
    const threads = typeof opts.threads === 'string' ? positiveInt('--threads', opts.threads, MAX_THREADS) : undefined;
    const dtype = typeof opts.dtype === 'string' ? opts.dtype : 'fp32';
    const r =
      typeof opts.virtual === 'string'
        ? predictOpOnDatasheet(ctx.database(), {
            op: opts.op as string,
            shape: opts.shape as string,
            dtype,
            gpu: opts.virtual,
          })
        : predictOp(ctx.database(), {
            op: opts.op as string,
            shape: opts.shape as string,
            dtype,
            device: opts.device as string,
            ...(threads !== undefined ? { threads } : {}),
            ...(typeof opts.machine === 'string' ? { machine: opts.machine } : {}),
          });
    if (ctx.json) {
      ctx.printJson(r);
      return;
    }
    ctx.print(
      `${r.op} ${Object.entries(r.shape)
        .map(([k, v]) => `${k}=${v}`)
        .join(
          ' ',
        )} ${r.dtype} on ${deviceNameOf(ctx.database(), r.device)}: ${(r.flops / 1e9).toFixed(3)} GFLOP, ${(r.bytes / 2 ** 20).toFixed(1)} MiB`,
    );
    ctx.print(
      formatTable(
        ['PREDICTOR', 'TIME', '90% BAND'],
        r.predictions.map((p) => [p.predictor, fmtUs(p.timeUs), `${fmtUs(p.lowUs)} - ${fmtUs(p.highUs)}`]),
      ),
    );
    for (const w of r.warnings) ctx.print(`warning: ${w}`);
  },
};
