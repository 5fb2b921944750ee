/**
 * Serving-simulator speed (issue 61's target: 10,000 requests through one replica in at most 1 s).
 * Run: npm run bench:serving-sim
 * Llama 3.1 8B in bf16 on one H100 SXM5 datasheet GPU under vLLM's rules; prompts lognormal around
 * 2,000 tokens (sigma 0.6), answers lognormal around 300 (sigma 0.8). Loads: Poisson at 5 req/s (under
 * the replica's capacity, about 6.8) and at 40 (over it), gamma bursts at 10 (CV 3), offline, and a
 * JSONL trace of 10,000 rows read from a file. Each runs once to warm the JIT (the first load's cold
 * CPU time is printed), then 5 times: the median wall and CPU time (CPU time is what other work on a
 * busy machine inflates least), with the run's figures, goodput under p90 TTFT 1 s and p90 TPOT 50 ms,
 * and how far the run is from Little's law. Then the time to read a 1M-row JSONL trace. Prints markdown.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readServingTrace } from '../src-main/adapters/files/serving-trace.js';
import { getCatalogEntry } from '../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../src-main/core/catalog/schema.js';
import { engineDeployment } from '../src-main/core/engines/engine-deployment.js';
import { serve, type ServingLoad } from '../src-main/core/engines/engine-figures.js';
import { engineRules } from '../src-main/core/engines/engines.js';
import { datasheetFor } from '../src-main/core/planner/cost/datasheets.js';
import { parseLengthSpec } from '../src-main/core/serving/lengths.js';
import { goodput, littlesLaw, type ServingSlo } from '../src-main/core/serving/serving-metrics.js';

const REQUESTS = 10_000;
const RUNS = 5;
const gpu = datasheetFor('H100 SXM5');
if (!gpu) throw new Error('no H100 SXM5 datasheet');
const dep = engineDeployment({
  engine: engineRules('vllm'),
  entry: getCatalogEntry('llama-3.1-8b') as TransformerEntry,
  format: 'bf16',
  kvCache: 'auto',
  stages: [{ gpu, blocks: 32, members: ['gpu0'] }],
  allReduceUs: () => 0,
  sendUs: () => 0,
});

const lengths = {
  prompt: parseLengthSpec('lognormal:2000:0.6', '--prompt'),
  output: parseLengthSpec('lognormal:300:0.8', '--output'),
};
/** The SLO goodput is counted under: p90 TTFT within 1 s, p90 TPOT within 50 ms. */
const SLO: ServingSlo = { ttft: { percentile: 90, us: 1e6 }, tpot: { percentile: 90, us: 50e3 } };
const loads: [string, ServingLoad][] = [
  ['Poisson 5 req/s', { ...lengths, requests: REQUESTS, arrival: { kind: 'rate', perSecond: 5, seed: 1 } }],
  ['Poisson 40 req/s', { ...lengths, requests: REQUESTS, arrival: { kind: 'rate', perSecond: 40, seed: 1 } }],
  [
    'bursts 10 req/s, CV 3',
    { ...lengths, requests: REQUESTS, arrival: { kind: 'burst', perSecond: 10, cv: 3, seed: 1 } },
  ],
  ['offline', { ...lengths, requests: REQUESTS, arrival: { kind: 'offline' } }],
];

/** A JSONL trace of the first Poisson load's requests (to serve through the trace reader), and a 1M-row one to time the reader. */
const dir = mkdtempSync(path.join(os.tmpdir(), 'serving-sim-bench-'));
function writeTrace(name: string, rows: number): string {
  const file = path.join(dir, name);
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    lines.push(JSON.stringify({ t: i / 8, prompt: 1000 + ((i * 7919) % 2000), output: 100 + ((i * 104729) % 400) }));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
const t0 = performance.now();
const trace = await readServingTrace(writeTrace('10k.jsonl', REQUESTS));
const readMs = performance.now() - t0;
loads.push([
  `trace: JSONL, ${REQUESTS} rows at 8 req/s (read in ${readMs.toFixed(0)} ms)`,
  {
    prompt: { kind: 'trace', tokens: trace.prompt },
    output: { kind: 'trace', tokens: trace.output },
    requests: trace.rows,
    arrival: { kind: 'trace', atSeconds: trace.atSeconds ?? [] },
  },
]);
const bigFile = writeTrace('1m.jsonl', 1_000_000);
const t1 = performance.now();
const big = await readServingTrace(bigFile);
const bigReadMs = performance.now() - t1;
const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
rmSync(dir, { recursive: true });

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const rows: string[] = [];
for (const [name, load] of loads) {
  const wall: number[] = [];
  const cpu: number[] = [];
  const c0 = process.cpuUsage();
  let run = serve(dep, load);
  const firstCpu = process.cpuUsage(c0);
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const c = process.cpuUsage();
    run = serve(dep, load);
    const used = process.cpuUsage(c);
    wall.push(performance.now() - t0);
    cpu.push((used.user + used.system) / 1e3);
  }
  const cold =
    rows.length === 0 ? ` (first run, JIT cold: ${((firstCpu.user + firstCpu.system) / 1e3).toFixed(0)} ms CPU)` : '';
  const good = goodput(run, SLO);
  rows.push(
    `| ${name} | ${REQUESTS} | ${run.sim.steps} | ${median(wall).toFixed(0)} | ${median(cpu).toFixed(0)}${cold} | ${run.requestsPerSecond.toFixed(2)} | ` +
      `${(run.ttft.p90 / 1e3).toFixed(0)} | ${(run.tpot.p90 / 1e3).toFixed(1)} | ${(run.itl.p99 / 1e3).toFixed(1)} | ` +
      `${good.requestsPerSecond.toFixed(2)} | ${run.sim.preemptions} | ${(littlesLaw(run).relativeGap * 100).toFixed(3)}% |`,
  );
}
console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown'}, node ${process.version}, ${new Date().toISOString()}`);
console.log(
  '| load | requests | decode steps | wall ms (median of 5) | CPU ms (median of 5) | req/s | TTFT p90 ms | TPOT p90 ms | ITL p99 ms | ' +
    'goodput req/s (p90 TTFT 1 s, TPOT 50 ms) | preemptions | Little gap |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
console.log(
  `\nReading a JSONL trace of ${big.rows} rows: ${bigReadMs.toFixed(0)} ms (heap after: ${heapMb.toFixed(0)} MB).`,
);
