/**
 * Random-forest benchmark. Run: npm run bench:forest [-- --ml-budget-s 120]
 * 20,000 synthetic training samples (test/helpers/forest-samples.ts: random kernels on 4 CPUs
 * and 3 GPUs, a known roofline law with 4% noise), 10,000 held-out samples, the 49 features of
 * features.ts, target log(time / floor). Same hyper-parameters everywhere: 100 trees, depth
 * 20, min leaf 2, max_features 1/3. Compares our RandomForestRegressor, scikit-learn (n_jobs
 * 2 and 1, bench/sklearn-forest.py via /usr/bin/python3) and ml-random-forest (quadratic in
 * rows: trained on a subset within a time budget, its full-size time extrapolated). Accuracy
 * is in time space: time = floor * exp(max(raw, log 0.8)), against the measured times.
 * Prints a markdown table.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RandomForestRegression } from 'ml-random-forest';
import { featureVector, floorUs, MIN_LOG_RATIO } from '../src-main/core/predictor/features.js';
import { RandomForestRegressor } from '../src-main/core/predictor/random-forest.js';
import { syntheticSamples } from '../test/helpers/forest-samples.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const N_TRAIN = arg('--train', 20_000);
const N_TEST = 10_000;
const ML_BUDGET_S = arg('--ml-budget-s', 120);
const ML_ROWS = arg('--ml-rows', 2_000);
const HP = { nEstimators: 100, maxDepth: 20, minSamplesLeaf: 2, seed: 42 };

const samples = syntheticSamples(N_TRAIN + N_TEST, 2026);
const X = samples.map((s) => featureVector(s, s.device));
const y = samples.map((s) => Math.log(s.timeUs / floorUs(s, s.device)));
const [Xtr, ytr, Xte] = [X.slice(0, N_TRAIN), y.slice(0, N_TRAIN), X.slice(N_TRAIN)];
const test = samples.slice(N_TRAIN);

/** MAPE and median APE (%) in time space. */
function accuracy(raw: readonly number[]): { mape: number; median: number } {
  const ape = raw.map((r, i) => {
    const s = test[i]!;
    const t = floorUs(s, s.device) * Math.exp(Math.max(MIN_LOG_RATIO, r));
    return Math.abs(t - s.timeUs) / s.timeUs;
  });
  const sorted = [...ape].sort((a, b) => a - b);
  return { mape: (100 * ape.reduce((a, v) => a + v, 0)) / ape.length, median: 100 * sorted[sorted.length >> 1]! };
}

const seconds = (f: () => void): number => {
  const t = performance.now();
  f();
  return (performance.now() - t) / 1000;
};

interface Row {
  name: string;
  rows: number;
  fit: string;
  predict: string;
  mape: string;
  median: string;
}
const rows: Row[] = [];
const fmt = (v: number, digits = 2): string => v.toFixed(digits);
const addRow = (name: string, n: number, fit: string, predictMs: number | null, raw: readonly number[]): void => {
  const a = accuracy(raw);
  rows.push({
    name,
    rows: n,
    fit,
    predict: predictMs === null ? 'n/a' : `${fmt(predictMs, 0)} ms`,
    mape: `${fmt(a.mape)}%`,
    median: `${fmt(a.median)}%`,
  });
};

// Ours.
const ours = new RandomForestRegressor({ ...HP, maxFeatures: 'third' });
const oursFit = seconds(() => ours.fit(Xtr, ytr));
let oursRaw: number[] = [];
const cold = seconds(() => (oursRaw = ours.predict(Xte)));
const warm = Math.min(...[0, 1, 2].map(() => seconds(() => ours.predict(Xte))));
addRow('ours (TS, 1 thread)', N_TRAIN, `${fmt(oursFit)} s`, warm * 1000, oursRaw);
const nodes = ours.fittedTrees.reduce((a, t) => a + t.feature.length, 0);
const jsonMb = JSON.stringify(ours.toJSON()).length / 1e6;

// scikit-learn.
const dir = path.join(os.tmpdir(), 'pdjv-forest-bench');
mkdirSync(dir, { recursive: true });
const dataFile = path.join(dir, 'data.json');
writeFileSync(dataFile, JSON.stringify({ Xtr, ytr, Xte, params: { ...HP, maxFeatures: 1 / 3 }, njobs: [2, 1] }));
const sk = JSON.parse(
  execFileSync('/usr/bin/python3', ['bench/sklearn-forest.py', dataFile], { encoding: 'utf8', maxBuffer: 1 << 28 }),
) as {
  sklearn: string;
  runs: { njobs: number; fitSeconds: number; predictSeconds: number; nodes: number; predictions: number[] }[];
};
for (const r of sk.runs) {
  addRow(
    `scikit-learn ${sk.sklearn}, n_jobs=${r.njobs}`,
    N_TRAIN,
    `${fmt(r.fitSeconds)} s`,
    r.predictSeconds * 1000,
    r.predictions,
  );
}

// ml-random-forest: O(rows x distinct values) per feature and node, so a subset.
const mlOptions = (nEstimators: number) => ({
  nEstimators,
  maxFeatures: 1 / 3, // per tree (random subspace), not per split
  replacement: true,
  useSampleBagging: true,
  noOOB: true,
  seed: 42,
  treeOptions: { maxDepth: HP.maxDepth, minNumSamples: HP.minSamplesLeaf },
});
const mlTree = (n: number): number =>
  seconds(() => new RandomForestRegression(mlOptions(1)).train(Xtr.slice(0, n), ytr.slice(0, n)));
const half = Math.max(250, ML_ROWS >> 1);
const tHalf = mlTree(half);
const tRows = mlTree(ML_ROWS);
const exponent = Math.log(tRows / tHalf) / Math.log(ML_ROWS / half);
const mlFullEstimate = tRows * (N_TRAIN / ML_ROWS) ** exponent * HP.nEstimators;
const mlTrees = Math.max(1, Math.min(HP.nEstimators, Math.floor(ML_BUDGET_S / Math.max(tRows, 1e-3))));
const ml = new RandomForestRegression(mlOptions(mlTrees));
const mlFit = seconds(() => ml.train(Xtr.slice(0, ML_ROWS), ytr.slice(0, ML_ROWS)));
let mlRaw: number[] = [];
const mlPredict = seconds(() => (mlRaw = ml.predict(Xte)));
addRow(
  `ml-random-forest 2.1.0 (${mlTrees} trees on ${ML_ROWS} rows)`,
  ML_ROWS,
  `${fmt(mlFit)} s (est. ${fmt(mlFullEstimate / 60, 0)} min at ${N_TRAIN} rows x 100 trees)`,
  mlPredict * 1000,
  mlRaw,
);
const oursSmall = new RandomForestRegressor({ ...HP, nEstimators: mlTrees, maxFeatures: 'third' });
const oursSmallFit = seconds(() => oursSmall.fit(Xtr.slice(0, ML_ROWS), ytr.slice(0, ML_ROWS)));
addRow(
  `ours, same subset (${mlTrees} trees on ${ML_ROWS} rows)`,
  ML_ROWS,
  `${fmt(oursSmallFit)} s`,
  null,
  oursSmall.predict(Xte),
);

console.log(`\nForest benchmark: ${N_TRAIN} training / ${N_TEST} test samples, ${X[0]!.length} features; `);
console.log(`100 trees, max depth 20, min leaf 2, max features 1/3 (per split; ml-random-forest: per tree).`);
console.log(`Machine: ${os.cpus()[0]?.model ?? '?'} x ${os.cpus().length}, Node ${process.version}.\n`);
console.log('| model | train rows | train time | predict 10,000 | MAPE (time) | median APE |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.name} | ${r.rows} | ${r.fit} | ${r.predict} | ${r.mape} | ${r.median} |`);
console.log(
  `\nOurs: ${nodes} nodes, toJSON ${fmt(jsonMb, 1)} MB; first predict call ${fmt(cold * 1000, 0)} ms (JIT warm-up).`,
);
console.log(`sklearn nodes: ${sk.runs[0]?.nodes}.`);
