/**
 * Search time at scale (issue 59, item 4), this checkout against another commit, interleaved in
 * one run so both see the same load; each run's problem is built afresh, off the clock. Run: npm run bench:search-scale -- [--ref main] [--reps 5]
 * [--cases tp,cluster:8,cluster:256] [--ref-max-nodes 32]. The cases are bench/search-scale/ (cases.ts), bundled over both trees (the
 * other's src-main, test and bench/datasheet-layers.ts from `git archive REF`). Each run is one full
 * search; the figure is its process CPU time (user + system, ms: on a shared machine wall time
 * mostly measures the neighbours), wall time beside it; medians, and whether both found the same
 * best step. Clusters of more nodes than --ref-max-nodes run on this checkout only (the other
 * tree's cluster search takes minutes there), between the alternated cases.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CaseRun } from './search-scale/cases.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const ref = arg('ref', 'main');
const reps = Number(arg('reps', '5'));
const cases = arg('cases', 'tp,cluster:8,cluster:256').split(',');
const refMaxNodes = Number(arg('ref-max-nodes', '32'));

type Cases = typeof import('./search-scale/cases.js');
const bundle = (root: string, name: string): string => {
  const out = path.resolve('.tmp', `search-scale-${name}.mjs`);
  execFileSync(
    'npx',
    ['esbuild', path.join(root, 'bench/search-scale/cases.ts'), '--bundle', '--platform=node', '--format=esm'].concat([
      '--packages=external',
      `--outfile=${out}`,
      '--log-level=warning',
    ]),
    { stdio: 'inherit' },
  );
  return out;
};
const other = mkdtempSync(path.join(os.tmpdir(), 'pdjv-search-scale-'));
execFileSync('sh', ['-c', `git archive ${ref} src-main test bench/datasheet-layers.ts models | tar -x -C ${other}`]);
mkdirSync(path.join(other, 'bench/search-scale'), { recursive: true });
for (const file of ['cases.ts', 'tp-problem.ts'])
  copyFileSync(path.join('bench/search-scale', file), path.join(other, 'bench/search-scale', file));
const trees = {
  [ref]: (await import(pathToFileURL(bundle(other, 'ref')).href)) as Cases,
  here: (await import(pathToFileURL(bundle('.', 'here')).href)) as Cases,
};
const names = Object.keys(trees);
const median = (a: readonly number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] as number;

const lines = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}; ${reps} runs each, alternated`,
  '',
];
const results: Record<string, unknown> = {};
for (const name of cases) {
  const nodes = Number(name.split(':')[1]);
  const timed = name !== 'tp' && nodes > refMaxNodes ? ['here'] : names;
  // Each run gets its problem built afresh, off the clock: a search's caches (per layer list, link
  // list, time record) would otherwise carry over from one run to the next.
  const fresh = (t: string): (() => CaseRun) =>
    (name === 'tp' ? trees[t]?.tpCase() : trees[t]?.clusterCase(nodes)) as () => CaseRun;
  const cpu: Record<string, number[]> = Object.fromEntries(timed.map((t) => [t, []]));
  const wall: Record<string, number[]> = Object.fromEntries(timed.map((t) => [t, []]));
  const best: Record<string, CaseRun> = {};
  for (let i = 0; i < reps; i++) {
    for (const t of i % 2 === 0 ? timed : [...timed].reverse()) {
      const run = fresh(t);
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      best[t] = run();
      wall[t]?.push(performance.now() - w0);
      const c = process.cpuUsage(c0);
      cpu[t]?.push((c.user + c.system) / 1000);
    }
  }
  const same = timed.length > 1 ? timed.every((t) => best[t]?.step === best[timed[0] as string]?.step) : 'not compared';
  lines.push(
    `${name} (${name === 'tp' ? 8 : nodes * 8} GPUs): ${timed.map((t) => `${t} ${median(cpu[t] ?? []).toFixed(0)} ms CPU (wall ${median(wall[t] ?? []).toFixed(0)} ms)`).join(', ')}; same best step: ${same}${timed.length < names.length ? ` (${ref} not run past ${refMaxNodes} nodes)` : ''}; here: ${best.here?.text ?? ''}`,
  );
  results[name] = { cpu, wall, best };
}
for (const line of lines) console.log(line);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  `bench/results/search-scale-${new Date().toISOString().slice(0, 10)}-${cases.join('+').replaceAll(':', '')}.json`,
  `${JSON.stringify({ lines, results }, null, 2)}\n`,
);
