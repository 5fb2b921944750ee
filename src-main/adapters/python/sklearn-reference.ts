/**
 * scikit-learn's RandomForestRegressor on the same features, targets and folds as
 * our forest: the reference the TypeScript forest is held to in `pipedejavu evaluate`.
 * Runs Debian's /usr/bin/python3 (python3-sklearn); absent, the report says so.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = `
import json, sys, time
from sklearn.ensemble import RandomForestRegressor
import numpy as np
job = json.load(open(sys.argv[1]))
X = np.array(job["X"], dtype=np.float64)
y = np.array(job["y"], dtype=np.float64)
out = []
fit_seconds = 0.0
for fold in job["folds"]:
    tr = np.array(fold["train"], dtype=np.int64)
    te = np.array(fold["test"], dtype=np.int64)
    m = RandomForestRegressor(n_estimators=job["trees"], max_depth=job["depth"], min_samples_leaf=job["minLeaf"],
                              max_features=job["maxFeatures"], n_jobs=2, random_state=job["seed"])
    t = time.perf_counter()
    m.fit(X[tr], y[tr])
    fit_seconds += time.perf_counter() - t
    out.append({"name": fold["name"], "test": fold["test"], "predicted": m.predict(X[te]).tolist()})
json.dump({"folds": out, "fitSeconds": fit_seconds}, open(sys.argv[2], "w"))
`;

export const PYTHON = '/usr/bin/python3';

export interface SklearnJob {
  X: number[][];
  y: number[];
  folds: { name: string; train: number[]; test: number[] }[];
  trees: number;
  depth: number;
  minLeaf: number;
  maxFeatures: number;
  seed: number;
}

export type SklearnResult =
  | { ok: true; folds: { name: string; test: number[]; predicted: number[] }[]; fitSeconds: number }
  | { ok: false; reason: string };

export function runSklearnForest(job: SklearnJob, timeoutMs = 600_000): Promise<SklearnResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pipedejavu-sklearn-'));
  const input = path.join(dir, 'job.json');
  const output = path.join(dir, 'out.json');
  writeFileSync(input, JSON.stringify(job));
  return new Promise((resolve) => {
    execFile(
      PYTHON,
      ['-c', SCRIPT, input, output],
      { timeout: timeoutMs, maxBuffer: 16 * 2 ** 20 },
      (err, _stdout, stderr) => {
        try {
          if (err) {
            const missing = /No module named/.test(stderr) || (err as NodeJS.ErrnoException).code === 'ENOENT';
            resolve({
              ok: false,
              reason: missing
                ? 'scikit-learn reference unavailable (apt-get install python3-sklearn)'
                : `scikit-learn reference failed: ${stderr.trim().split('\n').pop() ?? err.message}`,
            });
            return;
          }
          const parsed = JSON.parse(readFileSync(output, 'utf8')) as {
            folds: { name: string; test: number[]; predicted: number[] }[];
            fitSeconds: number;
          };
          resolve({ ok: true, ...parsed });
        } catch (e) {
          resolve({ ok: false, reason: `scikit-learn reference gave no result: ${(e as Error).message}` });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );
  });
}
