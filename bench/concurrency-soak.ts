/**
 * Concurrency soak (issue 12). Run: npm run bench:soak [-- SECONDS] (default 600).
 * Against ONE store file, at the same time, all real processes:
 *  - two CLIs profiling the CPU in a loop (`profile --threads 1`): one times, the other must
 *    refuse in one line while the first holds the machine;
 *  - `serve` running profile and train jobs through its HTTP API, and answering
 *    `machine:list` every 200 ms (its latency is recorded);
 *  - an importer that imports a 20k-measurement profile, checks it landed whole, removes it.
 * At the end: zero crashes (any "internal error", "locked", "this is a bug", or a failure
 * that is not the one-line refusal), zero lost or duplicated rows, no run left 'running',
 * and an integrity check. Prints a table and writes bench/results/soak-<date>.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import { encodeProfile } from '../src-main/core/profile-file/codec.js';
import { bigProfileFile } from '../test/helpers/big-profile.js';

const SECONDS = Number(process.argv[2] ?? process.env.SOAK_S ?? 600);
const BUSY = /another pipedejavu process \(pid \d+ on [^)]+\) is profiling/;
const CRASH = /internal error|database is locked|this is a bug|SQLITE_/;
const IMPORT_ID = 'soak0000000000aa';
const IMPORT_ROWS = 20_000;

const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-soak-'));
const db = path.join(dir, 'store.db');
const deadline = Date.now() + SECONDS * 1000;
const live = (): boolean => Date.now() < deadline;

interface Tally {
  ok: number;
  refused: number;
  crashes: string[];
}
const tally = (): Tally => ({ ok: 0, refused: 0, crashes: [] });
const t = { cliProfile: tally(), serveJobs: tally(), imports: tally(), removals: tally() };
const listLatency: number[] = [];
let lost = 0;

function cli(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/pipedejavu.js', ...args, '--db', db], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

function classify(tl: Tally, code: number | null, out: string): void {
  if (CRASH.test(out)) tl.crashes.push(out.trim().split('\n').slice(-2).join(' | '));
  else if (code === 0) tl.ok++;
  else if (BUSY.test(out)) tl.refused++;
  else tl.crashes.push(`exit ${code}: ${out.trim().split('\n').slice(-2).join(' | ')}`);
}

async function cliProfiler(): Promise<void> {
  while (live()) {
    const r = await cli(['profile', '--threads', '1']);
    classify(t.cliProfile, r.code, r.out);
    if (r.code !== 0) await sleep(2000 + Math.random() * 3000);
  }
}

async function importer(file: string): Promise<void> {
  while (live()) {
    const r = await cli(['import', file]);
    classify(t.imports, r.code, r.out);
    const list = await cli(['machines', '--json']);
    const m = (JSON.parse(list.out) as { machines: { id: string; measurementCount: number }[] }).machines.find(
      (x) => x.id === IMPORT_ID,
    );
    if (m && m.measurementCount !== IMPORT_ROWS) lost += Math.abs(IMPORT_ROWS - m.measurementCount);
    const rm = await cli(['machines', 'remove', IMPORT_ID]);
    classify(t.removals, rm.code, rm.out);
  }
}

async function startServe(): Promise<{ child: ChildProcess; base: string; token: string }> {
  const child = spawn(process.execPath, ['bin/pipedejavu.js', 'serve', '--port', '0', '--db', db], {
    stdio: ['ignore', 'pipe', 'pipe'],
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

async function api(
  s: { base: string; token: string },
  channel: string,
  body: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { message: string } }> {
  const res = await fetch(`${s.base}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pipedejavu-token': s.token, origin: s.base },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
}

async function serveJobs(s: { base: string; token: string }): Promise<void> {
  let n = 0;
  while (live()) {
    const kind = n++ % 3 === 2 ? 'predictor:train' : 'profile:start';
    const started = await api(s, kind, kind === 'profile:start' ? { device: 'cpu', suite: 'quick', threads: [1] } : {});
    if (!started.ok) {
      classify(t.serveJobs, 1, started.error?.message ?? 'no answer');
      await sleep(2000);
      continue;
    }
    const jobId = (started.value as { jobId: string }).jobId;
    for (;;) {
      await sleep(500);
      const j = (await api(s, 'job:get', { jobId })).value as { state: string; error: string | null };
      if (j.state === 'running') continue;
      classify(t.serveJobs, j.state === 'done' ? 0 : 1, j.error ?? '');
      break;
    }
    await sleep(1000);
  }
}

async function pollList(s: { base: string; token: string }): Promise<void> {
  while (live()) {
    const t0 = performance.now();
    await api(s, 'machine:list', {});
    listLatency.push(performance.now() - t0);
    await sleep(200);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const file = path.join(dir, 'import.json');
  writeFileSync(file, encodeProfile(bigProfileFile(IMPORT_ROWS, IMPORT_ID)));
  await cli(['probe']);
  const serve = await startServe();
  const started = Date.now();
  await Promise.all([cliProfiler(), cliProfiler(), importer(file), serveJobs(serve), pollList(serve)]);
  serve.child.kill('SIGINT');
  await new Promise((r) => serve.child.once('exit', r));
  const store = openDatabase(db);
  const integrity = store.pragma('integrity_check', { simple: true });
  const running = (
    store.prepare("SELECT count(*) AS n FROM profile_runs WHERE status = 'running'").get() as { n: number }
  ).n;
  const dup = (
    store
      .prepare(
        'SELECT count(*) AS n FROM (SELECT 1 FROM measurements GROUP BY machine_id, device_key, execution_provider, COALESCE(threads, -1), op, shape_key, dtype HAVING count(*) > 1)',
      )
      .get() as { n: number }
  ).n;
  store.close();
  listLatency.sort((a, b) => a - b);
  const q = (p: number): number =>
    listLatency[Math.min(listLatency.length - 1, Math.floor(p * listLatency.length))] ?? NaN;
  const result = {
    date: new Date().toISOString(),
    machine: `${os.cpus()[0]?.model ?? '?'} x${os.cpus().length}, ${process.version}`,
    seconds: (Date.now() - started) / 1000,
    tally: t,
    lostRows: lost,
    duplicateRows: dup,
    runsLeftRunning: running,
    integrity,
    machineListMs: { n: listLatency.length, p50: q(0.5), p99: q(0.99), max: listLatency.at(-1) ?? NaN },
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/soak-${result.date.slice(0, 10)}.json`, `${JSON.stringify(result, null, 2)}\n`);
  const crashes = Object.values(t).reduce((a, x) => a + x.crashes.length, 0);
  console.log(`| what | ok | refused in one line | crashes |\n|---|---|---|---|`);
  for (const [k, v] of Object.entries(t)) console.log(`| ${k} | ${v.ok} | ${v.refused} | ${v.crashes.length} |`);
  console.log(
    `\n${result.seconds.toFixed(0)} s; crashes ${crashes}; lost rows ${lost}; duplicated rows ${dup}; runs left running ${running}; integrity ${String(integrity)}; ` +
      `machine:list p50 ${result.machineListMs.p50.toFixed(1)} ms, p99 ${result.machineListMs.p99.toFixed(1)} ms, max ${result.machineListMs.max.toFixed(1)} ms (${listLatency.length} requests)`,
  );
  for (const v of Object.values(t)) for (const c of v.crashes.slice(0, 5)) console.log(`crash: ${c}`);
  process.exitCode = crashes || lost || dup || running || integrity !== 'ok' ? 1 : 0;
}

await main();
