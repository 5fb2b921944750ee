import http from 'node:http';
import net from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src-main/app/app-core.js';
import { MAX_BODY_BYTES, type RunningServer } from '../../../src-main/http/server.js';
import { seedStore } from '../../helpers/seeded-store.js';
import { tempDir } from '../../helpers/cli.js';
import { serveCore } from '../../helpers/http-server.js';
import { httpTransport } from '../../../src-main/api/http-transport.js';
import { createApiClient, ApiCallError } from '../../../src-main/api/client.js';
import { PATHS_REFUSED_OVER_HTTP } from '../../../src-main/app/handlers/workload-spec.js';

const TOKEN = 'test-token-0123456789abcdef';
let core: AppCore;
let server: RunningServer;
let root: string;

beforeAll(async () => {
  const dir = tempDir('pdjv-http-');
  root = path.join(dir, 'renderer');
  mkdirSync(root);
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>pipeDejavu</title>');
  writeFileSync(path.join(dir, 'secret.txt'), 'outside the renderer');
  core = createAppCore({ dbPath: path.join(dir, 'db.sqlite'), transport: 'http', inProcessJobs: true });
  seedStore(core.deps.db);
  server = await serveCore(core, {
    token: TOKEN,
    rendererDir: root,
    // A small cap, so the chunked-body test needs tens of MB, not the 384 MiB of the real one.
    maxBodyBytes: 16 * 2 ** 20,
  });
});

afterAll(async () => {
  await server.close();
  core.close();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function raw(method: string, p: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path: p,
        headers: { host: `127.0.0.1:${server.port}`, ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
          // Server-sent events never end: the first chunk is enough.
          if (res.headers['content-type'] === 'text/event-stream') {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const api = (channel: string, headers: Record<string, string> = {}, body = '{}'): Promise<Raw> =>
  raw('POST', `/api/${channel}`, { 'content-type': 'application/json', 'x-pipedejavu-token': TOKEN, ...headers }, body);

describe('pipedejavu serve: who gets an answer', () => {
  it('listens on 127.0.0.1 and prints a URL with the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${TOKEN}`);
  });

  it('answers API calls that carry the token', async () => {
    const r = await api('machine:list');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true });
  });

  it('refuses API calls without the token or with a wrong one', async () => {
    for (const headers of [
      { 'x-pipedejavu-token': '' },
      { 'x-pipedejavu-token': `${TOKEN}x` },
      { 'x-pipedejavu-token': 'nope' },
    ]) {
      const r = await api('machine:list', headers);
      expect(r.status).toBe(401);
      expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { message: 'missing or wrong token' } });
    }
    const noHeader = await raw('POST', '/api/machine:list', { 'content-type': 'application/json' }, '{}');
    expect(noHeader.status).toBe(401);
    // The token in the query is for the event stream only.
    const inQuery = await raw('POST', `/api/machine:list?token=${TOKEN}`, { 'content-type': 'application/json' }, '{}');
    expect(inQuery.status).toBe(401);
  });

  it('refuses a foreign Host (DNS rebinding), even with the token', async () => {
    for (const host of ['evil.example:80', `evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`]) {
      const r = await api('machine:list', { host });
      expect(r.status).toBe(403);
    }
    const page = await raw('GET', '/', { host: `attacker.test:${server.port}` });
    expect(page.status).toBe(403);
    expect((await api('machine:list', { host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('refuses a foreign Origin and never sends CORS headers', async () => {
    const r = await api('machine:list', { origin: 'http://evil.example' });
    expect(r.status).toBe(403);
    const same = await api('machine:list', { origin: `http://127.0.0.1:${server.port}` });
    expect(same.status).toBe(200);
    expect(same.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await raw('OPTIONS', '/api/machine:list', { origin: `http://127.0.0.1:${server.port}` });
    expect(preflight.status).toBe(405);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('takes JSON only, and says so for bodies that are not', async () => {
    expect((await api('machine:list', { 'content-type': 'text/plain' })).status).toBe(415);
    const r = await api('machine:list', {}, '{oops');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { message: 'the request body is not JSON' } });
    const unknown = await api('machine:drop');
    expect(unknown.status).toBe(404);
    expect((await raw('GET', '/api/machine:list', { 'x-pipedejavu-token': TOKEN })).status).toBe(405);
  });

  it('streams job events only with the token', async () => {
    expect((await raw('GET', '/api/events')).status).toBe(401);
    const ok = await raw('GET', `/api/events?token=${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('text/event-stream');
  });

  it('serves the renderer with a strict CSP and nothing outside its folder', async () => {
    const page = await raw('GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt']) {
      const r = await raw('GET', p);
      expect(r.status).toBe(404);
      expect(r.body).not.toContain('outside the renderer');
    }
  });
});

describe('the HTTP transport of the renderer client', () => {
  it('returns values and turns error results into ApiCallError', async () => {
    const client = createApiClient(
      httpTransport({ baseUrl: `http://127.0.0.1:${server.port}`, token: TOKEN, fetch: globalThis.fetch }),
    );
    const machines = await client.call('machine:list', {});
    expect(machines.length).toBe(1);
    await expect(client.call('machine:get', { id: 'no-such-machine' })).rejects.toBeInstanceOf(ApiCallError);
    const bad = createApiClient(
      httpTransport({ baseUrl: `http://127.0.0.1:${server.port}`, token: 'wrong', fetch: globalThis.fetch }),
    );
    await expect(bad.call('machine:list', {})).rejects.toThrow('missing or wrong token');
  });
});

describe('limits and malformed requests', () => {
  const auth = { 'x-pipedejavu-token': TOKEN, 'content-type': 'application/json' };

  it('answers a malformed %-escape in the API path with 400, not 500', async () => {
    const r = await raw('POST', '/api/%E0%A4%A', auth, '{}');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { message: 'malformed %-escape in the API path' } });
  });

  it('refuses an over-cap body from its Content-Length at once, without reading it', async () => {
    const started = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/api/machine:import',
          headers: { host: `127.0.0.1:${server.port}`, ...auth, 'content-length': String(2 * 2 ** 30) },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.write('{"fileName": "x.json", "text": "');
    });
    expect(status).toBe(413);
    // 2 GiB were announced and a few bytes sent: the answer did not wait for the rest.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('caps JSON bodies at MAX_BODY_BYTES unless told otherwise', async () => {
    const plain = await serveCore(core, { token: TOKEN, rendererDir: root });
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: plain.port,
            method: 'POST',
            path: '/api/machine:list',
            headers: {
              host: `127.0.0.1:${plain.port}`,
              ...auth,
              'content-type': 'application/json',
              'content-length': String(MAX_BODY_BYTES + 1),
            },
          },
          (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write('{');
      });
      expect(answer.status).toBe(413);
      expect(answer.body).toContain(`request too large (over ${MAX_BODY_BYTES / 2 ** 20} MiB)`);
    } finally {
      await plain.close();
    }
  });

  it('stops reading a chunked body once it passes the cap', async () => {
    const chunk = Buffer.alloc(8 * 2 ** 20, 0x61);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/api/machine:import',
          headers: { host: `127.0.0.1:${server.port}`, ...auth, 'transfer-encoding': 'chunked' },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', () => undefined);
      let sent = 0;
      const pump = (): void => {
        // Writes up to 256 MiB, far past the cap, unless the server answers first.
        while (sent < 2 ** 28) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
      setTimeout(() => reject(new Error('no answer')), 60_000).unref();
    });
    expect(status).toBe(413);
  });

  it('answers 413 to a client that reads only after it has sent past the cap', async () => {
    // The client does not read while it writes: a server that resets the connection right
    // after its answer (RST with the body unread) throws the 413 away before the client sees it.
    const socket = net.connect(server.port, '127.0.0.1');
    socket.pause();
    const chunk = Buffer.alloc(2 ** 20, 0x61);
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const head =
      `POST /api/machine:import HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\n` +
      `x-pipedejavu-token: ${TOKEN}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;
    const writeAll = async (): Promise<void> => {
      socket.write(head);
      // 24 MiB, past the 16 MiB cap; stops early when the server stops reading.
      for (let i = 0; i < 24; i++) {
        if (socket.destroyed) return;
        if (!socket.write(frame)) {
          const drained = await Promise.race([
            new Promise<boolean>((r) => socket.once('drain', () => r(true))),
            new Promise<boolean>((r) => setTimeout(() => r(false), 500)),
          ]);
          if (!drained) return;
        }
      }
    };
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
      socket.on('error', () => resolve(text));
      socket.on('close', () => resolve(text));
    });
    socket.on('error', () => undefined);
    await writeAll();
    await new Promise((r) => setTimeout(r, 200));
    socket.resume();
    expect((await answer).split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    socket.destroy();
  });

  it('refuses a server path in workload:add over HTTP without looking at the file', async () => {
    const client = createApiClient(
      httpTransport({ baseUrl: `http://127.0.0.1:${server.port}`, token: TOKEN, fetch: globalThis.fetch }),
    );
    for (const p of ['/etc/passwd', '/nonexistent/file.onnx']) {
      await expect(client.call('workload:add', { fileName: 'm.onnx', path: p })).rejects.toThrow(
        PATHS_REFUSED_OVER_HTTP,
      );
    }
  });
});
