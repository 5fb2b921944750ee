/**
 * Calibration of models/gpu-kernels.json on the CALIBRATION cells only (the held-out ones are
 * never read here): for one fraction, the value of a grid that gives the smallest median |log
 * error| over the calibration cells of the kinds and architecture it concerns.
 * Run: npx esbuild bench/published/calibrate.ts --bundle --platform=node --format=esm \
 *   --packages=external --outfile=.tmp/calibrate.mjs && node .tmp/calibrate.mjs \
 *   architectures.Hopper.attention 0.3,0.4,0.5,0.6,0.7 training
 */
import path from 'node:path';
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import { KERNEL_EFFICIENCIES } from '../../src-main/core/predictor/kernel-efficiency.js';
import { loadTable } from './cells.js';
import { predictCell } from './predict-cell.js';

const [param, grid, kinds] = process.argv.slice(2);
if (!param || !grid) throw new Error('usage: calibrate PARAM v1,v2,... [kind,kind]');
const keys = param.split('.');
const holder = keys
  .slice(0, -1)
  .reduce<Record<string, unknown>>(
    (o, k) => o[k] as Record<string, unknown>,
    KERNEL_EFFICIENCIES as unknown as Record<string, unknown>,
  );
const last = keys[keys.length - 1] as string;
const table = loadTable(path.join('bench', 'published'));
const cells = table.cells.filter(
  (c) => table.sources.get(c.source)?.set === 'calibration' && (!kinds || kinds.split(',').includes(c.kind)),
);
const db = openDatabase(':memory:');
for (const v of grid.split(',').map(Number)) {
  holder[last] = v;
  const errors = cells.flatMap((c) => {
    const r = predictCell(c, db);
    return 'error' in r ? [{ id: c.id, e: r.error }] : [];
  });
  const logs = errors.map((x) => Math.abs(Math.log(1 + x.e))).sort((a, b) => a - b);
  const median = logs[Math.floor((logs.length - 1) / 2)] ?? NaN;
  console.log(
    `${param}=${v}: ${errors.length} cells, median |log err| ${(median * 100).toFixed(1)}%  ${errors.map((x) => `${x.id} ${(x.e * 100).toFixed(0)}%`).join(', ')}`,
  );
}
