/**
 * Writes what the user asked to save (an exported profile, a predictor, the app's save
 * dialog), safely:
 * - never over pipeDejavu's own database or its -wal/-shm files (compared by real path
 *   and by inode, so a symlink or a hard link to the store is caught too);
 * - a regular file is replaced through a temporary sibling created exclusively (O_EXCL,
 *   an unpredictable name) and a rename, so a crash never leaves half a file;
 * - a symlink is followed: its target is replaced and the link stays a link;
 * - a device, FIFO or socket (/dev/stdout, a pipe) is written straight to, never
 *   replaced by a regular file.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { UserError, errorMessage } from '../../core/errors.js';

export interface WriteOptions {
  /** Files that must never be written (the database): each also protects its -wal and -shm. */
  protect?: readonly string[];
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/** The path a write lands on: symlinks resolved (also a dangling one's parent directory). */
function landingPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    const dir = path.dirname(path.resolve(file));
    try {
      return path.join(realpathSync(dir), path.basename(file));
    } catch {
      throw new UserError(`cannot write ${file}: its directory ${dir} does not exist`);
    }
  }
}

function refuseProtected(file: string, landing: string, target: Stats | null, protect: readonly string[]): void {
  for (const db of protect) {
    for (const p of [db, `${db}-wal`, `${db}-shm`]) {
      const st = statOrNull(p);
      const samePath = landingPath(p) === landing;
      const sameInode = st !== null && target !== null && st.dev === target.dev && st.ino === target.ino;
      if (samePath || sameInode) {
        throw new UserError(`refusing to write ${file}: it is the pipeDejavu database (${db}); choose another file`);
      }
    }
  }
}

/** Writes all of `data` at the file's position (a write may take less than asked: loops until done). */
function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off);
}

export function writeFileAtomic(file: string, data: string | Uint8Array, options: WriteOptions = {}): void {
  const landing = landingPath(file);
  const target = statOrNull(landing);
  refuseProtected(file, landing, target, options.protect ?? []);
  if (target?.isDirectory()) throw new UserError(`cannot write ${file}: it is a directory`);
  if (target && !target.isFile()) {
    // A device, FIFO or socket: write to it as it is.
    let fd: number | null = null;
    try {
      fd = openSync(landing, 'w');
      writeAll(fd, data);
    } catch (e) {
      throw new UserError(`cannot write ${file}: ${errorMessage(e)}`);
    } finally {
      if (fd !== null) closeSync(fd);
    }
    return;
  }
  try {
    replaceWithNewFile(landing, data, target ? target.mode & 0o777 : 0o644);
  } catch (e) {
    throw new UserError(`cannot write ${file}: ${errorMessage(e)}`);
  }
}

/**
 * Writes `data` to a new temporary file beside `target` (created with O_EXCL, which never follows
 * a link), syncs it and renames it over `target`: readers see the old file or the whole new one,
 * and a symlink at `target` is replaced, never written through. The temporary file is removed on
 * failure; the error is the caller's to word.
 */
export function replaceWithNewFile(target: string, data: string | Uint8Array, mode: number): void {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(8).toString('hex')}.tmp`);
  let created = false;
  try {
    const fd = openSync(tmp, 'wx', mode);
    created = true;
    try {
      writeAll(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (e) {
    if (created) rmSync(tmp, { force: true });
    throw e;
  }
}
