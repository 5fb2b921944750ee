import { profileFilesIn, readProfileBytes } from '../../adapters/files/read-profile-text.js';
import { UsageError, UserError } from '../../core/errors.js';
import { importProfileFiles } from '../../services/profile-batch-import.js';
import { importProfile } from '../../services/profile-exchange-service.js';
import type { Command } from '../command.js';

export const importCommand: Command = {
  name: 'import',
  summary: "import hardware-profile files (other machines' probes and measurements) into the store",
  usage: 'FILE|DIR [FILE|DIR ...] [--label NAME] [--json]',
  details:
    'Each file is validated completely before anything of it is written; a bad file changes nothing.\n' +
    "A folder stands for its *.json files (a cluster's node profiles exported into one place). With\n" +
    'several files each is imported on its own: the bad ones are named and the command exits 1, files\n' +
    'already imported count as unchanged. --label names the machine of a single file.',
  options: {
    label: { type: 'string', valueName: 'NAME', description: 'name to show for the machine (default: its hostname)' },
  },
  positionals: { min: 1, max: 4096, names: 'FILE' },
  async run(ctx, opts, paths) {
    const files = paths.flatMap((p) => profileFilesIn(p));
    const label = typeof opts.label === 'string' ? opts.label : undefined;
    if (files.length === 1 && paths.length === 1 && files[0] === paths[0]) {
      const file = files[0] as string;
      const r = importProfile(ctx.database(), readProfileBytes(file), file, label);
      if (ctx.json) ctx.printJson(r);
      else
        ctx.print(
          `${r.action === 'imported' ? 'Imported' : 'Updated'} ${r.label} (${r.machineId}): ${r.counts.devices} devices, ${r.counts.runs} profile runs, ${r.counts.measurements} measurements`,
        );
      return;
    }
    if (label !== undefined) throw new UsageError('import: --label names one machine; give one file with it');
    const r = importProfileFiles(ctx.database(), files, readProfileBytes);
    if (ctx.json) ctx.printJson(r);
    else {
      for (const i of r.imported)
        ctx.print(`${i.action === 'imported' ? 'Imported' : 'Updated'} ${i.label} (${i.machineId}) from ${i.file}`);
      for (const u of r.unchanged) ctx.print(`Unchanged: ${u.reason}`);
      for (const f of r.failed) ctx.print(`Not imported: ${f.error}`);
      ctx.print(
        `${r.imported.length} imported, ${r.unchanged.length} unchanged, ${r.failed.length} not imported, of ${files.length} files`,
      );
    }
    if (r.failed.length > 0) {
      throw new UserError(
        `${r.failed.length} of ${files.length} files not imported: ${r.failed.map((f) => f.file).join(', ')}`,
      );
    }
  },
};
