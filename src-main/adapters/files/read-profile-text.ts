/** Reads a profile file for import, with one clear message for each way that fails. */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { LIMITS } from '../../core/profile-file/schema.js';
import { readRegularFile } from './read-regular-file.js';

/** The files a path names for import: itself, or a folder's *.json files in name order. */
export function profileFilesIn(p: string): string[] {
  let isDir = false;
  try {
    isDir = statSync(p).isDirectory();
  } catch {
    return [p]; // reading it says what is wrong
  }
  if (!isDir) return [p];
  const files = readdirSync(p, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json'))
    .map((e) => path.join(p, e.name))
    .sort();
  if (files.length === 0) throw new UserError(`${p} holds no .json hardware-profile files`);
  return files;
}

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

/**
 * A profile piped in (`pipedejavu export | pipedejavu import -`): read up to the same cap as a
 * file, refused as soon as more arrives.
 */
export async function readProfileStream(stream: AsyncIterable<Uint8Array>, name = 'stdin'): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > LIMITS.maxFileBytes) {
      throw new UserError(
        `${name} holds more than ${LIMITS.maxFileBytes / 2 ** 20} MiB, too large to be a hardware profile`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
