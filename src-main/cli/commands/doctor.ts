import { UserError } from '../../core/errors.js';
import { localDoctorDeps, runDoctor } from '../../services/doctor-service.js';
import type { Command } from '../command.js';
import { SMI_OPTIONS, smiOptions } from '../smi-options.js';
import { formatTable } from '../output.js';

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'check what this machine can run: runtimes, execution providers, PyTorch, nvidia-smi, the database',
  usage: '[--json] [--nvidia-smi PATH] [--timeout SECONDS]',
  details:
    'One line per check: Node, ONNX Runtime and its CPU, CUDA and WebGPU providers (and why one cannot\n' +
    'load), PyTorch for the torch backend, nvidia-smi with the driver and GPUs, the database path and the\n' +
    'filesystem it is on (a network filesystem is refused), and the free disk beside it. Exit 1 when a\n' +
    'check fails; warnings (an optional part missing) keep exit 0.',
  options: SMI_OPTIONS,
  async run(ctx, opts) {
    const deps = localDoctorDeps({ env: ctx.io.env, ...smiOptions('doctor', opts) });
    const checks = await runDoctor(deps, { dbPath: ctx.dbPath });
    if (ctx.json) ctx.printJson({ checks });
    else
      ctx.print(
        formatTable(
          ['CHECK', 'STATUS', 'DETAIL'],
          checks.map((c) => [c.name, c.status, c.detail]),
        ),
      );
    const failed = checks.filter((c) => c.status === 'fail');
    if (failed.length > 0) {
      throw new UserError(
        `${failed.length} check${failed.length === 1 ? '' : 's'} failed: ${failed.map((c) => c.name).join(', ')}`,
      );
    }
  },
};
