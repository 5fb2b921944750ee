import { rooflines } from '../../services/roofline-service.js';
import type { Command } from '../command.js';
import { renderRoofline } from '../render/profile.js';

export const rooflineCommand: Command = {
  name: 'roofline',
  summary: 'print the measured peak compute, memory bandwidth and ridge point of each profiled device',
  usage: '[--device cpu|cuda:N|webgpu:N] [--machine ID] [--json]',
  details:
    'Figures are what the micro-kernels achieved, next to the CPU theoretical peak (cores x clock x FLOP/cycle).',
  options: {
    device: { type: 'string', valueName: 'DEVICE', description: 'only this device' },
    machine: { type: 'string', valueName: 'ID', description: 'an imported machine (default: this one)' },
  },
  async run(ctx, opts) {
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
