import { writeFileAtomic } from '../../adapters/files/write-file-atomic.js';
import { UsageError } from '../../core/errors.js';
import { exportArchive } from '../../services/exchange/profile-archive-export.js';
import { exportProfile } from '../../services/exchange/profile-export.js';
import { findMachine } from '../../services/machine/machine-service.js';
import { runtimeVersions } from '../../services/machine/runtime-versions.js';
import type { CliContext } from '../context.js';
import type { Command } from '../command.js';
import { count } from '../../core/text/plural.js';
import { measurementsText } from '../../core/profiler/kernel-counts.js';
import type { ExportCounts } from '../../services/exchange/profile-export.js';

/** "Exported vm (id): 1 device, 1 profile run, 455 measurements (336 kernels + 119 reorders)". */
function exportedLine(m: { label: string; machineId: string; counts: ExportCounts }): string {
  const c = m.counts;
  return `Exported ${m.label} (${m.machineId}): ${count(c.devices, 'device')}, ${count(c.runs, 'profile run')}, ${measurementsText(c.measured)}`;
}

/** Where the text goes: stdout without --out (or with --out -), else the file. */
function write(ctx: CliContext, out: string | undefined, text: string): boolean {
  if (!out || out === '-') {
    ctx.io.stdout(text);
    return false;
  }
  writeFileAtomic(out, text, { protect: [ctx.dbPath] });
  return true;
}

/**
 * The machines --machine names: one id or label as before; a comma-separated list of several.
 * A label that itself holds a comma still names its machine.
 */
function machineNames(ctx: CliContext, value: string): string[] {
  if (!value.includes(',') || findMachine(ctx.database(), value)) return [value];
  const names = value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new UsageError('--machine is empty; name machines like a,b,c (see pipedejavu machines)');
  return names;
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'write machines (probe, devices, links, measurements) to a hardware-profile file or archive',
  usage: '[--machine ID[,ID...] | --all] [--out FILE] [--with-predictors] [--json]',
  details:
    'Without --out (or with --out -) the profile goes to stdout. The format is documented by\n' +
    'schemas/hardware-profile.v1.schema.json; `pipedejavu import` reads it on another machine.\n' +
    'Several machines (--machine a,b,c, or --all for every machine in the store) go into one\n' +
    'profile archive: {"format": "pipedejavu-profile-archive", "formatVersion": 1, "profiles": [...]},\n' +
    'each profile exactly as its own file would be; `pipedejavu import` reads archives too.\n' +
    'Trained predictors stay behind unless --with-predictors (the importer trains its own from the\n' +
    'measurements; a random forest alone can be tens of MB).',
  options: {
    machine: {
      type: 'string',
      valueName: 'ID',
      description: 'machine id or label, or several comma separated (default: this machine)',
    },
    all: { type: 'boolean', description: 'every machine in the store, into one archive' },
    out: { type: 'string', short: 'o', valueName: 'FILE', description: 'file to write (default: stdout)' },
    'with-predictors': { type: 'boolean', description: "include each machine's newest trained predictors" },
  },
  async run(ctx, opts) {
    const machine = typeof opts.machine === 'string' ? opts.machine : undefined;
    const all = opts.all === true;
    if (all && machine !== undefined) throw new UsageError('export: give --machine or --all, not both');
    const out = typeof opts.out === 'string' ? opts.out : undefined;
    const deps = {
      now: () => new Date(),
      runtimes: runtimeVersions(),
      withPredictors: opts['with-predictors'] === true,
    };
    const names = all ? 'all' : machine === undefined ? [] : machineNames(ctx, machine);
    if (names === 'all' || names.length > 1) {
      const result = exportArchive(ctx.database(), names, deps);
      if (!write(ctx, out, result.text)) return;
      const machines = result.machines.map((m) => ({ machineId: m.machineId, label: m.label, ...m.counts }));
      if (ctx.json) ctx.printJson({ file: out, machines });
      else {
        for (const m of result.machines) ctx.printLine(exportedLine(m));
        ctx.printLine(`${count(result.machines.length, 'machine')} -> ${out}`);
      }
      return;
    }
    const result = exportProfile(ctx.database(), names[0], deps);
    if (!write(ctx, out, result.text)) return;
    const summary = { file: out, machineId: result.machineId, label: result.label, ...result.counts };
    if (ctx.json) ctx.printJson(summary);
    else ctx.printLine(`${exportedLine(result)} -> ${out}`);
  },
};
