/**
 * Import benchmark (issue 12). Run: npm run bench:import [-- MEASUREMENTS] (default 150000, LIMITS.maxMeasurements; issue 12 ran 450000 before issue 45 lowered the cap).
 *  1. `pipedejavu import` of a MEASUREMENTS-measurement profile into a fresh store, as a user
 *     runs it (wall time of the process, twice).
 *  2. The same file imported through `serve` (the browser's path: the file is uploaded, then
 *     imported in a job-runner child) while this process asks `machine:list` every 20 ms:
 *     the longest answer is how long serve's other requests were held up.
 * Prints a markdown table; figures go to bench/RESULTS.md.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeProfile } from '../src-main/core/profile-file/codec.js';
import { bigProfileFile } from '../test/helpers/big-profile.js';
import { uploadAndImport } from './serve-client.js';

const N = Number(process.argv[2] ?? 150_000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-import-'));
const file = path.join(dir, `profile-${N}.json`);

function cliImport(db: string): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['bin/pipedejavu.js', 'import', file, '--db', db], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
  return (performance.now() - t) / 1000;
}

async function startServe(db: string): Promise<{ child: ChildProcess; base: string; token: string }> {
  const child = spawn(process.execPath, ['bin/pipedejavu.js', 'serve', '--port', '0', '--db', db], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out);
      if (m) resolve(m[0]);
    });
  });
  const u = new URL(url);
  return { child, base: `${u.protocol}//${u.host}`, token: u.searchParams.get('token') as string };
}

/**
 * Asks `machine:list` every 20 ms from a process of its own (so this process's upload does not
 * delay the asking) until told to stop on stdin; prints the latencies as JSON.
 */
const POLLER = `
const [base, token] = process.argv.slice(1);
const lat = [];
let done = false;
process.stdin.on('data', () => { done = true; });
(async () => {
  while (!done) {
    const t0 = performance.now();
    await fetch(base + '/api/machine:list', { method: 'POST', headers: { 'content-type': 'application/json', 'x-pipedejavu-token': token, origin: base }, body: '{}' });
    lat.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  process.stdout.write(JSON.stringify(lat));
  process.exit(0);
})();
`;

async function serveImport(): Promise<{ seconds: number; maxListMs: number; p99ListMs: number; lists: number }> {
  const s = await startServe(path.join(dir, 'serve.db'));
  const bytes = readFileSync(file);
  const poller = spawn(process.execPath, ['-e', POLLER, s.base, s.token], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  poller.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const finished = new Promise((r) => poller.once('exit', r));
  await new Promise((r) => setTimeout(r, 500));
  const t = performance.now();
  await uploadAndImport(s, path.basename(file), bytes);
  const seconds = (performance.now() - t) / 1000;
  await new Promise((r) => setTimeout(r, 500));
  poller.stdin.write('stop\n');
  await finished;
  s.child.kill('SIGINT');
  const latencies = (JSON.parse(out) as number[]).sort((a, b) => a - b);
  return {
    seconds,
    maxListMs: latencies.at(-1) ?? NaN,
    p99ListMs: latencies[Math.floor(0.99 * (latencies.length - 1))] ?? NaN,
    lists: latencies.length,
  };
}

const t0 = performance.now();
writeFileSync(file, encodeProfile(bigProfileFile(N)));
const mib = statSync(file).size / 2 ** 20;
console.log(`generated ${N} measurements, ${mib.toFixed(0)} MiB, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const cli = [cliImport(path.join(dir, 'a.db')), cliImport(path.join(dir, 'b.db'))];
const serve = await serveImport();
console.log(
  `\nMachine: ${os.cpus()[0]?.model ?? '?'} x${os.cpus().length}, ${process.version}; ${new Date().toISOString()}\n`,
);
console.log('| what | measured |\n|---|---|');
console.log(
  `| \`pipedejavu import\` of ${N} measurements (${mib.toFixed(0)} MiB), two fresh stores | ${cli.map((x) => `${x.toFixed(1)} s`).join(', ')} |`,
);
console.log(`| the same through \`serve\` (upload + import in a job-runner child) | ${serve.seconds.toFixed(1)} s |`);
console.log(
  `| \`machine:list\` answered during that import (${serve.lists} requests, one every 20 ms) | p99 ${serve.p99ListMs.toFixed(1)} ms, max ${serve.maxListMs.toFixed(1)} ms |`,
);
