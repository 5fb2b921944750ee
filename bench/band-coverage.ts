/**
 * Coverage of the 90% prediction band (core/predictor/model-band.ts) on prediction bench runs:
 * for every model and thread count of a run (its six models and its held-out set), the band
 * from the other models' residuals only, and whether the measured time (the independent loop)
 * fell inside it. Two ways, as a user meets them:
 * - this device's checks: the other models of the same run (measure-model on this CPU), leave
 *   one model out;
 * - shipped: models/prediction-residuals.json's runs on other CPUs alone (a fresh install).
 *
 * Run: npm run bench:band -- bench/results/prediction-....json [...]
 */
import { readFileSync } from 'node:fs';
import { modelBand, type Residual } from '../src-main/core/predictor/model-band.js';
import { SHIPPED_RUNS } from '../src-main/core/predictor/shipped-residuals.js';

interface Row {
  label: string;
  threads: number;
  /** As timed from Node: device time plus the binding (the bench's `predictedMs` holds both). */
  predictedMs: number;
  loopMs: number;
}

const residualOf = (r: Row): Residual => ({
  model: r.label,
  threads: r.threads,
  logRatio: Math.log(r.loopMs / r.predictedMs),
  predictedUs: r.predictedMs * 1000,
});

interface Outcome {
  inside: number;
  total: number;
  widths: number[];
}

function evaluate(rows: readonly Row[], residuals: (r: Row) => { checks: Residual[]; shipped: Residual[] }): Outcome {
  const out: Outcome = { inside: 0, total: 0, widths: [] };
  for (const r of rows) {
    const predicted = r.predictedMs;
    const { checks, shipped } = residuals(r);
    const b = modelBand(predicted * 1000, { model: r.label, threads: r.threads }, checks, shipped);
    out.total++;
    if (r.loopMs * 1000 >= b.lowUs && r.loopMs * 1000 <= b.highUs) out.inside++;
    out.widths.push(Math.exp(b.q) - 1);
  }
  return out;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? ((s[Math.floor((s.length - 1) / 2)] as number) + (s[Math.ceil((s.length - 1) / 2)] as number)) / 2
    : NaN;
};
const line = (name: string, o: Outcome): string =>
  `${name}: ${o.inside} of ${o.total} inside (${((100 * o.inside) / o.total).toFixed(0)}%), median half-width +${(100 * median(o.widths)).toFixed(0)}%`;

for (const file of process.argv.slice(2)) {
  const run = JSON.parse(readFileSync(file, 'utf8')) as { rows: Row[]; held: Row[] };
  const rows = [...run.rows, ...run.held].filter((r) => r.loopMs > 0 && r.predictedMs > 0);
  const all = rows.map(residualOf);
  const local = evaluate(rows, () => ({ checks: all, shipped: [] }));
  // The shipped runs other than this one: a fresh install on a CPU nobody checked here.
  const others = SHIPPED_RUNS.filter((s) => !file.endsWith(s.bench)).flatMap((s) => s.residuals);
  const shipped = evaluate(rows, () => ({ checks: [], shipped: others }));
  console.log(`${file}\n  ${line("this CPU's checks of the other models (leave one model out)", local)}`);
  console.log(`  ${line('shipped residuals of other runs alone', shipped)}`);
}
