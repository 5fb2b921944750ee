/**
 * Writes a set of files into one output folder (`plan --emit DIR`) without overwriting anything
 * the user did not mean to:
 * - the folder must be new or empty, unless `force`; then only the files written are replaced,
 *   everything else in the folder stays;
 * - nothing is ever written through a symlink: each file is written to a temporary sibling created
 *   exclusively (O_EXCL, which never follows a link) and renamed over the name, which replaces a
 *   symlink of that name by the new file and leaves what it pointed to alone;
 * - a folder, FIFO or device of an emitted name is refused before the first file is written;
 * - never over pipeDejavu's database (compared by real path and inode).
 */
import { lstatSync, mkdirSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { replaceWithNewFile } from './write-file-atomic.js';
import { UserError, errorMessage } from '../../core/errors.js';

export interface FolderWriteOptions {
  /** Replace the files of these names in a folder that holds other things too. */
  force?: boolean;
  /** Files that must never be written (the database): each also protects its -wal and -shm. */
  protect?: readonly string[];
  /** How the command names itself in messages, e.g. "plan --emit". */
  what: string;
}

/** How many of a folder's names a refusal lists before "...". */
const LISTED_NAMES = 6;

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

function entriesOf(dir: string, what: string): string[] | null {
  const st = lstatOrNull(dir);
  if (st === null) return null;
  let resolved: Stats;
  try {
    resolved = statSync(dir);
  } catch (e) {
    throw new UserError(`${what}: cannot use ${dir}: ${errorMessage(e)}`);
  }
  if (!resolved.isDirectory()) throw new UserError(`${what}: ${dir} is not a folder`);
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    throw new UserError(`${what}: cannot read ${dir}: ${errorMessage(e)}`);
  }
}

/** What an existing entry of an emitted name is, when it cannot be replaced by a file; null when it can. */
function unreplaceable(st: Stats): string | null {
  if (st.isDirectory()) return 'a folder';
  if (st.isFile() || st.isSymbolicLink()) return null;
  return 'not a regular file (a FIFO, socket or device)';
}

function protectedInodes(protect: readonly string[]): { dev: number; ino: number; file: string }[] {
  const out: { dev: number; ino: number; file: string }[] = [];
  for (const db of protect) {
    for (const p of [db, `${db}-wal`, `${db}-shm`]) {
      try {
        const st = statSync(p);
        out.push({ dev: st.dev, ino: st.ino, file: db });
      } catch {
        // absent: nothing to protect
      }
    }
  }
  return out;
}

/**
 * Checks the folder before anything is computed or written: a missing one is fine; one that holds
 * anything is refused unless `force`, and (with `force`) so is an emitted name taken by a folder,
 * FIFO or device, or by the database. Throws a UserError with one line.
 */
export function checkOutputFolder(dir: string, names: readonly string[], options: FolderWriteOptions): void {
  const entries = entriesOf(dir, options.what);
  if (entries === null) return;
  if (entries.length > 0 && !options.force) {
    const listed = entries.slice(0, LISTED_NAMES).join(', ');
    const more = entries.length > LISTED_NAMES ? ' ...' : '';
    throw new UserError(
      `${options.what}: ${dir} is not empty (${listed}${more}); pass --force to replace the files it emits`,
    );
  }
  const guarded = protectedInodes(options.protect ?? []);
  for (const name of names) {
    const st = lstatOrNull(path.join(dir, name));
    if (st === null) continue;
    const why = unreplaceable(st);
    if (why) throw new UserError(`${options.what}: ${path.join(dir, name)} is ${why}; nothing was written`);
    const db = guarded.find((g) => g.dev === st.dev && g.ino === st.ino);
    if (db) {
      throw new UserError(
        `${options.what}: ${path.join(dir, name)} is the pipeDejavu database (${db.file}); choose another folder`,
      );
    }
  }
}

/** checkOutputFolder, then the folder is created when missing. */
export function prepareOutputFolder(dir: string, names: readonly string[], options: FolderWriteOptions): void {
  checkOutputFolder(dir, names, options);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new UserError(`${options.what}: cannot create ${dir}: ${errorMessage(e)}`);
  }
}

/**
 * Writes `name` in `dir` as a new file: a temporary sibling created with O_EXCL, then a rename
 * over the name (a symlink there is replaced, never followed). Throws a UserError with one line.
 */
export function writeNewFileIn(dir: string, name: string, data: string, what: string): string {
  if (name !== path.basename(name) || name === '.' || name === '..')
    throw new UserError(`${what}: ${name} is not a plain file name`);
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (e) {
    throw new UserError(`${what}: cannot use ${dir}: ${errorMessage(e)}`);
  }
  try {
    replaceWithNewFile(path.join(real, name), data, 0o644);
  } catch (e) {
    throw new UserError(`${what}: cannot write ${path.join(dir, name)}: ${errorMessage(e)}`);
  }
  return path.join(dir, name);
}
