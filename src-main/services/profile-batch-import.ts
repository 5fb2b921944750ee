/**
 * Many hardware profiles at once (a cluster's nodes exported into one folder): each file is
 * imported on its own, so one bad file costs only itself; files whose content is already here are
 * counted as unchanged, so the same folder can be imported again after more nodes were added.
 */
import { AlreadyImportedError } from '../core/profile-file/codec.js';
import { UserError } from '../core/errors.js';
import { StoreError } from '../adapters/store/errors.js';
import type { Database } from '../adapters/store/types.js';
import { importProfile, type ImportResult } from './profile-exchange-service.js';

export interface BatchImportResult {
  imported: (ImportResult & { file: string })[];
  unchanged: { file: string; reason: string }[];
  failed: { file: string; error: string }[];
}

export function importProfileFiles(
  db: Database,
  files: readonly string[],
  read: (file: string) => Uint8Array,
): BatchImportResult {
  const out: BatchImportResult = { imported: [], unchanged: [], failed: [] };
  for (const file of files) {
    try {
      out.imported.push({ file, ...importProfile(db, read(file), file) });
    } catch (e) {
      // A bad file (or one that clashes with what is stored) costs only itself; a store that
      // cannot be written stops the whole import.
      if (e instanceof AlreadyImportedError) out.unchanged.push({ file, reason: e.message });
      else if (e instanceof UserError) out.failed.push({ file, error: e.message });
      else if (e instanceof StoreError && e.code === 'conflict')
        out.failed.push({ file, error: `${file}: ${e.message}` });
      else throw e;
    }
  }
  return out;
}
