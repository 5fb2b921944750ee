/** The browser's way to send files: raw bytes streamed to disk, then named by an id. */
import http from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore } from '../../../src-main/app/app-core.js';
import { createUploadStore } from '../../../src-main/adapters/files/upload-store.js';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { sampleProfileFile } from '../../helpers/sample-profile.js';
import { tempDir } from '../../helpers/cli.js';
import { serveApp, serveCore, type ServedApp } from '../../helpers/http-server.js';

const TOKEN = 'upload-token-0123456789abcdef';
let app: ServedApp;

beforeAll(async () => {
  app = await serveApp('pdjv-upload-', TOKEN, { inProcessJobs: true });
});

afterAll(() => app.close());

async function post(
  p: string,
  body: string | Uint8Array,
  type: string,
  token = TOKEN,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${app.base}${p}`, {
    method: 'POST',
    headers: { 'content-type': type, 'x-pipedejavu-token': token },
    body,
  });
  return { status: res.status, json: await res.json() };
}

describe('POST /api/upload', () => {
  it('takes the bytes, and machine:import imports them by id, once', async () => {
    const up = await post('/api/upload', encodeProfile(sampleProfileFile()), 'application/octet-stream');
    expect(up.status).toBe(200);
    const uploadId = (up.json as { value: { uploadId: string } }).value.uploadId;
    expect(uploadId).toMatch(/^[0-9a-f]{32}$/);
    const file = app.uploads.path(uploadId) as string;
    expect(existsSync(file)).toBe(true);
    const imported = await post(
      '/api/machine:import',
      JSON.stringify({ fileName: 'lab.json', uploadId }),
      'application/json',
    );
    expect(imported.json).toMatchObject({ ok: true, value: { action: 'imported', label: 'lab-ws-01' } });
    // Used once, then gone from disk.
    expect(existsSync(file)).toBe(false);
    const again = await post(
      '/api/machine:import',
      JSON.stringify({ fileName: 'lab.json', uploadId }),
      'application/json',
    );
    expect(again.json).toMatchObject({
      ok: false,
      error: { message: 'that upload is unknown or was used already; upload the file again' },
    });
  });

  it('needs the token and octet-stream, and refuses an announced 3 GiB at once', async () => {
    expect((await post('/api/upload', 'x', 'application/octet-stream', 'wrong')).status).toBe(401);
    expect((await post('/api/upload', 'x', 'application/json')).status).toBe(415);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: app.server.port,
          method: 'POST',
          path: '/api/upload',
          headers: {
            host: `127.0.0.1:${app.server.port}`,
            'x-pipedejavu-token': TOKEN,
            'content-type': 'application/octet-stream',
            'content-length': String(3 * 2 ** 30),
          },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
    });
    expect(status).toBe(413);
  });

  it('an id that this server never gave is refused in one line, and names no file', async () => {
    const r = await post(
      '/api/workload:add',
      JSON.stringify({ fileName: 'm.onnx', uploadId: '0123456789abcdef0123456789abcdef' }),
      'application/json',
    );
    expect(r.json).toMatchObject({
      ok: false,
      error: { message: 'that upload is unknown or was used already; upload the file again' },
    });
  });
});

describe('POST /api/upload with a quota', () => {
  it('answers 413 with the quota line once the server holds its most uploads, and takes more once one is used', async () => {
    const small = createUploadStore({ limits: { files: 2 } });
    const c = createAppCore({
      dbPath: path.join(tempDir('pdjv-quota-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
      uploads: small,
    });
    const s = await serveCore(c, { uploads: small, token: TOKEN, rendererDir: tempDir('pdjv-quota-r-') });
    const send = async (body: string): Promise<{ status: number; json: unknown }> => {
      const res = await fetch(`http://127.0.0.1:${s.port}/api/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-pipedejavu-token': TOKEN },
        body,
      });
      return { status: res.status, json: await res.json() };
    };
    try {
      const first = await send('a');
      expect((await send('b')).status).toBe(200);
      expect(await send('c')).toEqual({
        status: 413,
        json: {
          ok: false,
          error: {
            code: 'invalid',
            message:
              'upload refused: this server holds 2 uploads, the most it keeps (UPLOAD_LIMITS.files); use them or let them expire (after 1h00m unused)',
          },
        },
      });
      small.remove((first.json as { value: { uploadId: string } }).value.uploadId);
      expect((await send('d')).status).toBe(200);
    } finally {
      await s.close();
      c.close();
      small.close();
    }
  });
});
