import { UsageError } from '../../core/errors.js';
import { quoted } from '../../core/text/shown.js';
import { listMachines } from '../../services/machine/machine-service.js';
import { removeImportedMachine } from '../../services/machine/removal-service.js';
import type { Command } from '../command.js';
import { formatTable } from '../output.js';

export const machinesCommand: Command = {
  name: 'machines',
  summary: 'list the machines in the store: this one (after probe) and imported ones',
  usage: '[remove ID|LABEL] [--json]',
  details: '`machines remove ID` deletes an imported machine with its runs, measurements and predictors.',
  options: {},
  subcommands: ['remove'],
  positionals: { min: 0, max: 2, names: 'remove ID' },
  async run(ctx, _opts, [sub, id]) {
    if (sub !== undefined) {
      if (sub !== 'remove') throw new UsageError(`machines: unknown subcommand ${quoted(sub)}; use remove ID`);
      if (!id) throw new UsageError('machines remove: missing ID or LABEL');
      const r = removeImportedMachine(ctx.database(), id);
      if (ctx.json) ctx.printJson({ removed: r });
      else ctx.printLine(`Removed ${r.label} (${r.id}) with its runs, measurements and predictors`);
      return;
    }
    const machines = listMachines(ctx.database());
    if (ctx.json) {
      ctx.printJson({ machines });
      return;
    }
    if (machines.length === 0) {
      ctx.print('No machines yet. Run `pipedejavu probe` to record this one, or `pipedejavu import FILE`.');
      return;
    }
    ctx.print(
      formatTable(
        ['MACHINE', 'SOURCE', 'DEVICES', 'RUNS', 'MEASUREMENTS', 'UPDATED'],
        machines.map((m) => [
          `${m.label} (id ${m.id})`,
          m.source,
          m.deviceCount,
          m.runCount,
          m.measurementCount,
          m.updatedAt,
        ]),
      ),
    );
  },
};
