/** Reads a profile file for import, with one clear message for each way that fails. */
import { readFileSync, statSync } from 'node:fs';
import { LIMITS } from '../../core/profile-file/schema.js';
import { UserError } from '../../core/errors.js';

export function readProfileText(file: string): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(readProfileBytes(file));
}

/** The file's bytes (import hashes an exported file's bytes as they are). */
export function readProfileBytes(file: string): Uint8Array {
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new UserError(`${file} is a directory, not a hardware-profile file`);
    size = st.size;
  } catch (e) {
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file} (${code ?? 'error'})`);
  }
  if (size > LIMITS.maxFileBytes) {
    throw new UserError(`${file} is ${Math.round(size / 2 ** 20)} MiB, too large to be a hardware profile`);
  }
  return readFileSync(file);
}
