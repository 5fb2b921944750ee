import { UserError } from '../../core/errors.js';
import { localDoctorDeps, runDoctor } from '../../services/machine/doctor-service.js';
import type { Command } from '../command.js';
import { SMI_OPTIONS, smiOptions } from '../smi-options.js';
import { formatTable } from '../output.js';
import { count } from '../../core/text/plural.js';

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'check what this machine can run: runtimes, execution providers, PyTorch, nvidia-smi, the database',
  usage: '[--json] [--nvidia-smi PATH] [--timeout SECONDS]',
  details:
    'One line per check: Node, ONNX Runtime and its CPU, CUDA and WebGPU providers (and why one cannot\n' +
    'load), PyTorch for the torch backend, nvidia-smi with the driver and GPUs, the database path and the\n' +
    'filesystem it is on (a network filesystem is refused), whether the CLI can open and write it (a\n' +
    'file that is not a database, a folder, a device, a read-only file: the reason, and the file is left\n' +
    'as it was), and the free disk beside it. Exit 1 when a check fails, naming it and why; warnings (an\n' +
    'optional part missing) keep exit 0.',
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
        `${count(failed.length, 'check')} failed: ${failed.map((c) => `${c.name}: ${c.detail}`).join('; ')}`,
      );
    }
  },
};
