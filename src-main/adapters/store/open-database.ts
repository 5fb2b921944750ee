/**
 * Opens (creating if needed) the pipeDejavu SQLite database and brings its schema up
 * to date. The only place that constructs a better-sqlite3 handle.
 *
 * Order matters: the file is inspected (is it SQLite? ours? not newer?) before anything
 * that could write to it (journal_mode=WAL rewrites the header, migrations write).
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { StoreError, environmentReason, errorMessage } from './errors.js';
import { APPLICATION_ID, MIGRATIONS, latestVersion, migrate, readUserVersion, type Migration } from './migrations.js';
import type { Database } from './types.js';
import { ALLOW_NETWORK_DB_ENV, filesystemOf, type FilesystemInfo } from '../files/filesystem.js';

export interface OpenDatabaseOptions {
  /** Migrations to apply; tests pass a prefix to build an old database. Default: all. */
  migrations?: readonly Migration[];
  /** Clock for schema_migrations.applied_at. */
  now?: () => Date;
  /** Which filesystem a path is on (tests stand in a network one). Default: statfs. */
  filesystem?: (path: string) => FilesystemInfo;
  /** Open a database on a network filesystem anyway. Default: PIPEDEJAVU_ALLOW_NETWORK_DB=1. */
  allowNetworkFilesystem?: boolean;
}

/**
 * SQLite's locks (and WAL's shared memory) do not hold on NFS, Lustre, GPFS and the like: two
 * cluster nodes writing one database there can corrupt it. Refused in one line saying what to do.
 */
function refuseNetworkFilesystem(path: string, options: OpenDatabaseOptions): void {
  const allowed = options.allowNetworkFilesystem ?? process.env[ALLOW_NETWORK_DB_ENV] === '1';
  if (allowed) return;
  const fs = (options.filesystem ?? filesystemOf)(path);
  if (!fs.network) return;
  throw new StoreError(
    'network-filesystem',
    `the database "${path}" is on ${fs.type}, a network filesystem, where SQLite's locking is unsafe: ` +
      'give --db a node-local path (in a Slurm job, --db "$TMPDIR/pipedejavu.db") and export the profile to the shared folder, ' +
      `or set ${ALLOW_NETWORK_DB_ENV}=1 if only one process on one node ever uses it`,
  );
}

/** How long a writer waits for another process's write transaction before it gives up. */
export const BUSY_TIMEOUT_MS = 60_000;

function isInMemory(path: string): boolean {
  return path === ':memory:' || path === '';
}

function sqliteCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

function notADatabase(path: string, err: unknown): StoreError {
  const reason = sqliteCode(err) === 'SQLITE_CORRUPT' ? 'database disk image is malformed' : 'file is not a database';
  return new StoreError('not-a-database', `"${path}" is not a pipeDejavu database (${reason})`, { cause: err });
}

/**
 * An open that failed for a reason of the machine's (read-only file, folder or disk, no
 * permission, full disk): one line naming the path and the reason; otherwise SQLite's words.
 */
function openFailed(path: string, err: unknown, doing = 'open'): StoreError {
  const why = environmentReason(err) ?? errorMessage(err);
  return new StoreError('open-failed', `cannot ${doing} the database "${path}": ${why}`, { cause: err });
}

/** Reads the header fields and refuses files that are not ours or are too new. Writes nothing. */
function inspect(db: Database, path: string, known: number): void {
  let version: number;
  let appId: unknown;
  let tables: number;
  try {
    version = readUserVersion(db);
    appId = db.pragma('application_id', { simple: true });
    const row = db
      .prepare<[], { n: number }>(
        "SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
      )
      .get();
    tables = row?.n ?? 0;
  } catch (err) {
    const code = sqliteCode(err);
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw notADatabase(path, err);
    throw openFailed(path, err, 'read');
  }
  if (appId !== 0 && appId !== APPLICATION_ID) {
    throw new StoreError(
      'foreign-database',
      `"${path}" is not a pipeDejavu database (it is an SQLite database of another application)`,
    );
  }
  if (appId === 0 && (tables > 0 || version > 0)) {
    throw new StoreError(
      'foreign-database',
      `"${path}" is not a pipeDejavu database (it is an SQLite database with other tables)`,
    );
  }
  if (version > known) {
    throw new StoreError(
      'newer-version',
      `"${path}" was written by a newer version of pipeDejavu (schema version ${version}, this version knows up to ${known}); ` +
        'update pipeDejavu to open it. The file was not modified.',
    );
  }
}

/**
 * Opens the database at `path` (`:memory:` for a private in-memory one), creating the
 * file and its parent directory when missing, sets the pragmas (WAL for files,
 * foreign_keys=ON, busy_timeout=60 s, synchronous=NORMAL) and applies pending
 * migrations. Throws StoreError for a non-database file, another application's
 * database, or one from a newer pipeDejavu; those files are left untouched.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database {
  const migrations = options.migrations ?? MIGRATIONS;
  const inMemory = isInMemory(path);
  if (!inMemory) {
    refuseNetworkFilesystem(path, options);
    try {
      mkdirSync(dirname(resolve(path)), { recursive: true });
    } catch (err) {
      throw new StoreError(
        'open-failed',
        `cannot create the folder of the database "${path}": ${environmentReason(err) ?? errorMessage(err)}`,
        { cause: err },
      );
    }
    let isDirectory = false;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      // missing: SQLite creates it
    }
    if (isDirectory) throw new StoreError('open-failed', `"${path}" is a folder, not a database file`);
  }

  let db: Database;
  try {
    db = new BetterSqlite3(path);
  } catch (err) {
    if (sqliteCode(err) === 'SQLITE_NOTADB') throw notADatabase(path, err);
    throw openFailed(path, err);
  }

  try {
    // Writers queue (BEGIN IMMEDIATE): the longest writer, a 450k-measurement import, holds the lock ~10 s.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    inspect(db, path, latestVersion(migrations));
    if (!inMemory) {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') {
        throw new StoreError('open-failed', `cannot switch "${path}" to WAL journal mode (got ${String(mode)})`);
      }
    }
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations, options.now ? { now: options.now } : {});
    if (db.pragma('foreign_keys', { simple: true }) !== 1) {
      throw new StoreError('open-failed', 'SQLite foreign key enforcement is unavailable');
    }
    return db;
  } catch (err) {
    db.close();
    if (err instanceof StoreError) {
      // Prefix migration failures with the path; the others already name it.
      if (err.code === 'migration-failed') {
        throw new StoreError(err.code, `"${path}": ${err.message}`, { cause: err.cause ?? err });
      }
      throw err;
    }
    const code = sqliteCode(err);
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw notADatabase(path, err);
    throw openFailed(path, err);
  }
}
