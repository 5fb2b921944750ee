/**
 * `serve` under the worst user file (issue 45): how long `machine:list` takes while a heavy
 * request is in flight. Run:
 *   node scripts/build.mjs && npx esbuild bench/serve-busy.ts --bundle --platform=node --format=esm \
 *     --packages=external --outfile=.tmp/serve-busy.mjs --log-level=warning && node .tmp/serve-busy.mjs [NODES]
 *
 * Starts the built CLI's `pipedejavu serve --port 0` on a fresh seeded store, uploads a chain of
 * NODES Relu nodes (default 1,000,000: about 25 MB), and while (1) `workload:add` parses and
 * stores it, (2) `workload:list` reads it back and (3) `workload:predict` predicts it on the
 * seeded CPU (what machine:compare does per machine), calls `machine:list` every 20 ms and
 * prints each phase's latencies (median, p95, max). Target: max under 100 ms.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { reluChain } from '../test/helpers/hostile-onnx.js';
import { seededDb } from '../test/helpers/seeded-store.js';

const NODES = Number(process.argv[2] ?? 1_000_000);

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-serve-busy-'));
  const db = path.join(dir, 'db.sqlite');
  seededDb(db).close();
  // A trained predictor, so workload:predict has something to predict with.
  spawnSync(process.execPath, ['bin/pipedejavu.js', 'train'], { env: { ...process.env, PIPEDEJAVU_DB: db } });
  const server = spawn(process.execPath, ['bin/pipedejavu.js', 'serve', '--port', '0'], {
    env: { ...process.env, PIPEDEJAVU_DB: db },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine = await new Promise<string>((resolve) =>
    createInterface({ input: server.stdout }).once('line', resolve),
  );
  const url = new URL(firstLine);
  const base = url.origin;
  const token = url.searchParams.get('token') ?? '';
  const post = async (p: string, body: string | Uint8Array, type: string): Promise<unknown> =>
    (
      await fetch(`${base}${p}`, {
        method: 'POST',
        headers: { 'content-type': type, 'x-pipedejavu-token': token, origin: base },
        body,
      })
    ).json();
  const api = (channel: string, req: unknown): Promise<unknown> =>
    post(`/api/${channel}`, JSON.stringify(req), 'application/json');

  /** Runs `heavy`, timing machine:list every 20 ms until it settles. */
  const phase = async (label: string, heavy: () => Promise<unknown>): Promise<void> => {
    const t0 = performance.now();
    let done = false;
    const answer = heavy().finally(() => (done = true));
    const lat: number[] = [];
    while (!done) {
      const t = performance.now();
      await api('machine:list', {});
      lat.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = (await answer) as { ok: boolean; error?: { message: string } };
    const took = ((performance.now() - t0) / 1000).toFixed(1);
    const outcome = r.ok ? 'ok' : `refused: ${r.error?.message ?? '?'}`;
    console.log(
      `${label}: ${took} s (${outcome}); machine:list x${lat.length} during it: ` +
        `median ${quantile(lat, 0.5).toFixed(1)} ms, p95 ${quantile(lat, 0.95).toFixed(1)} ms, max ${Math.max(...lat).toFixed(1)} ms`,
    );
  };

  try {
    const bytes = reluChain(NODES);
    console.log(`model: ${NODES} Relu nodes, ${(bytes.length / 2 ** 20).toFixed(1)} MiB`);
    const up = (await post('/api/upload', bytes, 'application/octet-stream')) as { value: { uploadId: string } };
    await phase('workload:add', () => api('workload:add', { fileName: 'relu.onnx', uploadId: up.value.uploadId }));
    await phase('workload:list', () => api('workload:list', {}));
    await phase('workload:predict', () => api('workload:predict', { workload: 'relu', mode: 'inference' }));
  } finally {
    server.kill('SIGINT');
    await new Promise((r) => server.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
