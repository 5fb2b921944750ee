/**
 * Cluster planning benchmark (issue 16). Run: npm run bench:cluster
 * 1. Speed: 64 imported machines of 8 GPUs (32 nodes of H100-class GPUs, 32 of A100-class ones,
 *    synthetic profiles of a known law), imported from one folder into a fresh store; a two-level
 *    network stated in a links file (racks of 8 nodes on 200Gb InfiniBand, 100GbE between racks);
 *    `pipedejavu plan --machine '*' --links FILE` of Llama 3.1 70B training (batch 512, seq 4096):
 *    wall time of the process as a user runs it, three times (target < 2 s), and the search's own time.
 * 2. Quality: on random small clusters (2-4 machines of 1-2 GPUs, one or two kinds, 2-8 layers)
 *    the cluster search alone, and planAll (which adds it to the exact spaces), against brute force
 *    over the hybrid space (the exact search).
 * Figures go to bench/RESULTS.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeProfile } from '../src-main/core/profile-file/codec.js';
import { clusterNodeProfile } from '../test/helpers/cluster-node.js';
import { randomCluster } from '../test/unit/core/planner/random-problem.js';
import { bruteForce } from '../test/unit/core/planner/reference/brute-force.js';
import { plannerContext } from '../src-main/core/planner/problem/problem.js';
import { hybridSpace } from '../src-main/core/planner/search/group-space.js';
import { clusterSearch } from '../src-main/core/planner/search/cluster-search.js';
import { planAll } from '../src-main/core/planner/search/index.js';

const lines: string[] = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}`,
  '',
];
const results: Record<string, unknown> = {};
const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-cluster-'));
const profiles = path.join(dir, 'profiles');
mkdirSync(profiles);
for (let i = 0; i < 64; i++) {
  const rack = Math.floor(i / 8) + 1;
  const host = `r${rack}n${String(i + 1).padStart(2, '0')}`;
  const h100 = i < 32;
  const p = clusterNodeProfile(host, {
    name: h100 ? 'NVIDIA H100 80GB HBM3' : 'NVIDIA A100-SXM4-80GB',
    memoryMiB: 81559,
    gflops: h100 ? 60_000 : 19_500,
    gbps: h100 ? 3350 : 2039,
  });
  writeFileSync(path.join(profiles, `${host}.json`), encodeProfile(p));
}
const links = path.join(dir, 'links.txt');
writeFileSync(
  links,
  [
    '# two levels: a leaf switch per rack of 8 nodes, a spine between racks',
    ...Array.from({ length: 8 }, (_, r) => `r${r + 1}n* r${r + 1}n* 200Gb-IB`),
    '* * 100GbE',
  ].join('\n'),
);
const db = path.join(dir, 'store.db');
const cli = (args: string[]): { ms: number; out: string } => {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['bin/pipedejavu.js', ...args, '--db', db], {
    encoding: 'utf8',
    maxBuffer: 512 * 2 ** 20,
  });
  if (r.status !== 0) throw new Error(`${args[0]} failed (${r.status ?? r.signal}): ${r.stderr}`);
  return { ms: performance.now() - t, out: r.stdout };
};
const imported = cli(['import', profiles]);
const trained = cli(['train']);
lines.push(
  `Import of 64 node profiles from one folder: ${(imported.ms / 1000).toFixed(1)} s; train: ${(trained.ms / 1000).toFixed(1)} s.`,
);
const planArgs = ['plan', '--workload', 'llama-3.1-70b', '--seq', '4096', '--batch', '512', '--devices', 'none'];
interface PlanJson {
  searchMs: number;
  plans: {
    kind: string;
    stepUs: number;
    feasible: boolean;
    microbatches: number;
    recompute?: string;
    optimizerOffload?: boolean;
    stages: { devices: string[]; tp?: number; from: number; to: number }[];
  }[];
}
const describe = (p: PlanJson['plans'][number] | undefined): string =>
  p
    ? `${p.kind}${p.recompute ? ` + ${p.recompute} recompute` : ''}${p.optimizerOffload ? ' + CPU optimizer' : ''}, ${(p.stepUs / 1e6).toFixed(2)} s a step, ${p.microbatches} microbatches, ${p.stages.length} stages: ${p.stages
        .map((s) => `${s.devices.length} GPUs TP${s.tp ?? 1} layers ${s.from}-${s.to - 1}`)
        .join('; ')}${p.feasible ? '' : ' (does not fit)'}`
    : 'none';
const timed = (extra: string[]): { runs: { ms: number; searchMs: number }[]; best: string } => {
  const runs: { ms: number; searchMs: number }[] = [];
  let best = '';
  for (let i = 0; i < 3; i++) {
    const r = cli([...planArgs, '--machine', '*', '--links', links, '--json', ...extra]);
    const json = JSON.parse(r.out) as PlanJson;
    runs.push({ ms: r.ms, searchMs: json.searchMs });
    best = describe(json.plans[0]);
  }
  return { runs, best };
};
const secs = (runs: { ms: number; searchMs: number }[]): string =>
  `${runs.map((r) => (r.ms / 1000).toFixed(2)).join(', ')} s wall (search ${runs.map((r) => (r.searchMs / 1000).toFixed(2)).join(', ')} s)`;
const whole = timed([]);
const single = timed(['--offload', 'no', '--recompute', 'none']);
lines.push(
  `plan of Llama 3.1 70B training (batch 512, seq 4096) on 64 imported machines x 8 GPUs (32 H100-class + 32 A100-class nodes, racks of 8 on 200Gb-IB, 100GbE between racks), target < 2 s:`,
  `- as run by default (with and without optimizer offload, recomputation none/selective/full: 6 searches): ${secs(whole.runs)}; best: ${whole.best}.`,
  `- --offload no --recompute none (1 search): ${secs(single.runs)}; best: ${single.best}.`,
);
results.speed = { whole, single };

// Quality on small clusters.
let clusterSame = 0;
let clusterWorse = 0;
let clusterNone = 0;
let allSame = 0;
let allWorse = 0;
let total = 0;
let worstGap = 0;
for (let seed = 2000; seed < 2120; seed++) {
  const problem = randomCluster(seed, {
    machines: 2 + (seed % 3),
    perMachine: 1 + (seed % 2),
    kinds: 1 + (seed % 2),
    layers: 2 + (seed % 7),
    networkGBps: 3 + (seed % 5) * 5,
  });
  const ctx = plannerContext(problem);
  const exact = bruteForce(ctx, { space: hybridSpace(problem), maxPlans: 3e6 }).best;
  if (!exact) continue;
  total++;
  const c = clusterSearch(ctx, { schedule: '1f1b', microbatches: [1, 2, 4] }).plans.filter((p) => p.feasible);
  const cBest = c.length > 0 ? Math.min(...c.map((p) => p.stepUs)) : Infinity;
  const all = planAll(problem, undefined, { microbatches: [1, 2, 4] }).plans.find((p) => p.feasible);
  const rel = (x: number): number => (x - exact.stepUs) / exact.stepUs;
  if (cBest === Infinity) clusterNone++;
  else if (rel(cBest) <= 1e-9) clusterSame++;
  else {
    clusterWorse++;
    worstGap = Math.max(worstGap, rel(cBest));
  }
  if (all && rel(all.stepUs) <= 1e-9) allSame++;
  else allWorse++;
}
lines.push(
  `Small clusters (2-4 machines of 1-2 like GPUs, 1-2 kinds, 2-8 layers, ${total} instances with a feasible plan), against brute force over the hybrid space: plan (exact spaces + cluster search) as good or better on ${allSame}, worse on ${allWorse}; the cluster search alone equal on ${clusterSame}, worse on ${clusterWorse} (largest gap ${(worstGap * 100).toFixed(1)}%), none found on ${clusterNone}.`,
);
results.quality = { total, allSame, allWorse, clusterSame, clusterWorse, clusterNone, worstGap };

for (const line of lines) console.log(line);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  `bench/results/cluster-${new Date().toISOString().slice(0, 10)}.json`,
  `${JSON.stringify({ lines, results }, null, 2)}\n`,
);
