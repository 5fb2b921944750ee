import { listMachines } from '../../services/machine-service.js';
import type { Command } from '../command.js';
import { formatTable } from '../output.js';

export const machinesCommand: Command = {
  name: 'machines',
  summary: 'list the machines in the store: this one (after probe) and imported ones',
  usage: '[--json]',
  options: {},
  async run(ctx) {
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
        ['ID', 'LABEL', 'SOURCE', 'DEVICES', 'RUNS', 'MEASUREMENTS', 'UPDATED'],
        machines.map((m) => [m.id, m.label, m.source, m.deviceCount, m.runCount, m.measurementCount, m.updatedAt]),
      ),
    );
  },
};
