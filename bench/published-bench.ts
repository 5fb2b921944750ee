/**
 * GPU predictions against published measurements (issue 46). Run: npm run bench:published
 * Every cell of bench/published/cells-*.json is predicted through the product (datasheet GPUs, no
 * profile, no trained predictor) and compared with its published value. Statistics are given per
 * set (calibration, held-out: the split is the sources' `set`, fixed before any tuning), per kind
 * and per GPU; cells the tool cannot express are listed with the reason.
 * Writes bench/results/published-DATE.{json,md} (every cell); `-- --quiet` prints the statistics only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTable, type Cell } from './published/cells.js';
import { predictCell, type CellMemory, type CellResult } from './published/predict-cell.js';
import { openDatabase } from '../src-main/adapters/store/open-database.js';

const quiet = process.argv.includes('--quiet');
/** `-- --only TEXT`: only the cells whose id holds TEXT (to look at a few). */
const only = process.argv[process.argv.indexOf('--only') + 1];
const table = loadTable(path.join('bench', 'published'));
const db = openDatabase(':memory:');
const started = Date.now();
const results = table.cells
  .filter((c) => !process.argv.includes('--only') || (only !== undefined && c.id.includes(only)))
  .map((c) => {
    const t0 = Date.now();
    const r = predictCell(c, db);
    const s = (Date.now() - t0) / 1000;
    if (s > 5) console.error(`${c.id}: priced in ${s.toFixed(1)} s`);
    return { cell: c, set: table.sources.get(c.source)?.set ?? 'held-out', r };
  });

type Row = (typeof results)[number];
const priced = (rows: readonly Row[]) =>
  rows.filter((x): x is Row & { r: Extract<CellResult, { error: number }> } => 'error' in x.r);

function stats(rows: readonly Row[]): string {
  const p = priced(rows);
  if (p.length === 0) return `0 of ${rows.length} priced`;
  const abs = p.map((x) => Math.abs(x.r.error)).sort((a, b) => a - b);
  const median = abs.length % 2 ? abs[(abs.length - 1) / 2]! : (abs[abs.length / 2 - 1]! + abs[abs.length / 2]!) / 2;
  const within = abs.filter((e) => e <= 0.15).length / abs.length;
  const signed = p.map((x) => x.r.error).sort((a, b) => a - b);
  const medSigned = signed[Math.floor((signed.length - 1) / 2)]!;
  return `${p.length} of ${rows.length} priced: median |error| ${(median * 100).toFixed(1)}%, within ±15% ${(within * 100).toFixed(0)}%, median signed ${(medSigned * 100).toFixed(1)}%`;
}

const pct = (e: number): string => `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)}%`;
const gib = (b: number): string => `${(b / 2 ** 30).toFixed(1)} GiB`;
/** "fits, 61.2 of 79.6 GiB" or "does NOT fit: 1.42x, 113.0 of 79.6 GiB"; with the source's figure where it states one. */
function memoryText(m: CellMemory | undefined): string {
  if (!m) return '';
  const held = `${gib(m.neededBytes)} of ${gib(m.availableBytes)}`;
  const stated =
    m.publishedBytes !== undefined
      ? `, published ${gib(m.publishedBytes)} (${pct(m.neededBytes / m.publishedBytes - 1)})`
      : '';
  return m.fits
    ? `; fits, ${held}${stated}`
    : `; does NOT fit: ${(m.neededBytes / m.availableBytes).toFixed(2)}x, ${held}${stated}`;
}
const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(3));

const lines: string[] = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}`,
  `Cells: ${table.cells.length} from ${table.sources.size} sources; ${table.invalid.length} refused by the schema`,
  '',
];
// The file always holds every cell; --quiet leaves them off the terminal.
const cellLines: string[] = [];
{
  const lines = cellLines;
  lines.push('| set | cell | GPU | kind | published | predicted | error | how |', '|---|---|---|---|---|---|---|---|');
  for (const x of results) {
    const c: Cell = x.cell;
    lines.push(
      'error' in x.r
        ? `| ${x.set} | ${c.id} | ${c.gpus}x ${c.gpu} | ${c.kind} | ${fmt(c.value)} ${c.unit} | ${fmt(x.r.predicted)} | ${pct(x.r.error)} | ${x.r.detail}${memoryText(x.r.memory)} |`
        : `| ${x.set} | ${c.id} | ${c.gpus}x ${c.gpu} | ${c.kind} | ${fmt(c.value)} ${c.unit} | – | – | not expressible: ${x.r.notExpressible} |`,
    );
  }
  lines.push('');
}
for (const set of ['held-out', 'calibration'] as const) {
  const rows = results.filter((x) => x.set === set);
  lines.push(`## ${set}: ${stats(rows)}`);
  for (const kind of [...new Set(rows.map((x) => x.cell.kind))].sort())
    lines.push(`- kind ${kind}: ${stats(rows.filter((x) => x.cell.kind === kind))}`);
  for (const gpu of [...new Set(rows.map((x) => x.cell.gpu))].sort())
    lines.push(`- GPU ${gpu}: ${stats(rows.filter((x) => x.cell.gpu === gpu))}`);
  for (const source of [...new Set(rows.map((x) => x.cell.source))].sort())
    lines.push(`- source ${source}: ${stats(rows.filter((x) => x.cell.source === source))}`);
  lines.push('');
}
// The band a datasheet prediction carries: the 5th and 95th percentiles of measured / predicted
// time over the priced calibration cells (a throughput's error inverted), for models/gpu-kernels.json.
function timeRatios(set: string): number[] {
  return priced(results.filter((x) => x.set === set))
    .map((x) => (x.cell.unit === 'ms' ? 1 / (1 + x.r.error) : 1 + x.r.error))
    .sort((a, b) => a - b);
}
const pick = (r: readonly number[], q: number): number =>
  r[Math.min(r.length - 1, Math.max(0, Math.round(q * (r.length - 1))))] ?? 1;
for (const set of ['calibration', 'held-out']) {
  const r = timeRatios(set);
  lines.push(
    `## band (${set}): measured / predicted time over ${r.length} cells: 5th percentile ${pick(r, 0.05).toFixed(2)}, median ${pick(r, 0.5).toFixed(2)}, 95th ${pick(r, 0.95).toFixed(2)}`,
  );
}
lines.push('');
// Memory (issue 59): every layout that ran must be judged to fit; where the source states its memory
// per GPU, the plan's need on the most loaded GPU is compared with it.
{
  const layouts = priced(results).filter((x) => x.r.memory);
  const refused = layouts.filter((x) => !x.r.memory?.fits);
  const stated = layouts.filter((x) => x.r.memory?.publishedBytes !== undefined);
  lines.push(
    `## memory: ${layouts.length - refused.length} of ${layouts.length} published layouts that ran judged to fit; ${refused.length} refused for memory`,
  );
  for (const x of refused) lines.push(`- ${x.cell.id}${memoryText(x.r.memory)}: ${x.r.memory?.reason ?? ''}`);
  for (const x of stated) lines.push(`- stated: ${x.cell.id}${memoryText(x.r.memory)}`);
  lines.push('');
}
// Issue 59's held-out training target: cells, sources and stacks (a cell's `stack`, else the `framework`
// it names), the signed median per GPU family, and each source weighed alike (the median of its medians).
{
  const training = results.filter((x) => x.set === 'held-out' && x.cell.kind === 'training');
  const p = priced(training);
  const stackOf = (c: Cell): string => String(c.config['stack'] ?? c.config['framework'] ?? 'unstated');
  const by = (key: (c: Cell) => string): string[] => [...new Set(p.map((x) => key(x.cell)))].sort();
  const sourceMedians = by((c) => c.source)
    .map((s) => p.filter((x) => x.cell.source === s).map((x) => Math.abs(x.r.error)))
    .map((e) => e.sort((a, b) => a - b)[Math.floor((e.length - 1) / 2)]!)
    .sort((a, b) => a - b);
  const weighed = sourceMedians[Math.floor((sourceMedians.length - 1) / 2)] ?? 0;
  lines.push(
    `## held-out training: ${stats(training)}`,
    `- ${by((c) => c.source).length} sources (${by((c) => c.source).join(', ')}); stacks ${by(stackOf).join(', ')}; each source weighed alike: median |error| ${(weighed * 100).toFixed(1)}%`,
  );
  for (const family of ['A100', 'H100', 'H200'])
    lines.push(`- GPU family ${family}: ${stats(training.filter((x) => x.cell.gpu.includes(family)))}`);
  for (const stack of by(stackOf))
    lines.push(`- stack ${stack}: ${stats(training.filter((x) => stackOf(x.cell) === stack))}`);
  lines.push('');
}
const reasons = new Map<string, number>();
for (const x of results)
  if ('notExpressible' in x.r) reasons.set(x.r.notExpressible, (reasons.get(x.r.notExpressible) ?? 0) + 1);
lines.push('## not expressible', ...[...reasons].sort((a, b) => b[1] - a[1]).map(([why, n]) => `- ${n}: ${why}`));
for (const bad of table.invalid) lines.push(`- schema: ${bad.file} ${bad.id}: ${bad.problem}`);
lines.push('', `Priced in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
const text = [...lines.slice(0, 3), ...cellLines, ...lines.slice(3)].join('\n');
console.log(quiet ? lines.join('\n') : text);
mkdirSync(path.join('bench', 'results'), { recursive: true });
const stamp = new Date().toISOString().slice(0, 10);
writeFileSync(path.join('bench', 'results', `published-${stamp}.md`), `${text}\n`);
writeFileSync(
  path.join('bench', 'results', `published-${stamp}.json`),
  `${JSON.stringify(
    results.map((x) => ({
      set: x.set,
      kind: x.cell.kind,
      gpu: x.cell.gpu,
      published: x.cell.value,
      unit: x.cell.unit,
      ...x.r,
    })),
    null,
    1,
  )}\n`,
);
