/**
 * Files a browser uploads to `pipedejavu serve`: streamed to a private temporary folder as
 * bytes (never held in memory, never turned into one string), named by an unguessable id,
 * capped while they arrive, and removed once used or when the server stops.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** The largest upload: an ONNX file (protobuf) cannot exceed 2 GiB. */
export const MAX_UPLOAD_BYTES = 2 ** 31 - 1;

export interface Uploads {
  /** The file of an upload of this server, or null for an unknown id. */
  path(id: string): string | null;
  remove(id: string): void;
}

export interface UploadStore extends Uploads {
  /** Streams `body` to a new file; 'too-large' as soon as it passes `maxBytes` (the file is removed). */
  receive(body: Readable, maxBytes?: number): Promise<{ id: string; bytes: number } | 'too-large'>;
  close(): void;
}

const ID = /^[0-9a-f]{32}$/;

export function createUploadStore(): UploadStore {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pipedejavu-uploads-'));
  const known = new Set<string>();
  const fileOf = (id: string): string => path.join(dir, id);
  return {
    path: (id) => (ID.test(id) && known.has(id) ? fileOf(id) : null),
    remove(id) {
      if (!known.delete(id)) return;
      rmSync(fileOf(id), { force: true });
    },
    receive(body, maxBytes = MAX_UPLOAD_BYTES) {
      const id = randomBytes(16).toString('hex');
      const file = fileOf(id);
      const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
      let bytes = 0;
      return new Promise((resolve, reject) => {
        const fail = (r: 'too-large' | Error): void => {
          body.unpipe(out);
          body.pause();
          out.destroy();
          rmSync(file, { force: true });
          if (r === 'too-large') resolve(r);
          else reject(r);
        };
        body.on('data', (c: Buffer) => {
          bytes += c.length;
          if (bytes > maxBytes) fail('too-large');
        });
        body.on('error', fail);
        out.on('error', fail);
        out.on('finish', () => {
          if (bytes > maxBytes) return;
          known.add(id);
          resolve({ id, bytes });
        });
        body.pipe(out);
      });
    },
    close() {
      known.clear();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
