/**
 * `pipedejavu serve` under a heavy user file: the work runs in the job runner (a child
 * process), never on the server's event loop, so every other call keeps its answer. A real
 * store, real job-runner children (dist/job-runner.js), a real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reluChain } from '../../helpers/hostile-onnx.js';
import { seedStore } from '../../helpers/seeded-store.js';
import { serveApp, type ServedApp } from '../../helpers/http-server.js';

const TOKEN = 'busy-token-0123456789abcdef';
/** Enough nodes that parsing them takes the main thread for well over a second. */
const NODES = 200_000;
let app: ServedApp;

beforeAll(async () => {
  // No inProcessJobs: jobs run in job-runner children on the database file, as in serve.
  app = await serveApp('pdjv-busy-', TOKEN);
  seedStore(app.core.deps.db);
});

afterAll(() => app.close());

async function post(p: string, body: string | Uint8Array, type: string): Promise<unknown> {
  const res = await fetch(`${app.base}${p}`, {
    method: 'POST',
    headers: { 'content-type': type, 'x-pipedejavu-token': TOKEN },
    body,
  });
  return res.json();
}

const api = (channel: string, req: unknown): Promise<unknown> =>
  post(`/api/${channel}`, JSON.stringify(req), 'application/json');

describe('serve with a heavy user file in flight', () => {
  it('answers machine:list while workload:add parses a large model, before the add finishes', async () => {
    const up = (await post('/api/upload', reluChain(NODES), 'application/octet-stream')) as {
      value: { uploadId: string };
    };
    const settled: string[] = [];
    const add = api('workload:add', { fileName: 'relu.onnx', uploadId: up.value.uploadId }).then((r) => {
      settled.push('workload:add');
      return r;
    });
    // Lets the server take the add request first (it is a few bytes of JSON).
    await new Promise((r) => setTimeout(r, 150));
    const list = await api('machine:list', {});
    settled.push('machine:list');
    expect(list).toMatchObject({ ok: true, value: [{ label: 'lab-ws-01' }] });
    // The heavy request is still in flight: machine:list did not wait for it.
    expect(settled).toEqual(['machine:list']);
    expect(await add).toMatchObject({ ok: true, value: { name: 'relu', nodes: NODES } });
    expect(settled).toEqual(['machine:list', 'workload:add']);
  }, 120_000);
});
