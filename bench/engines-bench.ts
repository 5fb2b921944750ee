/**
 * Serving predictions per engine against published figures (issue 57). Run: npm run bench:engines
 * Every cell of bench/engines/cells-*.json is priced through the product (`plan --engine E --layout
 * ... --no-search` on datasheet GPUs, no profile) and compared with its published value.
 * Statistics: held-out (third-party) cells per engine, GPU, kind and source, and for the GPUs each
 * engine's calibration never saw; calibration (first-party) cells beside them, never instead; the
 * engine's 90% band and how many held-out cells it holds when it is taken from the other sources
 * only. Cells the tool cannot express are counted by reason.
 * Options: --set held-out|calibration|all (default all), --engine NAME, --source ID, --every N
 * (every Nth cell, for a quick look), --quiet. Writes bench/results/engines-DATE.{json,md}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import { loadEngineTable, type EngineCell } from './engines/cells.js';
import { predictEngineCell, type EngineCellResult } from './engines/engine-cell.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const quiet = process.argv.includes('--quiet');
const wantSet = arg('set') ?? 'all';
const every = Number(arg('every') ?? 1);
const table = loadEngineTable(path.join('bench', 'engines'));
const db = openDatabase(':memory:');
const started = Date.now();

type Priced = { cell: EngineCell; set: string; r: Extract<EngineCellResult, { error: number }> };
type Row = { cell: EngineCell; set: string; r: EngineCellResult };

const chosen = table.cells.filter(
  (c, i) =>
    i % every === 0 &&
    (wantSet === 'all' || table.sources.get(c.source)?.set === wantSet) &&
    (arg('engine') === undefined || c.engine === arg('engine')) &&
    (arg('source') === undefined || c.source === arg('source')),
);
const rows: Row[] = chosen.map((cell, i) => {
  if (!quiet && i % 200 === 0)
    process.stderr.write(`  ${i} of ${chosen.length} cells, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  const source = table.sources.get(cell.source);
  return { cell, set: source?.set ?? 'held-out', r: predictEngineCell(cell, db, source?.date) };
});
const priced = (xs: readonly Row[]): Priced[] => xs.filter((x): x is Priced => 'error' in x.r);

/** Measured over predicted time: a throughput's error inverted, so every ratio reads as time. */
const timeRatio = (x: Priced): number =>
  /tokens\/s|requests\/s/.test(x.cell.unit) ? 1 + x.r.error : 1 / (1 + x.r.error);

const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] as number);

function stats(xs: readonly Row[]): string {
  const p = priced(xs);
  if (p.length === 0) return `0 of ${xs.length} priced`;
  const abs = p.map((x) => Math.abs(x.r.error)).sort((a, b) => a - b);
  const signed = p.map((x) => x.r.error).sort((a, b) => a - b);
  const within = abs.filter((e) => e <= 0.15).length / abs.length;
  return `${p.length} of ${xs.length} priced: median |error| ${(quantile(abs, 0.5) * 100).toFixed(1)}%, within ±15% ${(within * 100).toFixed(0)}%, median signed ${pct(quantile(signed, 0.5))}`;
}

/** The median over sources of each source's median |error|: no source outweighs another by its size. */
function sourceBalanced(xs: readonly Row[]): string {
  const medians = groups(xs, (x) => x.cell.source)
    .map(([, rows]) => priced(rows).map((x) => Math.abs(x.r.error)).sort((a, b) => a - b))
    .filter((abs) => abs.length > 0)
    .map((abs) => quantile(abs, 0.5))
    .sort((a, b) => a - b);
  return `${(quantile(medians, 0.5) * 100).toFixed(1)}% over ${medians.length} sources`;
}

const pct = (e: number): string => `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)}%`;
const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(3));
const groups = <K extends string>(xs: readonly Row[], key: (x: Row) => K): [K, Row[]][] => {
  const m = new Map<K, Row[]>();
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return [...m].sort((a, b) => a[0].localeCompare(b[0]));
};

/** The engine's band: 5th and 95th percentiles of measured / predicted time over its held-out cells. */
function band(xs: readonly Priced[]): { low: number; high: number } | null {
  const r = xs.map(timeRatio).sort((a, b) => a - b);
  return r.length < 10 ? null : { low: quantile(r, 0.05), high: quantile(r, 0.95) };
}

/** Coverage of the band taken from the engine's other sources only (leave one source out). */
function coverage(xs: readonly Priced[]): { inside: number; n: number } {
  let inside = 0;
  let n = 0;
  for (const [, own] of groups(xs, (x) => x.cell.source)) {
    const b = band(xs.filter((x) => x.cell.source !== own[0]?.cell.source));
    if (!b) continue;
    for (const x of own as Priced[]) {
      n++;
      const t = timeRatio(x);
      if (t >= b.low && t <= b.high) inside++;
    }
  }
  return { inside, n };
}

const heldOut = rows.filter((x) => x.set === 'held-out');
const calibration = rows.filter((x) => x.set === 'calibration');
const lines: string[] = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
  `Cells: ${table.cells.length} from ${table.sources.size} sources (${rows.length} run); ${table.invalid.length} refused by the schema`,
  "Split (fixed before tuning): calibration = an engine's own first-party publications, for that engine only, and first-party kernel microbenchmarks; held-out = every third-party measurement.",
  '',
  `## held-out: ${stats(heldOut)}`,
  `- each source weighed alike (the median of its sources' median |error|): ${sourceBalanced(heldOut)}`,
];
const calibratedGpus = new Map<string, Set<string>>();
for (const x of calibration) {
  const s = calibratedGpus.get(x.cell.engine) ?? new Set<string>();
  s.add(x.cell.gpu.toLowerCase());
  calibratedGpus.set(x.cell.engine, s);
}
for (const [engine, xs] of groups(heldOut, (x) => x.cell.engine)) {
  const p = priced(xs);
  const b = band(p);
  const cov = coverage(p);
  const unseen = xs.filter((x) => !calibratedGpus.get(engine)?.has(x.cell.gpu.toLowerCase()));
  lines.push(`- engine ${engine}: ${stats(xs)}`);
  lines.push(`  - GPUs its calibration never saw: ${stats(unseen)}`);
  if (b)
    lines.push(
      `  - 90% band (measured/predicted time) ${b.low.toFixed(2)}x-${b.high.toFixed(2)}x (width ${(b.high / b.low).toFixed(2)}x); leave-one-source-out coverage ${cov.inside} of ${cov.n} (${cov.n ? ((cov.inside / cov.n) * 100).toFixed(0) : '-'}%)`,
    );
  for (const [kind, ks] of groups(xs, (x) => x.cell.kind)) lines.push(`  - kind ${kind}: ${stats(ks)}`);
}
for (const [kind, xs] of groups(heldOut, (x) => x.cell.kind)) lines.push(`- kind ${kind}: ${stats(xs)}`);
for (const [gpu, xs] of groups(heldOut, (x) => x.cell.gpu)) lines.push(`- GPU ${gpu}: ${stats(xs)}`);
for (const [source, xs] of groups(heldOut, (x) => x.cell.source)) lines.push(`- source ${source}: ${stats(xs)}`);
lines.push('', `## calibration (beside, not instead): ${stats(calibration)}`);
for (const [engine, xs] of groups(calibration, (x) => x.cell.engine)) lines.push(`- engine ${engine}: ${stats(xs)}`);
for (const [source, xs] of groups(calibration, (x) => x.cell.source)) lines.push(`- source ${source}: ${stats(xs)}`);
lines.push('', '## not expressible, by reason');
const reasons = groups(
  rows.filter((x) => 'notExpressible' in x.r),
  (x) =>
    `${x.set}: ${('notExpressible' in x.r ? x.r.notExpressible : '').replace(/"[^"]*"/g, '"…"').replace(/\d+(\.\d+)?/g, 'N')}`,
);
for (const [reason, xs] of reasons.sort((a, b) => b[1].length - a[1].length)) lines.push(`- ${xs.length}: ${reason}`);

const cellLines = [
  '| set | cell | engine | GPU | kind | published | predicted | error | how |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map((x) =>
    'error' in x.r
      ? `| ${x.set} | ${x.cell.id} | ${x.cell.engine} | ${x.cell.gpus}x ${x.cell.gpu} | ${x.cell.kind} | ${fmt(x.cell.value)} ${x.cell.unit} | ${fmt(x.r.predicted)} | ${pct(x.r.error)} | ${x.r.detail} |`
      : `| ${x.set} | ${x.cell.id} | ${x.cell.engine} | ${x.cell.gpus}x ${x.cell.gpu} | ${x.cell.kind} | ${fmt(x.cell.value)} ${x.cell.unit} | – | – | not expressible: ${x.r.notExpressible} |`,
  ),
];
console.log(lines.join('\n'));
if (process.argv.includes('--write-bands')) writeBands();

/** models/engine-bands.json: each engine's held-out band (engines with at least 20 priced cells). */
function writeBands(): void {
  const engines: Record<string, unknown> = {};
  for (const [engine, xs] of groups(heldOut, (x) => x.cell.engine)) {
    const p = priced(xs);
    const b = band(p);
    if (!b || p.length < 20) continue;
    const cov = coverage(p);
    const abs = p.map((x) => Math.abs(x.r.error)).sort((a, c) => a - c);
    engines[engine] = {
      low: Number(b.low.toFixed(3)),
      high: Number(b.high.toFixed(3)),
      cells: p.length,
      sources: [...new Set(p.map((x) => x.cell.source))].sort(),
      coverage: { inside: cov.inside, of: cov.n },
      medianAbsError: Number(quantile(abs, 0.5).toFixed(3)),
    };
  }
  const file = {
    about:
      "Each serving engine's band: measured / predicted time of its held-out (third-party) published figures in bench/engines, 5th and 95th percentiles, with the leave-one-source-out coverage. Written by npm run bench:engines -- --write-bands.",
    date: new Date().toISOString().slice(0, 10),
    command: 'npm run bench:engines -- --write-bands',
    engines,
  };
  writeFileSync(path.join('models', 'engine-bands.json'), `${JSON.stringify(file, null, 2)}\n`);
  console.log(`wrote models/engine-bands.json (${Object.keys(engines).length} engines)`);
}
const date = new Date().toISOString().slice(0, 10);
const out = path.join('bench', 'results');
mkdirSync(out, { recursive: true });
if (wantSet === 'all' && every === 1 && !arg('engine') && !arg('source')) {
  writeFileSync(path.join(out, `engines-${date}.md`), `${lines.join('\n')}\n\n${cellLines.join('\n')}\n`);
  writeFileSync(
    path.join(out, `engines-${date}.json`),
    `${JSON.stringify(
      rows.map((x) => ({ set: x.set, engine: x.cell.engine, ...x.r })),
      null,
      1,
    )}\n`,
  );
}
