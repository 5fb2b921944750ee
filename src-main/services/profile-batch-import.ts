/**
 * Many hardware profiles at once (a cluster's nodes exported into one folder, or into one profile
 * archive): each file is imported on its own, so one bad file costs only itself; files whose
 * content is already here are counted as unchanged, so the same folder can be imported again
 * after more nodes were added. An archive is validated whole before anything of it is written (a
 * damaged archive, or one bad profile in it, changes nothing); then each of its profiles is
 * imported as its own file would be.
 */
import { archiveEntryName, decodeProfileDocument } from '../core/profile-file/archive.js';
import { UserError } from '../core/errors.js';
import { StoreError } from '../adapters/store/errors.js';
import type { Database } from '../adapters/store/types.js';
import {
  canonicalHash,
  prepareProfile,
  storeProfile,
  type ImportResult,
  type PreparedProfile,
} from './profile-exchange-service.js';

export interface BatchImportResult {
  /** `profile`: the profile's place (1-based) in the archive `file`; absent for a profile file. */
  imported: (ImportResult & { file: string; profile?: number })[];
  unchanged: { file: string; profile?: number; reason: string }[];
  failed: { file: string; profile?: number; error: string }[];
  /** How many of the files were profile archives. */
  archives: number;
}

/** An import file validated and ready to be stored: one profile, or every profile of an archive. */
export type PreparedImport =
  { kind: 'profile'; profile: PreparedProfile } | { kind: 'archive'; profiles: PreparedProfile[] };

/** Decodes and checks a file for import, a profile or an archive; throws a UserError with one line. */
export function prepareImport(input: string | Uint8Array, sourceName: string): PreparedImport {
  const text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: false }).decode(input);
  const doc = decodeProfileDocument(text, sourceName);
  if (doc.kind === 'profile') {
    return { kind: 'profile', profile: prepareProfile(doc.file, sourceName, canonicalHash(doc.file, text, input)) };
  }
  // Every profile's predictors are checked before the first profile is written.
  return {
    kind: 'archive',
    profiles: doc.profiles.map((f, i) => prepareProfile(f, archiveEntryName(sourceName, i))),
  };
}

function emptyResult(): BatchImportResult {
  return { imported: [], unchanged: [], failed: [], archives: 0 };
}

/**
 * Stores one profile, recording what came of it. A profile that clashes with what is stored
 * costs only itself; a store that cannot be written stops the whole import.
 */
function storeOne(db: Database, out: BatchImportResult, p: PreparedProfile, file: string, profile?: number): void {
  const at = profile === undefined ? {} : { profile };
  try {
    const r = storeProfile(db, p);
    if (r.action === 'unchanged') out.unchanged.push({ file, ...at, reason: r.note ?? 'nothing to do' });
    else out.imported.push({ file, ...at, ...r });
  } catch (e) {
    if (e instanceof UserError) out.failed.push({ file, ...at, error: e.message });
    else if (e instanceof StoreError && e.code === 'conflict')
      out.failed.push({ file, ...at, error: `${p.sourceName}: ${e.message}` });
    else throw e;
  }
}

function storePrepared(db: Database, out: BatchImportResult, file: string, prepared: PreparedImport): void {
  if (prepared.kind === 'profile') {
    storeOne(db, out, prepared.profile, file);
    return;
  }
  out.archives++;
  for (const [i, p] of prepared.profiles.entries()) storeOne(db, out, p, file, i + 1);
}

/** Imports the profiles of one archive, already validated by prepareImport, each on its own. */
export function importArchive(db: Database, file: string, profiles: readonly PreparedProfile[]): BatchImportResult {
  const out = emptyResult();
  storePrepared(db, out, file, { kind: 'archive', profiles: [...profiles] });
  return out;
}

export function importProfileFiles(
  db: Database,
  files: readonly string[],
  read: (file: string) => Uint8Array,
): BatchImportResult {
  const out = emptyResult();
  for (const file of files) {
    let prepared: PreparedImport;
    try {
      prepared = prepareImport(read(file), file);
    } catch (e) {
      // A file that cannot be read, or is not a valid profile or archive, costs only itself.
      if (e instanceof UserError) {
        out.failed.push({ file, error: e.message });
        continue;
      }
      throw e;
    }
    storePrepared(db, out, file, prepared);
  }
  return out;
}

/** How an entry of a batch is named in messages: the file, or "FILE profile N" inside an archive. */
export function entryName(entry: { file: string; profile?: number }): string {
  return entry.profile === undefined ? entry.file : archiveEntryName(entry.file, entry.profile - 1);
}
