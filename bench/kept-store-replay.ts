/**
 * Predictions replayed on a store bench:prediction kept: the six models and the held-out set,
 * predicted from a copy of the store as the bench predicted them, before its measure-model
 * calls (their node rows, runs and checks are removed from the copy). Nothing is timed: the
 * figures are the predictor's, whatever the machine's load. The kept store is left alone.
 *
 * Run: esbuild bench/kept-store-replay.ts --bundle --platform=node --format=esm
 *   --packages=external --outfile=.tmp/kept-store-replay.mjs && node .tmp/kept-store-replay.mjs STORE_DIR
 * STORE_DIR holds bench.db and its executed-graphs/ folder. One JSON line per model and thread
 * count: { set, label, threads, ms, bareMs } (as timed from Node; bareMs without calibration).
 */
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KernelRunner } from '../src-main/adapters/ort/kernel-runner.js';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import { fromNodeUs } from '../src-main/core/workload/predict-workload.js';
import { predictModelExecuted } from '../src-main/services/predict/model-prediction-service.js';
import { trainPredictors } from '../src-main/services/predict/predictor-service.js';
import { HELD_OUT, MODELS, modelPath } from './lib/bench-profiles.js';

const store = process.argv[2];
if (!store) throw new Error('usage: node .tmp/kept-store-replay.mjs STORE_DIR (a folder holding bench.db)');
const work = mkdtempSync(path.join(os.tmpdir(), 'pdjv-replay-'));
cpSync(store, work, { recursive: true });
const db = openDatabase(path.join(work, 'bench.db'));
db.exec("DELETE FROM measurements WHERE source = 'model'");
db.exec('DELETE FROM model_checks');
db.exec("DELETE FROM profile_runs WHERE suite LIKE 'model:%'");
trainPredictors(db, ['forest']);
const runner = new KernelRunner({});
try {
  for (const [set, list] of [
    ['six', MODELS],
    ['held', HELD_OUT],
  ] as const)
    for (const threads of [1, 2])
      for (const m of list) {
        const opts = { inputs: m.inputs, device: 'cpu', threads, predictor: 'forest' };
        const p = await predictModelExecuted(db, runner, modelPath(m), opts);
        const bare = await predictModelExecuted(db, runner, modelPath(m), { ...opts, calibrate: false });
        const row = { set, label: m.label, threads, ms: fromNodeUs(p) / 1000, bareMs: fromNodeUs(bare) / 1000 };
        console.log(JSON.stringify(row));
      }
} finally {
  await runner.close();
  db.close();
}
