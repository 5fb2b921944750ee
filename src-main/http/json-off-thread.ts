/**
 * JSON bodies past a megabyte parsed on a worker thread. A 16 MiB body took about 60 ms to decode
 * and 70 ms to parse on the thread that answers every other request (Zen 5): together past the
 * 100 ms that `serve` promises `app:info` while any request runs. The worker decodes and parses;
 * the value comes back by structured clone (a few ms for a 16 MiB string). Smaller bodies are
 * parsed here: a worker round trip costs more than they do.
 */
import { Worker } from 'node:worker_threads';

/** Bodies of at least this many bytes are parsed off the main thread. */
export const OFF_THREAD_BYTES = 2 ** 20;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, bytes }) => {
  let value;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    parentPort.postMessage({ id, ok: false });
    return;
  }
  parentPort.postMessage({ id, ok: true, value });
});
`;

/** The value; or not-json; or lost, when the worker died under the body (out of memory). */
export type Parsed = { ok: true; value: unknown } | { ok: false; why: 'not-json' | 'lost' };

interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
}

/** One worker, started on first use and unref'd (it never keeps the process alive). */
export class JsonParser {
  private worker: Worker | null = null;
  private next = 0;
  private readonly waiting = new Map<number, (r: Parsed) => void>();

  /** The body's value, or why there is none. */
  parse(body: Buffer): Promise<Parsed> {
    if (body.length < OFF_THREAD_BYTES) return Promise.resolve(parseHere(body));
    const id = this.next++;
    const worker = this.started();
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      const bytes = ownMemory(body);
      worker.postMessage({ id, bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    return w ? w.terminate().then(() => undefined) : Promise.resolve();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.unref();
    w.on('message', (r: Reply) =>
      this.settle(r.id, r.ok ? { ok: true, value: r.value } : { ok: false, why: 'not-json' }),
    );
    // A worker that dies (out of memory) fails what it held; the next body starts another.
    w.on('error', () => this.failAll(w));
    w.on('exit', () => this.failAll(w));
    this.worker = w;
    return w;
  }

  private settle(id: number, r: Parsed): void {
    this.waiting.get(id)?.(r);
    this.waiting.delete(id);
  }

  private failAll(w: Worker): void {
    if (this.worker === w) this.worker = null;
    for (const id of [...this.waiting.keys()]) this.settle(id, { ok: false, why: 'lost' });
  }
}

/**
 * The body's bytes in memory of their own, to transfer: a large Buffer.concat result already is
 * (copying 16 MiB again held the thread 70-110 ms); a Buffer sharing the pool is copied, since
 * transfer would detach the others' bytes.
 */
function ownMemory(body: Buffer): Uint8Array {
  const alone = body.byteOffset === 0 && body.buffer.byteLength === body.length;
  return alone ? new Uint8Array(body.buffer, 0, body.length) : new Uint8Array(body);
}

function parseHere(body: Buffer): Parsed {
  try {
    return { ok: true, value: body.length ? JSON.parse(body.toString('utf8')) : {} };
  } catch {
    return { ok: false, why: 'not-json' };
  }
}
