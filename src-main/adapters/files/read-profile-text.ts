/** Reads a profile file for import, with one clear message for each way that fails. */
import { LIMITS } from '../../core/profile-file/schema.js';
import { readRegularFile } from './read-regular-file.js';

export function readProfileText(file: string): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(readProfileBytes(file));
}

/** The file's bytes (import hashes an exported file's bytes as they are). */
export function readProfileBytes(file: string): Uint8Array {
  return readRegularFile(
    file,
    'hardware-profile',
    LIMITS.maxFileBytes,
    (n) => `${file} is ${Math.round(n / 2 ** 20)} MiB, too large to be a hardware profile`,
  );
}
