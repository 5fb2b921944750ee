import { writeFileAtomic } from '../../adapters/files/write-file-atomic.js';
import { exportProfile } from '../../services/profile-exchange-service.js';
import { runtimeVersions } from '../../services/runtime-versions.js';
import type { Command } from '../command.js';

export const exportCommand: Command = {
  name: 'export',
  summary: 'write a machine (probe, devices, links, measurements) to a hardware-profile file',
  usage: '[--machine ID] [--out FILE] [--with-predictors] [--json]',
  details:
    'Without --out (or with --out -) the profile goes to stdout. The format is documented by\n' +
    'schemas/hardware-profile.v1.schema.json; `pipedejavu import` reads it on another machine.\n' +
    'Trained predictors stay behind unless --with-predictors (the importer trains its own from the\n' +
    'measurements; a random forest alone can be tens of MB).',
  options: {
    machine: { type: 'string', valueName: 'ID', description: 'machine id or label (default: this machine)' },
    out: { type: 'string', short: 'o', valueName: 'FILE', description: 'file to write (default: stdout)' },
    'with-predictors': { type: 'boolean', description: "include the machine's newest trained predictors" },
  },
  async run(ctx, opts) {
    const result = exportProfile(ctx.database(), typeof opts.machine === 'string' ? opts.machine : undefined, {
      now: () => new Date(),
      runtimes: runtimeVersions(),
      withPredictors: opts['with-predictors'] === true,
    });
    const out = typeof opts.out === 'string' ? opts.out : undefined;
    if (!out || out === '-') {
      ctx.io.stdout(result.text);
      return;
    }
    writeFileAtomic(out, result.text, { protect: [ctx.dbPath] });
    const summary = { file: out, machineId: result.machineId, label: result.label, ...result.counts };
    if (ctx.json) ctx.printJson(summary);
    else
      ctx.print(
        `Exported ${result.label} (${result.machineId}): ${result.counts.devices} devices, ${result.counts.runs} profile runs, ${result.counts.measurements} measurements -> ${out}`,
      );
  },
};
