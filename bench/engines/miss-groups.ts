/**
 * The held-out cells of some engines outside ±15%, grouped by (engine, kind, GPU, weights, version,
 * source), with counts and signed median errors (issue 64). Run:
 *   esbuild bench/engines/miss-groups.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=.tmp/miss-groups.mjs && node .tmp/miss-groups.mjs transformers tgi
 * Prints a markdown table, largest groups first; with --cells, every missed cell's id and error;
 * with --any-gpu, GPUs are not told apart (the GPU column lists them).
 */
import path from 'node:path';
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import { loadEngineTable } from './cells.js';
import { predictEngineCell } from './engine-cell.js';

const engines = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const anyGpu = process.argv.includes('--any-gpu');
const table = loadEngineTable(path.join('bench', 'engines'));
const db = openDatabase(':memory:');
const pct = (e: number): string => `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)}%`;
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const groups = new Map<string, { id: string; error: number; gpu: string }[]>();
let total = 0;
for (const cell of table.cells) {
  const source = table.sources.get(cell.source);
  if (source?.set !== 'held-out' || !engines.includes(cell.engine)) continue;
  const r = predictEngineCell(cell, db, source.date);
  if (!('error' in r)) continue;
  total++;
  if (Math.abs(r.error) <= 0.15) continue;
  const key = [
    cell.engine,
    cell.kind,
    anyGpu ? '' : `${cell.gpus}x ${cell.gpu}`,
    String(cell.config.weights ?? 'fp16'),
    cell.engineVersion ?? '-',
    cell.source,
  ].join(' | ');
  groups.set(key, [...(groups.get(key) ?? []), { id: cell.id, error: r.error, gpu: `${cell.gpus}x ${cell.gpu}` }]);
}
const rows = [...groups].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
const missed = rows.reduce((a, [, xs]) => a + xs.length, 0);
console.log(`${missed} of ${total} priced held-out cells of ${engines.join(', ')} outside ±15%\n`);
console.log('| engine | kind | GPU | weights | version | source | cells | signed median |');
console.log('|---|---|---|---|---|---|---|---|');
const short = (gpu: string): string => gpu.replace(/NVIDIA |GeForce /g, '');
const gpus = (xs: readonly { gpu: string }[]): string => [...new Set(xs.map((x) => short(x.gpu)))].sort().join(', ');
for (const [key, xs] of rows) {
  const row = anyGpu ? key.replace(' |  | ', ` | ${gpus(xs)} | `) : key;
  console.log(`| ${row} | ${xs.length} | ${pct(median(xs.map((x) => x.error)))} |`);
}
if (process.argv.includes('--cells'))
  for (const [key, xs] of rows) console.log(`\n${key}\n${xs.map((x) => `  ${x.id} ${pct(x.error)}`).join('\n')}`);
