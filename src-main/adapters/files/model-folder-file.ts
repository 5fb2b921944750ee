/**
 * The files of a model folder (config.json, model.safetensors.index.json, the safetensors shards,
 * an ONNX model's external data) are read only as what they claim to be: a regular file inside the
 * folder. The user names the folder; what it holds may come from anyone (a downloaded archive, a
 * cloned repository), so a file of it is checked before it is opened:
 *
 * - its path is resolved (every symlink on the way, a linked subfolder included) and must land
 *   inside the folder's own resolved path. A symlink from one file of the folder to another stays
 *   allowed (weights kept in a subfolder, a file linked under a second name), and so does the
 *   Hugging Face hub cache's layout, where `models--ORG--NAME/snapshots/REV/` holds links to the
 *   repository's own `models--ORG--NAME/blobs/`. Any other symlink, or one that leads nowhere, is
 *   refused in one line that names the file relative to the folder, the same words either way (the
 *   answer does not tell whether a path outside exists), never its target, size or bytes;
 * - a folder named like a file is called a folder; a device, FIFO or socket is refused unopened;
 * - the file opened is the one checked: its resolved path is opened without following a last
 *   symlink (non-blocking, so a FIFO swapped in cannot hang), and its device and inode must be those
 *   checked, or it changed in between and is refused.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { readOpenFile } from './read-regular-file.js';

/** A checked file of a model folder: its resolved path and what it was when checked. */
export interface FolderFile {
  /** The path given (folder/name), for messages that name the file. */
  file: string;
  /** The resolved path: no symlink left in it. */
  real: string;
  dev: number;
  ino: number;
  size: number;
}

function resolved(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/** `p` lies strictly inside `dir` (both resolved). */
const isInside = (dir: string, p: string): boolean => {
  const rel = path.relative(dir, p);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
};

/**
 * The blobs folder of the Hugging Face hub cache repository a resolved folder is a snapshot of
 * (`.../models--ORG--NAME/snapshots/REV[/sub]` -> `.../models--ORG--NAME/blobs`), or null.
 */
function hubBlobs(realFolder: string): string | null {
  const parts = realFolder.split(path.sep);
  const at = parts.lastIndexOf('snapshots');
  if (at < 1 || at >= parts.length - 1 || !(parts[at - 1] ?? '').startsWith('models--')) return null;
  return [...parts.slice(0, at), 'blobs'].join(path.sep);
}

/** Whether a resolved file may be read for a folder: inside it, or a blob of its hub cache repository. */
function allowed(realFolder: string, real: string): boolean {
  if (isInside(realFolder, real)) return true;
  const blobs = hubBlobs(realFolder);
  return blobs !== null && path.dirname(real) === blobs;
}

/** What a file of a folder is, checked before it is opened: readable, or why not. */
export type FolderFileCheck =
  { ok: true; file: FolderFile } | { ok: false; problem: 'missing' | 'linked-out' | 'folder' | 'not-regular' };

/**
 * Looks at the file `name` (relative, inside the folder; callers refuse `..` and absolute names
 * first) of `folder` without opening it.
 */
export function inspectFolderFile(folder: string, name: string): FolderFileCheck {
  const file = path.join(folder, name);
  const realFolder = resolved(folder);
  if (realFolder === null) return { ok: false, problem: 'missing' };
  try {
    lstatSync(file);
  } catch {
    // Missing: plainly, when nothing on the way is a link; else as any link that leads out.
    const parent = resolved(path.dirname(file));
    const plain = parent !== null && parent === path.resolve(realFolder, path.dirname(name));
    return { ok: false, problem: plain ? 'missing' : 'linked-out' };
  }
  const real = resolved(file);
  if (real === null || !allowed(realFolder, real)) return { ok: false, problem: 'linked-out' };
  let st: Stats;
  try {
    st = statSync(real);
  } catch {
    return { ok: false, problem: 'linked-out' };
  }
  if (st.isDirectory()) return { ok: false, problem: 'folder' };
  if (!st.isFile()) return { ok: false, problem: 'not-regular' };
  return { ok: true, file: { file, real, dev: st.dev, ino: st.ino, size: st.size } };
}

/** Checks a file of a folder before it is opened, or refuses it in one line; `what` names its kind. */
function checkFolderFile(folder: string, name: string, what: string): FolderFile {
  const c = inspectFolderFile(folder, name);
  if (c.ok) return c.file;
  switch (c.problem) {
    case 'missing':
      throw new UserError(`no such file: ${path.join(folder, name)}`);
    case 'linked-out':
      throw new UserError(
        `${folder}: ${name} is a symlink leading outside the model folder (or to nothing); only files inside the folder are read`,
      );
    case 'folder':
      throw new UserError(`${folder}: ${name} is a folder, not a ${what} file`);
    case 'not-regular':
      throw new UserError(`${folder}: ${name} is not a regular file (a device, pipe or socket)`);
  }
}

/** Opens a checked file: the very file checked, or a one-line refusal. The caller closes it. */
export function openFolderFile(folder: string, name: string, what: string): { fd: number; checked: FolderFile } {
  const checked = checkFolderFile(folder, name, what);
  let fd: number;
  try {
    fd = openSync(checked.real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    throw new UserError(`cannot read ${checked.file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.dev !== checked.dev || st.ino !== checked.ino)
      throw new UserError(`${folder}: ${name} changed while it was read; read it again`);
    return { fd, checked: { ...checked, size: st.size } };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** The bytes of a checked file of a folder, at most `maxBytes`; `tooLarge` words the refusal. */
export function readFolderFile(
  folder: string,
  name: string,
  what: string,
  maxBytes: number,
  tooLarge: (file: string, bytes: number) => string,
): Uint8Array {
  const { fd, checked } = openFolderFile(folder, name, what);
  try {
    return readOpenFile(fd, checked.file, maxBytes, (n) => tooLarge(checked.file, n));
  } finally {
    closeSync(fd);
  }
}

/** Whether a name in the folder exists as anything, a symlink that leads nowhere included. */
export function folderHas(folder: string, name: string): boolean {
  try {
    lstatSync(path.join(folder, name));
    return true;
  } catch {
    return false;
  }
}
