/** Errors the store raises on purpose, each with a stable code the CLI/GUI can map. */

export type StoreErrorCode =
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
