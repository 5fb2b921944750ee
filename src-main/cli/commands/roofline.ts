import { rooflines } from '../../services/profile/roofline-service.js';
import type { Command } from '../command.js';
import { MACHINE_OPTION, deviceOption } from '../device-options.js';
import { renderDatasheetChecks, renderRoofline } from '../render/profile.js';
import { datasheetChecks } from '../../services/predict/datasheet-check-service.js';

export const rooflineCommand: Command = {
  name: 'roofline',
  summary: 'print the measured peak compute, memory bandwidth and ridge point of each profiled device',
  usage: '[--device cpu|cuda:N|webgpu:N] [--machine ID] [--datasheet] [--json]',
  details:
    'Figures are what the micro-kernels achieved, next to the CPU theoretical peak (cores x max boost clock x\n' +
    'FLOP/cycle): unknown, and why, where the OS reports no boost clock or a measured peak needs a faster one.\n' +
    '--datasheet: every profiled GPU of the store that the datasheet catalog knows, its kernels predicted on\n' +
    'its datasheet device (as `plan --virtual` builds it) against what was measured, error per op family.',
  options: {
    device: deviceOption('(default: every profiled device)'),
    machine: MACHINE_OPTION,
    datasheet: { type: 'boolean', description: 'check the datasheet estimates against the measured GPUs' },
  },
  async run(ctx, opts) {
    if (opts.datasheet === true) {
      const checks = datasheetChecks(ctx.database());
      if (ctx.json) ctx.printJson({ datasheetChecks: checks });
      else ctx.print(renderDatasheetChecks(checks));
      return;
    }
    const rows = rooflines(
      ctx.database(),
      typeof opts.machine === 'string' ? opts.machine : undefined,
      typeof opts.device === 'string' ? opts.device : undefined,
    );
    if (ctx.json) {
      ctx.printJson({ rooflines: rows });
      return;
    }
    if (!rows.length) {
      ctx.print('No measurements yet. Run `pipedejavu profile --suite quick` first.');
      return;
    }
    ctx.print(renderRoofline(rows));
  },
};
