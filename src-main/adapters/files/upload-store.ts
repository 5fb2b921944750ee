/**
 * Files a browser uploads to `pipedejavu serve`: streamed to a private temporary folder as
 * bytes (never held in memory, never turned into one string), named by an unguessable id,
 * capped while they arrive, and removed once used, when unused for UPLOAD_LIMITS.idleMs, or
 * when the server stops. A quota bounds what one server holds at once (bytes and files).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { formatDuration } from '../../core/text/duration.js';
import { count } from '../../core/text/plural.js';

/** The upload limits of one server, in one place (named in the refusals). */
export const UPLOAD_LIMITS = {
  /** The largest upload: an ONNX file (protobuf) cannot exceed 2 GiB. */
  fileBytes: 2 ** 31 - 1,
  /** Bytes held at once, uploads still arriving included. */
  totalBytes: 4 * 2 ** 30,
  /** Files held at once, uploads still arriving included. */
  files: 64,
  /** An upload unused this long is deleted (ms). */
  idleMs: 60 * 60 * 1000,
};
export type UploadLimits = typeof UPLOAD_LIMITS;

export interface Uploads {
  /** The file of an upload of this server, or null for an unknown or expired id. Using it keeps it. */
  path(id: string): string | null;
  remove(id: string): void;
}

/** An upload stored, or why it was not (one line). */
export type Received = { id: string; bytes: number } | { refused: string };

export interface UploadStore extends Uploads {
  /** The private folder the uploads are in. */
  readonly dir: string;
  /**
   * Streams `body` to a new file; refused (and nothing kept) as soon as it passes the file cap
   * or the quota, from `declaredBytes` (a Content-Length) before reading when it is given.
   */
  receive(body: Readable, declaredBytes?: number): Promise<Received>;
  close(): void;
}

export interface UploadStoreOptions {
  /** Smaller limits (tests). */
  limits?: Partial<UploadLimits>;
  /** The clock the expiry reads (ms). */
  now?: () => number;
  /** How often expired uploads are looked for (ms; default a minute, or the expiry if shorter). */
  sweepEveryMs?: number;
}

const ID = /^[0-9a-f]{32}$/;

/** "100 B", "4 GiB", "1.5 MiB". */
function sizeText(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[u]}`;
}

/** The one-line refusals, each naming its limit. */
function refusals(l: UploadLimits) {
  const useThem = `use them or let them expire (after ${formatDuration(l.idleMs)} unused)`;
  return {
    tooLarge: `upload too large (over ${sizeText(l.fileBytes)}, UPLOAD_LIMITS.fileBytes)`,
    bytes: `upload refused: the uploads held on this server would pass ${sizeText(l.totalBytes)} (UPLOAD_LIMITS.totalBytes); ${useThem}`,
    files: `upload refused: this server holds ${count(l.files, 'upload')}, the most it keeps (UPLOAD_LIMITS.files); ${useThem}`,
  };
}

interface Held {
  bytes: number;
  usedAt: number;
}

export function createUploadStore(o: UploadStoreOptions = {}): UploadStore {
  const limits: UploadLimits = { ...UPLOAD_LIMITS, ...o.limits };
  const now = o.now ?? Date.now;
  const say = refusals(limits);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pipedejavu-uploads-'));
  const held = new Map<string, Held>();
  /** Uploads still arriving: their bytes so far. */
  const arriving = new Map<string, number>();
  const fileOf = (id: string): string => path.join(dir, id);
  const sum = (xs: Iterable<number>): number => [...xs].reduce((s, x) => s + x, 0);
  const bytesHeld = (): number => sum([...held.values()].map((h) => h.bytes)) + sum(arriving.values());

  const remove = (id: string): void => {
    if (!held.delete(id)) return;
    rmSync(fileOf(id), { force: true });
  };
  const sweep = (): void => {
    const t = now();
    for (const [id, h] of held) if (t - h.usedAt > limits.idleMs) remove(id);
  };
  const timer = setInterval(sweep, o.sweepEveryMs ?? Math.min(60_000, limits.idleMs));
  timer.unref();

  /** Why an upload of `more` bytes (on top of what is held) is refused, or null. */
  const overQuota = (more: number): string | null => {
    if (more > limits.fileBytes) return say.tooLarge;
    return bytesHeld() + more > limits.totalBytes ? say.bytes : null;
  };

  return {
    dir,
    path(id) {
      sweep();
      const h = ID.test(id) ? held.get(id) : undefined;
      if (!h) return null;
      h.usedAt = now();
      return fileOf(id);
    },
    remove,
    receive(body, declaredBytes) {
      sweep();
      if (held.size + arriving.size >= limits.files) return Promise.resolve({ refused: say.files });
      const early = declaredBytes !== undefined && Number.isFinite(declaredBytes) ? overQuota(declaredBytes) : null;
      if (early) return Promise.resolve({ refused: early });
      const id = randomBytes(16).toString('hex');
      const file = fileOf(id);
      const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
      arriving.set(id, 0);
      let bytes = 0;
      let failed = false;
      return new Promise((resolve, reject) => {
        const fail = (r: string | Error): void => {
          if (failed) return;
          failed = true;
          arriving.delete(id);
          body.unpipe(out);
          body.pause();
          // The file is opened asynchronously: it is removed once the stream has closed, not before.
          const removed = (): void => {
            rmSync(file, { force: true });
            if (typeof r === 'string') resolve({ refused: r });
            else reject(r);
          };
          if (out.closed) removed();
          else out.once('close', removed);
          out.destroy();
        };
        body.on('data', (c: Buffer) => {
          if (failed) return;
          arriving.delete(id);
          const why = overQuota(bytes + c.length);
          bytes += c.length;
          if (why) fail(why);
          else arriving.set(id, bytes);
        });
        body.on('error', fail);
        out.on('error', fail);
        out.on('finish', () => {
          if (failed) return;
          arriving.delete(id);
          held.set(id, { bytes, usedAt: now() });
          resolve({ id, bytes });
        });
        body.pipe(out);
      });
    },
    close() {
      clearInterval(timer);
      held.clear();
      arriving.clear();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
