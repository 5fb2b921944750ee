/**
 * `pipedejavu serve`: the renderer and the API over HTTP on 127.0.0.1, for a browser
 * (through an SSH tunnel on a headless GPU server) and for the end-to-end tests.
 *  POST /api/<channel>  JSON request -> {ok, value} | {ok: false, error}
 *  GET  /api/events     server-sent job events
 *  GET  /*              the built renderer
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTP_API_PREFIX, HTTP_EVENTS_PATH, HTTP_TOKEN_HEADER } from '../api/client.js';
import type { JobEvent } from '../api/contract.js';
import { fail } from '../api/result.js';
import type { Dispatch } from '../app/dispatch.js';
import { hostAllowed, originAllowed, tokenMatches } from './guards.js';
import { CONTENT_SECURITY_POLICY, readStatic } from '../adapters/web/renderer-files.js';
import type { UploadStore } from '../adapters/files/upload-store.js';
import { HTTP_UPLOAD_PATH } from '../api/client.js';
import { jsonShapeRefusal, MAX_JSON_DEPTH, MAX_JSON_VALUES } from './json-depth.js';
import { JsonParser } from './json-off-thread.js';

/**
 * The largest JSON request. Files (profiles, models) are uploaded (/api/upload, streamed to disk),
 * never sent as JSON over HTTP, so requests are small. A body is held about four times while it is
 * read and parsed, on the thread that answers every other request: one at 384 MiB took the server
 * to 1.6 GB, and one at 144 MiB held it 224 ms.
 */
export const MAX_BODY_BYTES = 16 * 2 ** 20;
const tooLarge = (cap: number): string =>
  `request too large (over ${Math.round(cap / 2 ** 20)} MiB); send files through ${HTTP_UPLOAD_PATH}`;

export interface ServerOptions {
  dispatch: Dispatch;
  /** Where `POST /api/upload` puts files (absent: uploads are refused). */
  uploads?: UploadStore;
  subscribe: (listener: (e: JobEvent) => void) => () => void;
  token: string;
  rendererDir: string;
  port?: number;
  /** Largest JSON body (default MAX_BODY_BYTES; tests use a small one). */
  maxBodyBytes?: number;
}

export interface RunningServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer, extra = {}): void {
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': type, 'cache-control': 'no-store', ...extra });
  res.end(body);
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/**
 * The body, or 'too-large' as soon as it passes the cap (from Content-Length, or while reading).
 * With a Content-Length, each piece is copied into one buffer as it arrives: joining 16 MiB of
 * pieces at the end held the thread about 80 ms (the memory's first touch, on a VM).
 */
function readBody(req: http.IncomingMessage, cap: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > cap) return Promise.resolve('too-large');
  const whole = Number.isSafeInteger(declared) && declared > 0 ? Buffer.allocUnsafeSlow(declared) : null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer): void => {
      if (size + c.length > (whole ? whole.length : cap)) {
        req.off('data', onData);
        req.pause();
        resolve('too-large');
        return;
      }
      if (whole) c.copy(whole, size);
      else chunks.push(c);
      size += c.length;
    };
    req.on('data', onData);
    req.on('end', () => resolve(whole ? whole.subarray(0, size) : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** How long a refused body is still read (and thrown away) after the answer, so the client sees it. */
const LINGER_MS = 2000;

/**
 * Answers 413 and closes gently. Node closes a `connection: close` answer at once, with the
 * rest of the body unread: the kernel then resets the connection, and a client that reads
 * only after it has written loses the answer. So the connection stays open while Node drains
 * and drops the body, and is closed a moment later.
 */
function refuseTooLarge(req: http.IncomingMessage, res: http.ServerResponse, message: string): void {
  res.on('finish', () => setTimeout(() => req.socket.destroy(), LINGER_MS).unref());
  sendJson(res, 413, fail('invalid', message));
}

function channelOf(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname.slice(HTTP_API_PREFIX.length));
  } catch {
    return null;
  }
}

/** The server-sent event stream: its open responses, the job events and a keep-alive for each. */
interface EventStreams {
  add(req: http.IncomingMessage, res: http.ServerResponse): void;
  close(): void;
}

function eventStreams(subscribe: ServerOptions['subscribe']): EventStreams {
  const clients = new Set<http.ServerResponse>();
  const unsubscribe = subscribe((e) => {
    const line = `data: ${JSON.stringify(e)}\n\n`;
    for (const c of clients) c.write(line);
  });
  const heartbeat = setInterval(() => {
    for (const c of clients) c.write(': keep-alive\n\n');
  }, 15_000);
  heartbeat.unref();
  return {
    add(req, res) {
      res.writeHead(200, {
        ...BASE_HEADERS,
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
    },
    close() {
      clearInterval(heartbeat);
      unsubscribe();
      for (const c of clients) c.end();
    },
  };
}

/** The token a request carries in its header (API calls and uploads). */
function headerToken(req: http.IncomingMessage): string | undefined {
  return req.headers[HTTP_TOKEN_HEADER] as string | undefined;
}

/** `POST /api/<channel>`: a JSON request to dispatch. */
async function serveApi(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathname: string,
  o: ServerOptions,
  parser: JsonParser,
): Promise<void> {
  if (req.method !== 'POST') return sendJson(res, 405, fail('invalid', 'POST only'));
  if (!tokenMatches(headerToken(req), o.token))
    return sendJson(res, 401, fail('unauthorized', 'missing or wrong token'));
  if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
    return sendJson(res, 415, fail('invalid', 'send application/json'));
  const channel = channelOf(pathname);
  if (channel === null) return sendJson(res, 400, fail('invalid', 'malformed %-escape in the API path'));
  const cap = o.maxBodyBytes ?? MAX_BODY_BYTES;
  const body = await readBody(req, cap);
  if (body === 'too-large') return refuseTooLarge(req, res, tooLarge(cap));
  // Counted on the bytes first: parsing a deeply nested or very wide body is what holds the event loop and memory.
  const shape = jsonShapeRefusal(body, MAX_JSON_DEPTH, MAX_JSON_VALUES);
  if (shape === 'deep')
    return sendJson(res, 400, fail('invalid', `the request body nests deeper than ${MAX_JSON_DEPTH} levels`));
  if (shape === 'wide')
    return sendJson(res, 400, fail('invalid', `the request body holds more than ${MAX_JSON_VALUES} values`));
  const parsed = await parser.parse(body);
  if (!parsed.ok)
    return sendJson(
      res,
      400,
      fail(
        'invalid',
        parsed.why === 'lost' ? 'the request body could not be read; send it again' : 'the request body is not JSON',
      ),
    );
  const result = await o.dispatch(channel, parsed.value);
  const status = result.ok ? 200 : result.error.code === 'not-found' ? 404 : 200;
  return sendJson(res, status, result);
}

/** `POST /api/upload`: raw bytes streamed to a file; answers the upload id the channels take. */
async function serveUpload(req: http.IncomingMessage, res: http.ServerResponse, o: ServerOptions): Promise<void> {
  if (req.method !== 'POST') return sendJson(res, 405, fail('invalid', 'POST only'));
  if (!tokenMatches(headerToken(req), o.token))
    return sendJson(res, 401, fail('unauthorized', 'missing or wrong token'));
  if (!o.uploads) return sendJson(res, 404, fail('not-found', 'uploads are not enabled'));
  if (!(req.headers['content-type'] ?? '').startsWith('application/octet-stream'))
    return sendJson(res, 415, fail('invalid', 'send application/octet-stream'));
  // Past the file cap or the server's quota (from Content-Length before reading, else as it arrives): one line.
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  const r = await o.uploads.receive(req, declared);
  if ('refused' in r) return refuseTooLarge(req, res, r.refused);
  return sendJson(res, 200, { ok: true, value: { uploadId: r.id, bytes: r.bytes } });
}

/** `GET /*`: a file of the built renderer. */
function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, rendererDir: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, fail('invalid', 'GET only'));
  const file = readStatic(rendererDir, pathname);
  if (!file) {
    if (pathname === '/' || pathname === '/index.html') {
      return send(
        res,
        503,
        'text/plain; charset=utf-8',
        `The app is not built (${rendererDir} is missing); run npm run build.\n`,
      );
    }
    return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }
  send(res, 200, file.type, file.body, { 'content-security-policy': CONTENT_SECURITY_POLICY });
}

/** Every request: the host and origin guards, then the route. */
async function route(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  o: ServerOptions,
  port: number,
  events: EventStreams,
  parser: JsonParser,
): Promise<void> {
  if (!hostAllowed(req.headers.host, port)) {
    sendJson(res, 403, fail('invalid', 'forbidden host: open the URL pipedejavu serve printed'));
    return;
  }
  if (!originAllowed(req.headers.origin, port)) {
    sendJson(res, 403, fail('invalid', 'forbidden origin'));
    return;
  }
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  if (url.pathname === HTTP_EVENTS_PATH) {
    if (req.method !== 'GET') return sendJson(res, 405, fail('invalid', 'GET only'));
    if (!tokenMatches(url.searchParams.get('token'), o.token))
      return sendJson(res, 401, fail('unauthorized', 'missing or wrong token'));
    return events.add(req, res);
  }
  if (url.pathname === HTTP_UPLOAD_PATH) return serveUpload(req, res, o);
  if (url.pathname.startsWith(HTTP_API_PREFIX)) return serveApi(req, res, url.pathname, o, parser);
  return serveStatic(req, res, url.pathname, o.rendererDir);
}

export function startServer(o: ServerOptions): Promise<RunningServer> {
  let port = 0;
  const events = eventStreams(o.subscribe);
  const parser = new JsonParser();
  const server = http.createServer((req, res) => {
    route(req, res, o, port, events, parser).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, fail('internal', `internal error: ${String(e)}`));
      else res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => {
      port = (server.address() as AddressInfo).port;
      resolve({
        port,
        url: `http://127.0.0.1:${port}/?token=${encodeURIComponent(o.token)}`,
        close: () =>
          new Promise<void>((done) => {
            events.close();
            void parser.close();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
