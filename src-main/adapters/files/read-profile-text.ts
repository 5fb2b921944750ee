/** Reads a profile file for import, with one clear message for each way that fails. */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { LIMITS } from '../../core/profile-file/schema.js';
import { readRegularFile } from './read-regular-file.js';

/** What a path names for import, and the *.json entries of a folder that are not read, with why. */
export interface ProfileFiles {
  files: string[];
  skipped: { file: string; reason: string }[];
}

/** Why a folder's *.json entry is not read: only regular files are (a symbolic link is not followed). */
function skipReason(e: Dirent): string {
  if (e.isSymbolicLink())
    return 'a symbolic link (links in a folder are not followed; name the file itself to import it)';
  if (e.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/**
 * The files a path names for import: itself, or a folder's regular *.json files in name order; a
 * *.json entry that is not a regular file (a symbolic link, a folder, a FIFO) is skipped and named.
 */
export function profileFilesIn(p: string): ProfileFiles {
  let isDir = false;
  try {
    isDir = statSync(p).isDirectory();
  } catch {
    return { files: [p], skipped: [] }; // reading it says what is wrong
  }
  if (!isDir) return { files: [p], skipped: [] };
  const entries = readdirSync(p, { withFileTypes: true })
    .filter((e) => e.name.toLowerCase().endsWith('.json'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(p, e.name));
  const skipped = entries
    .filter((e) => !e.isFile())
    .map((e) => ({ file: path.join(p, e.name), reason: skipReason(e) }));
  if (files.length === 0) {
    const why = skipped.map((s) => `${path.basename(s.file)}: ${s.reason}`).join('; ');
    throw new UserError(`${p} holds no .json hardware-profile files${why ? ` (skipped ${why})` : ''}`);
  }
  return { files, skipped };
}

/** The file's bytes (import hashes an exported file's bytes as they are). */
export function readProfileBytes(file: string): Uint8Array {
  return readRegularFile(
    file,
    'hardware-profile',
    LIMITS.maxFileBytes,
    (n) =>
      `${file} is ${Math.round(n / 2 ** 20)} MiB, too large to be a hardware profile (at most ${LIMITS.maxFileBytes / 2 ** 20} MiB, LIMITS.maxFileBytes)`,
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
        `${name} holds more than ${LIMITS.maxFileBytes / 2 ** 20} MiB, too large to be a hardware profile (LIMITS.maxFileBytes)`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
