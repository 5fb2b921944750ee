import { profileFilesIn, readProfileBytes, readProfileStream } from '../../adapters/files/read-profile-text.js';
import { UsageError, UserError } from '../../core/errors.js';
import {
  entryName,
  importArchive,
  importProfileFiles,
  prepareImport,
  type BatchImportResult,
} from '../../services/exchange/profile-batch-import.js';
import { checkLabel, storeProfile, type ImportResult } from '../../services/exchange/profile-import.js';
import { count } from '../../core/text/plural.js';
import type { CliContext } from '../context.js';
import type { Command } from '../command.js';

const ACTION_WORD: Record<ImportResult['action'], string> = {
  imported: 'Imported',
  updated: 'Updated',
  merged: 'Merged into this machine:',
  unchanged: 'Unchanged:',
};

/** The line for one imported profile file. */
function resultLine(r: ImportResult): string {
  if (r.action === 'unchanged') return `Unchanged: ${r.label} (${r.machineId}): ${r.note ?? 'nothing to do'}`;
  const what = `${count(r.counts.runs, 'profile run')}, ${count(r.counts.measurements, 'measurement')}`;
  if (r.action === 'merged') return `Merged into this machine, ${r.label} (${r.machineId}): ${what} it lacked`;
  return `${ACTION_WORD[r.action]} ${r.label} (${r.machineId}): ${count(r.counts.devices, 'device')}, ${what}`;
}

/** The one file `import -` reads: what is piped in. */
async function readStdin(ctx: CliContext): Promise<Uint8Array> {
  const stdin = ctx.io.stdin;
  if (!stdin) {
    throw new UsageError(
      'import -: nothing is piped in (stdin is a terminal); pipe a profile into it: pipedejavu export | pipedejavu import -',
    );
  }
  return readProfileStream(stdin());
}

/** One line per profile, a summary line, and exit 1 naming what was not imported. */
function report(ctx: CliContext, r: BatchImportResult, files: number): void {
  const total = r.imported.length + r.unchanged.length + r.failed.length;
  if (ctx.json) ctx.printJson(r);
  else {
    for (const s of r.skipped) ctx.printLine(`Skipped ${s.file}: ${s.reason}`);
    for (const i of r.imported)
      ctx.printLine(`${ACTION_WORD[i.action]} ${i.label} (${i.machineId}) from ${entryName(i)}`);
    for (const u of r.unchanged) ctx.printLine(`Unchanged: ${u.reason}`);
    for (const f of r.failed) ctx.printLine(`Not imported: ${f.error}`);
    ctx.print(
      `${r.imported.length} imported, ${r.unchanged.length} unchanged, ${r.failed.length} not imported, of ${
        r.archives > 0 ? `${count(total, 'profile')} in ${count(files, 'file')}` : count(files, 'file')
      }`,
    );
  }
  if (r.failed.length > 0) {
    throw new UserError(
      `${r.failed.length} of ${r.archives > 0 ? count(total, 'profile') : count(files, 'file')} not imported: ${r.failed.map(entryName).join(', ')}`,
    );
  }
}

export const importCommand: Command = {
  name: 'import',
  summary: "import hardware-profile files (other machines' probes and measurements) into the store",
  usage: 'FILE|DIR|- [FILE|DIR ...] [--label NAME] [--replace] [--json]',
  details:
    'Each file is validated completely before anything of it is written; a bad file changes nothing.\n' +
    '- reads one profile or archive from stdin: pipedejavu export | pipedejavu import -\n' +
    'A file already imported is "unchanged" (exit 0). This machine\'s own export (a backup) adds\n' +
    'the runs the store lacks and replaces nothing; imported into a new store, the machine becomes\n' +
    'this machine again at the next probe.\n' +
    'A newer export of a machine imported before replaces it; an older one (or a different one of the\n' +
    'same date) is refused in one line with both dates and counts: pass --replace to replace it anyway.\n' +
    "A folder stands for its regular *.json files (a cluster's node profiles exported into one place);\n" +
    'a *.json symbolic link or folder in it is not followed and is named as skipped. With several\n' +
    'files each is imported on its own: the bad ones are named and the command exits 1, files\n' +
    'already imported count as unchanged. --label names the machine of a single file.\n' +
    'A profile archive (`pipedejavu export --machine a,b,c` or `--all`) is all-or-nothing: validated\n' +
    'whole, then its profiles are stored in one transaction, one line each, those already imported\n' +
    'counted as unchanged; a damaged archive, or one profile in it that is refused, changes nothing.\n' +
    'Labels, hostnames and device names with control characters (newlines, ESC, bidi overrides) are\n' +
    'refused.',
  options: {
    label: { type: 'string', valueName: 'NAME', description: 'name to show for the machine (default: its hostname)' },
    replace: {
      type: 'boolean',
      description: 'replace a stored imported machine with this file even when the file is older or differs',
    },
  },
  positionals: { min: 1, max: 4096, names: 'FILE' },
  async run(ctx, opts, paths) {
    const label = typeof opts.label === 'string' ? opts.label : undefined;
    if (label !== undefined) checkLabel(label, '--label');
    const options = { replace: opts.replace === true };
    if (paths.includes('-') && paths.length > 1)
      throw new UsageError('import: - (stdin) is read alone; give the files in another import');
    const found = paths[0] === '-' ? [{ files: ['-'], skipped: [] }] : paths.map((p) => profileFilesIn(p));
    const files = found.flatMap((f) => f.files);
    const skipped = found.flatMap((f) => f.skipped);
    if (files.length === 1 && paths.length === 1 && files[0] === paths[0]) {
      const file = files[0] === '-' ? 'stdin' : (files[0] as string);
      const bytes = files[0] === '-' ? await readStdin(ctx) : readProfileBytes(file);
      const prepared = prepareImport(bytes, file);
      if (prepared.kind === 'archive') {
        if (label !== undefined)
          throw new UsageError(`import: --label names one machine; ${file} is an archive of several`);
        report(ctx, importArchive(ctx.database(), file, prepared.profiles, options), 1);
        return;
      }
      const r = storeProfile(ctx.database(), prepared.profile, {
        ...options,
        ...(label === undefined ? {} : { label }),
      });
      if (ctx.json) ctx.printJson(r);
      else ctx.printLine(resultLine(r));
      return;
    }
    if (label !== undefined) throw new UsageError('import: --label names one machine; give one file with it');
    report(ctx, { ...importProfileFiles(ctx.database(), files, readProfileBytes, options), skipped }, files.length);
  },
};
