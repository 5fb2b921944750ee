/**
 * The upload store of `pipedejavu serve`: a quota (bytes and files held at once, per server)
 * refused in one line, an expiry (files unused for a while are deleted), and nothing left at
 * stop. Small limits and a hand-driven clock are injected; nothing waits on real time.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createUploadStore,
  UPLOAD_LIMITS,
  type UploadStore,
} from '../../../../src-main/adapters/files/upload-store.js';

let store: UploadStore | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

const bytes = (n: number): Readable => Readable.from([Buffer.alloc(n, 7)]);

/** The id of an accepted upload (fails the test on a refusal). */
async function put(s: UploadStore, n: number): Promise<string> {
  const r = await s.receive(bytes(n));
  if (!('id' in r)) throw new Error(`refused: ${r.refused}`);
  return r.id;
}

describe('upload store', () => {
  it('has its limits in one table: a few GiB and 64 files per server, an hour unused', () => {
    expect(UPLOAD_LIMITS).toMatchObject({ files: 64, idleMs: 3_600_000 });
    expect(UPLOAD_LIMITS.totalBytes).toBeGreaterThanOrEqual(2 ** 31);
  });

  it('refuses an upload past the file quota in one line, and takes one again once a file is used', async () => {
    store = createUploadStore({ limits: { files: 2 } });
    const a = await put(store, 10);
    await put(store, 10);
    const r = await store.receive(bytes(10));
    expect(r).toEqual({
      refused:
        'upload refused: this server holds 2 uploads, the most it keeps (UPLOAD_LIMITS.files); use them or let them expire (after 1h00m unused)',
    });
    // Nothing of the refused one is on disk.
    expect(readdirSync(store.dir)).toHaveLength(2);
    store.remove(a);
    await put(store, 10);
  });

  it('refuses an upload that would pass the byte quota, from its announced size or while it arrives', async () => {
    store = createUploadStore({ limits: { totalBytes: 100 } });
    await put(store, 60);
    const line =
      'upload refused: the uploads held on this server would pass 100 B (UPLOAD_LIMITS.totalBytes); use them or let them expire (after 1h00m unused)';
    expect(await store.receive(bytes(50), 50)).toEqual({ refused: line });
    // Refused while it arrives, the file is gone when the answer comes (its stream opens asynchronously).
    for (let i = 0; i < 20; i++) {
      expect(await store.receive(bytes(50))).toEqual({ refused: line });
      expect(readdirSync(store.dir)).toHaveLength(1);
    }
    expect(await store.receive(bytes(40))).toMatchObject({ bytes: 40 });
  });

  it('refuses a file over the per-file cap in one line', async () => {
    store = createUploadStore({ limits: { fileBytes: 8 } });
    expect(await store.receive(bytes(9))).toEqual({ refused: 'upload too large (over 8 B, UPLOAD_LIMITS.fileBytes)' });
    expect(readdirSync(store.dir)).toEqual([]);
  });

  it('deletes a file unused for longer than the expiry; using it keeps it', async () => {
    let now = 1_000_000;
    store = createUploadStore({ limits: { idleMs: 1000 }, now: () => now });
    const kept = await put(store, 10);
    const left = await put(store, 10);
    const leftFile = store.path(left) as string;
    now += 600;
    expect(store.path(kept)).not.toBeNull(); // used: its hour starts again
    now += 600;
    expect(store.path(left)).toBeNull();
    expect(existsSync(leftFile)).toBe(false);
    expect(store.path(kept)).not.toBeNull();
    // An expired upload no longer counts against the quota.
    expect(readdirSync(store.dir)).toHaveLength(1);
  });

  it('deletes expired files by itself, with nobody asking', async () => {
    let now = 0;
    store = createUploadStore({ limits: { idleMs: 1000 }, now: () => now, sweepEveryMs: 5 });
    const id = await put(store, 10);
    const file = path.join(store.dir, id);
    expect(existsSync(file)).toBe(true);
    now += 1001;
    await vi.waitFor(() => expect(existsSync(file)).toBe(false), { timeout: 10_000, interval: 10 });
  });

  it('deletes every file when the server stops', async () => {
    store = createUploadStore();
    await put(store, 10);
    const dir = store.dir;
    store.close();
    store = null;
    expect(existsSync(dir)).toBe(false);
  });
});
