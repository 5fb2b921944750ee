/**
 * Many hardware profiles at once (a cluster's nodes exported into one folder, or into one profile
 * archive): each file is imported on its own, so one bad file costs only itself; files whose
 * content is already here are counted as unchanged, so the same folder can be imported again
 * after more nodes were added. An archive is all-or-nothing: validated whole before anything of it
 * is written, then its profiles are stored in one transaction, each as its own file would be; one
 * that is refused (older than what is stored, a clash with the store) refuses the archive.
 */
import { archiveEntryName, decodeProfileDocument } from '../../core/profile-file/archive.js';
import { UserError } from '../../core/errors.js';
import { StoreError } from '../../adapters/store/errors.js';
import type { Database } from '../../adapters/store/types.js';
import { writeTransaction } from '../../adapters/store/write-transaction.js';
import {
  canonicalHash,
  prepareProfile,
  storeProfile,
  type ImportResult,
  type PreparedProfile,
  type StoreOptions,
} from './profile-import.js';

export interface BatchImportResult {
  /** `profile`: the profile's place (1-based) in the archive `file`; absent for a profile file. */
  imported: (ImportResult & { file: string; profile?: number })[];
  unchanged: { file: string; profile?: number; reason: string }[];
  failed: { file: string; profile?: number; error: string }[];
  /** What a folder held that was not read, and why (a symbolic link, a folder named *.json). */
  skipped: { file: string; reason: string }[];
  /** How many of the files were profile archives. */
  archives: number;
}

/** Options of a batch import: `replace` as for one profile (StoreOptions). */
export type BatchOptions = Pick<StoreOptions, 'replace'>;

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
  return { imported: [], unchanged: [], failed: [], skipped: [], archives: 0 };
}

/** Why storing a profile was refused, as one line; null for an error that is a bug or a broken store. */
function refusal(e: unknown, p: PreparedProfile): string | null {
  if (e instanceof UserError) return e.message;
  if (e instanceof StoreError && e.code === 'conflict') return `${p.sourceName}: ${e.message}`;
  return null;
}

/**
 * Stores one profile, recording what came of it. A profile that clashes with what is stored
 * costs only itself; a store that cannot be written stops the whole import.
 */
function storeOne(db: Database, out: BatchImportResult, p: PreparedProfile, file: string, options: BatchOptions): void {
  try {
    const r = storeProfile(db, p, options);
    if (r.action === 'unchanged') out.unchanged.push({ file, reason: r.note ?? 'nothing to do' });
    else out.imported.push({ file, ...r });
  } catch (e) {
    const why = refusal(e, p);
    if (why === null) throw e;
    out.failed.push({ file, error: why });
  }
}

/** A refused profile of an archive: the archive is refused whole. */
class ArchiveRefused extends UserError {
  constructor(
    message: string,
    readonly profile: number,
  ) {
    super(message);
  }
}

/**
 * Stores every profile of an archive in one transaction, or none: the first that is refused
 * rolls the archive back and throws an ArchiveRefused with one line naming it.
 */
function storeArchive(
  db: Database,
  file: string,
  profiles: readonly PreparedProfile[],
  options: BatchOptions,
): BatchImportResult {
  return writeTransaction(db, () => {
    const out = emptyResult();
    out.archives = 1;
    for (const [i, p] of profiles.entries()) {
      let r: ImportResult;
      try {
        r = storeProfile(db, p, options);
      } catch (e) {
        const why = refusal(e, p);
        if (why === null) throw e;
        throw new ArchiveRefused(`${why}; nothing of the archive was imported`, i + 1);
      }
      if (r.action === 'unchanged') out.unchanged.push({ file, profile: i + 1, reason: r.note ?? 'nothing to do' });
      else out.imported.push({ file, profile: i + 1, ...r });
    }
    return out;
  });
}

function storePrepared(
  db: Database,
  out: BatchImportResult,
  file: string,
  prepared: PreparedImport,
  options: BatchOptions,
): void {
  if (prepared.kind === 'profile') {
    storeOne(db, out, prepared.profile, file, options);
    return;
  }
  out.archives++;
  try {
    const r = storeArchive(db, file, prepared.profiles, options);
    out.imported.push(...r.imported);
    out.unchanged.push(...r.unchanged);
  } catch (e) {
    if (!(e instanceof ArchiveRefused)) throw e;
    out.failed.push({ file, profile: e.profile, error: e.message });
  }
}

/**
 * Imports the profiles of one archive, already validated by prepareImport, all or nothing: a
 * refused profile throws a UserError with one line naming it, and nothing of the archive is written.
 */
export function importArchive(
  db: Database,
  file: string,
  profiles: readonly PreparedProfile[],
  options: BatchOptions = {},
): BatchImportResult {
  return storeArchive(db, file, profiles, options);
}

export function importProfileFiles(
  db: Database,
  files: readonly string[],
  read: (file: string) => Uint8Array,
  options: BatchOptions = {},
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
    storePrepared(db, out, file, prepared, options);
  }
  return out;
}

/** How an entry of a batch is named in messages: the file, or "FILE profile N" inside an archive. */
export function entryName(entry: { file: string; profile?: number }): string {
  return entry.profile === undefined ? entry.file : archiveEntryName(entry.file, entry.profile - 1);
}
