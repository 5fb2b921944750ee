import { readProfileBytes } from '../../adapters/files/read-profile-text.js';
import { importProfile } from '../../services/profile-exchange-service.js';
import type { Command } from '../command.js';

export const importCommand: Command = {
  name: 'import',
  summary: "import a hardware-profile file (another machine's probe and measurements) into the store",
  usage: 'FILE [--label NAME] [--json]',
  details: 'The file is validated completely before anything is written; a bad file changes nothing.',
  options: {
    label: { type: 'string', valueName: 'NAME', description: 'name to show for the machine (default: its hostname)' },
  },
  positionals: { min: 1, max: 1, names: 'FILE' },
  async run(ctx, opts, [file]) {
    const path = file as string;
    const bytes = readProfileBytes(path);
    const r = importProfile(ctx.database(), bytes, path, typeof opts.label === 'string' ? opts.label : undefined);
    if (ctx.json) ctx.printJson(r);
    else
      ctx.print(
        `${r.action === 'imported' ? 'Imported' : 'Updated'} ${r.label} (${r.machineId}): ${r.counts.devices} devices, ${r.counts.runs} profile runs, ${r.counts.measurements} measurements`,
      );
  },
};
