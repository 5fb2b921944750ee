/** Writes a file through a temporary sibling and a rename: a crash never leaves half a file. */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { UserError, errorMessage } from '../../core/errors.js';

export function writeFileAtomic(file: string, text: string | Uint8Array): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = openSync(tmp, 'w');
    try {
      if (typeof text === 'string') writeSync(fd, text);
      else writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new UserError(`cannot write ${file}: ${errorMessage(e)}`);
  }
}
