/**
 * Predictor benchmark (issue 4 targets). Run: npm run bench:predictor -- DB
 * where DB holds profiles of this machine (e.g. `pipedejavu profile --suite standard
 * --threads 1,2 --db DB`). Prints the headline figures of every predictor under every
 * protocol, with scikit-learn's forest on the same folds, and writes
 * bench/results/predictor-<date>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import { evaluatePredictors } from '../src-main/services/predict/evaluation-service.js';

const dbPath = process.argv[2];
if (!dbPath) {
  console.error('usage: npm run bench:predictor -- DB');
  process.exit(2);
}
const db = openDatabase(dbPath);
const t = performance.now();
const { report, notes, sklearnFitSeconds } = await evaluatePredictors(db, { k: 5, seed: 42 });
const seconds = (performance.now() - t) / 1000;
const f = (v: number | null | undefined): string =>
  v === null || v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1);
const lines = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}`,
  `Data: ${report.samples} measurements on ${report.devices.length} device(s): ${report.devices.join(', ')}; evaluation took ${seconds.toFixed(1)} s (scikit-learn fits ${f(sklearnFitSeconds)} s)`,
  '',
  '| protocol | predictor | >=100 µs MAPE % | >=100 µs within ±10 % | all MAPE % | median APE % | within ±10 % | Spearman | <10 µs MAPE % | n |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
for (const p of report.protocols) {
  for (const [name, s] of Object.entries(p.byPredictor)) {
    lines.push(
      `| ${p.name} (${p.folds} folds) | ${name} | ${f(s.above100us.mape)} | ${f(s.above100us.within10)} | ${f(s.overall.mape)} | ${f(s.overall.medianApe)} | ${f(s.overall.within10)} | ${s.overall.spearman.toFixed(3)} | ${f(s.under10us.mape)} | ${s.overall.count} |`,
    );
  }
}
for (const n of notes) lines.push(`note: ${n}`);
const text = lines.join('\n');
console.log(text);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  `bench/results/predictor-${new Date().toISOString().slice(0, 10)}.json`,
  `${JSON.stringify({ seconds, sklearnFitSeconds, protocols: report.protocols, samples: report.samples, devices: report.devices, text }, null, 2)}\n`,
);
db.close();
