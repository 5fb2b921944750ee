/**
 * Several stored machines as one profile archive (a cluster's store handed on in one file). Each
 * machine's profile is exactly what `export` writes for it alone, so `import` of the archive
 * gives each machine the content hash its own file would.
 */
import { encodeArchive } from '../../core/profile-file/archive.js';
import { LIMITS, type ProfileFile } from '../../core/profile-file/schema.js';
import { UserError } from '../../core/errors.js';
import { MachineRepo } from '../../adapters/store/machine-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { buildProfileFile, fileCounts, refuseOverCaps, type ExportDeps, type ExportResult } from './profile-export.js';
import { count } from '../../core/text/plural.js';

export interface ArchiveExportResult {
  text: string;
  machines: { machineId: string; label: string; counts: ExportResult['counts'] }[];
}

const mib = (bytes: number): number => Math.ceil(bytes / 2 ** 20);

/**
 * The archive of the named machines (ids or labels, in this order; one named twice goes in
 * once), or of every machine in the store.
 */
export function exportArchive(
  db: Database,
  machines: readonly string[] | 'all',
  deps: ExportDeps,
): ArchiveExportResult {
  const names = machines === 'all' ? new MachineRepo(db).listMachines().map((m) => m.id) : machines;
  if (names.length === 0) {
    throw new UserError(
      machines === 'all'
        ? 'no machines in the store to export: run `pipedejavu probe` or import profiles first'
        : 'no machine named to export',
    );
  }
  const files: ProfileFile[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const file = buildProfileFile(db, name, deps);
    refuseOverCaps(file);
    if (seen.has(file.machine.id)) continue;
    seen.add(file.machine.id);
    files.push(file);
  }
  const tooLarge = (bytes?: number): UserError =>
    new UserError(
      `an archive of these ${count(files.length, 'machine')} would be ${bytes === undefined ? 'larger than' : `${mib(bytes)} MiB, more than`} the ${mib(LIMITS.maxFileBytes)} MiB import reads; export fewer machines per archive, or each to its own file`,
    );
  let text: string;
  try {
    text = encodeArchive(files);
  } catch (e) {
    // Past V8's longest string: larger than any file import would read anyway.
    if (e instanceof RangeError) throw tooLarge();
    throw e;
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > LIMITS.maxFileBytes) throw tooLarge(bytes);
  return {
    text,
    machines: files.map((f) => ({
      machineId: f.machine.id,
      label: f.machine.label,
      counts: fileCounts(f),
    })),
  };
}
