/**
 * Opens (creating if needed) the pipeDejavu SQLite database and brings its schema up
 * to date. The only place that constructs a better-sqlite3 handle.
 *
 * Order matters: the file is inspected (is it SQLite? ours? not newer?) before anything
 * that could write to it (journal_mode=WAL rewrites the header, migrations write).
 */
import { accessSync, closeSync, constants, mkdirSync, openSync, readSync, statSync, type Stats } from 'node:fs';
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
const BUSY_TIMEOUT_MS = 60_000;

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

/** What a database's header says: its schema version, application id, and whether it holds tables. */
interface HeaderFacts {
  version: number;
  appId: unknown;
  hasTables: boolean;
}

/** Refuses another application's database, or one from a newer pipeDejavu. */
function judge(facts: HeaderFacts, path: string, known: number): void {
  const { version, appId, hasTables } = facts;
  if (appId !== 0 && appId !== APPLICATION_ID) {
    throw new StoreError(
      'foreign-database',
      `"${path}" is not a pipeDejavu database (it is an SQLite database of another application)`,
    );
  }
  if (appId === 0 && (hasTables || version > 0)) {
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

/** Reads the header fields and refuses files that are not ours or are too new. Writes nothing. */
function inspect(db: Database, path: string, known: number): void {
  let facts: HeaderFacts;
  try {
    const version = readUserVersion(db);
    const appId = db.pragma('application_id', { simple: true });
    const row = db
      .prepare<[], { n: number }>(
        "SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
      )
      .get();
    facts = { version, appId, hasTables: (row?.n ?? 0) > 0 };
  } catch (err) {
    const code = sqliteCode(err);
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw notADatabase(path, err);
    throw openFailed(path, err, 'read');
  }
  judge(facts, path, known);
}

/** What a path that exists must be to hold a database: a regular file (not a folder, a device, a FIFO). */
function refuseNonFile(path: string, st: Stats): void {
  if (st.isDirectory()) throw new StoreError('open-failed', `"${path}" is a folder, not a database file`);
  if (st.isFile()) return;
  const what = st.isCharacterDevice()
    ? 'a character device'
    : st.isBlockDevice()
      ? 'a block device'
      : st.isFIFO()
        ? 'a named pipe (FIFO)'
        : st.isSocket()
          ? 'a socket'
          : 'not a regular file';
  throw new StoreError('open-failed', `"${path}" is ${what}, not a database file`);
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
    let st: Stats | null = null;
    try {
      st = statSync(path);
    } catch {
      // missing: SQLite creates it
    }
    if (st) refuseNonFile(path, st);
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

/** What checkDatabase found: a database to open (its schema version, 0 for an empty file), or none yet. */
export interface DatabaseCheck {
  exists: boolean;
  /** Schema version in the file's header (0: empty or new). */
  version: number;
  /** The version this build migrates to. */
  latest: number;
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const HEADER_BYTES = 100;

/** The first 100 bytes of a file (fewer when it is shorter). */
function readHeader(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(HEADER_BYTES);
    const n = readSync(fd, buf, 0, HEADER_BYTES, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * The header fields inspect() reads with SQL, from the file's first 100 bytes (sqlite.org/fileformat):
 * user_version at 60, application_id at 68, the schema cookie at 40 (0 until a table is created).
 * Null for an empty file; not-a-database for anything that is not SQLite.
 */
function headerFacts(path: string): HeaderFacts | null {
  const h = readHeader(path);
  if (h.length === 0) return null;
  if (h.length < HEADER_BYTES || h.toString('latin1', 0, 16) !== SQLITE_MAGIC) throw notADatabase(path, null);
  return { version: h.readInt32BE(60), appId: h.readInt32BE(68), hasTables: h.readUInt32BE(40) > 0 };
}

/** Fails, naming the path and the reason, when this process cannot write `target`. */
function mustWrite(target: string, what: string): void {
  try {
    accessSync(target, constants.W_OK);
  } catch (err) {
    throw new StoreError('open-failed', `${what}: ${environmentReason(err) ?? errorMessage(err)}`, { cause: err });
  }
}

/** The nearest folder above a path that exists (where a missing database and its folders would be created). */
function existingAncestor(path: string): string {
  let dir = dirname(resolve(path));
  for (;;) {
    try {
      statSync(dir);
      return dir;
    } catch {
      const up = dirname(dir);
      if (up === dir) return dir;
      dir = up;
    }
  }
}

/**
 * What openDatabase would say about `path`, found without creating, opening for writing or
 * changing anything (no SQLite handle: even a read-only one leaves -wal and -shm files behind on a
 * WAL database). The same refusals: a network filesystem, a folder or a device, a file that is not
 * SQLite, another application's database, a newer schema; and a file, or a folder beside it (SQLite
 * keeps its journal there), that this process cannot write. Throws StoreError; `pipedejavu doctor`
 * reports its message. The header is read from the file itself: while another process has the
 * database open, a newer schema version may still be in its -wal file.
 */
export function checkDatabase(path: string, options: OpenDatabaseOptions = {}): DatabaseCheck {
  const latest = latestVersion(options.migrations ?? MIGRATIONS);
  if (isInMemory(path)) return { exists: false, version: 0, latest };
  refuseNetworkFilesystem(path, options);
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ENOENT') throw openFailed(path, err);
    const dir = existingAncestor(path);
    if (!statSync(dir).isDirectory()) {
      throw new StoreError('open-failed', `cannot create the database "${path}": "${dir}" is not a folder`);
    }
    mustWrite(dir, `cannot create the database "${path}" in "${dir}"`);
    return { exists: false, version: 0, latest };
  }
  refuseNonFile(path, st);
  let facts: HeaderFacts | null;
  try {
    facts = headerFacts(path);
  } catch (err) {
    if (err instanceof StoreError) throw err;
    throw openFailed(path, err, 'read');
  }
  if (facts) judge(facts, path, latest);
  mustWrite(path, `cannot write the database "${path}"`);
  mustWrite(dirname(resolve(path)), `cannot write beside the database "${path}" (SQLite keeps its journal there)`);
  return { exists: true, version: facts?.version ?? 0, latest };
}
