/** Errors the store raises on purpose, each with a stable code the CLI/GUI can map. */

export type StoreErrorCode =
  /** On NFS, Lustre, GPFS or another network filesystem, where SQLite's locking is unsafe. */
  | 'network-filesystem'
  /** The file exists but is not an SQLite database (or is damaged beyond opening). */
  | 'not-a-database'
  /** A valid SQLite database that belongs to another application. */
  | 'foreign-database'
  /** Written by a newer pipeDejavu (schema version higher than this build knows). */
  | 'newer-version'
  /** The file could not be opened or created (permissions, a directory, ...). */
  | 'open-failed'
  /** A migration failed; its transaction was rolled back. */
  | 'migration-failed'
  /** A referenced row (machine, run) does not exist. */
  | 'not-found'
  /** The write contradicts what is stored (e.g. a local machine id held by an import). */
  | 'conflict'
  /** A value given to the store is invalid. */
  | 'invalid-input'
  /** A stored row cannot be read back as its domain type. */
  | 'corrupt-row';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** SQLite and file-system failures that are the machine's state, not a bug: what to tell the user. */
const ENVIRONMENT_FAILURES: Record<string, string> = {
  SQLITE_READONLY: 'it is read-only (the file, its folder or the disk)',
  SQLITE_READONLY_DBMOVED: 'the database file was moved or deleted while in use',
  SQLITE_CANTOPEN: 'it cannot be opened or created (is its folder there and writable?)',
  SQLITE_FULL: 'the disk is full',
  SQLITE_IOERR: 'a disk read or write failed',
  SQLITE_PERM: 'permission denied',
  SQLITE_BUSY: 'another program held it locked for too long',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

/** Why an environment failure happened, with its code ("the disk is full (ENOSPC)"), or null. */
export function environmentReason(err: unknown): string | null {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : null;
  if (typeof code !== 'string') return null;
  const exact = ENVIRONMENT_FAILURES[code];
  const family = Object.entries(ENVIRONMENT_FAILURES).find(([k]) => code.startsWith(`${k}_`))?.[1];
  const why = exact ?? family;
  return why ? `${why} (${code})` : null;
}

/**
 * One line for a failure caused by the database's surroundings (read-only file or
 * folder, full disk, I/O error), or null when the error is something else.
 */
export function environmentFailure(err: unknown, dbPath: string): string | null {
  const why = environmentReason(err);
  return why ? `cannot use the database "${dbPath}": ${why}` : null;
}
