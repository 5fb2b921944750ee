/**
 * scikit-learn's RandomForestRegressor as a test oracle: Debian's python3-sklearn, run by
 * /usr/bin/python3 (a python3 elsewhere on PATH cannot see the Debian packages). Data goes
 * through a temp JSON file; the predictions come back on stdout as JSON.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SKLEARN_PYTHON = '/usr/bin/python3';

const SCRIPT = String.raw`
import json, sys
import numpy as np
from sklearn.ensemble import RandomForestRegressor
d = json.load(open(sys.argv[1]))
p = d['params']
m = RandomForestRegressor(n_estimators=p['nEstimators'], max_depth=p['maxDepth'],
                          min_samples_leaf=p['minSamplesLeaf'], min_samples_split=p['minSamplesSplit'],
                          max_features=p['maxFeatures'], bootstrap=p['bootstrap'],
                          random_state=p['seed'], n_jobs=1)
m.fit(np.array(d['X'], dtype=np.float64), np.array(d['y'], dtype=np.float64))
print(json.dumps(m.predict(np.array(d['Xtest'], dtype=np.float64)).tolist()))
`;

export interface SklearnForestParams {
  nEstimators: number;
  /** null: unlimited. */
  maxDepth: number | null;
  minSamplesLeaf: number;
  minSamplesSplit: number;
  /** sklearn's max_features: a count, a fraction, 'sqrt', or null for all. */
  maxFeatures: number | 'sqrt' | null;
  bootstrap: boolean;
  seed: number;
}

/** Fits sklearn on (X, y) and returns its predictions for Xtest. */
export function sklearnForestPredict(
  X: readonly (readonly number[])[],
  y: readonly number[],
  Xtest: readonly (readonly number[])[],
  params: SklearnForestParams,
): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'sklearn-oracle-'));
  try {
    const file = join(dir, 'data.json');
    writeFileSync(file, JSON.stringify({ X, y, Xtest, params }));
    const r = spawnSync(SKLEARN_PYTHON, ['-c', SCRIPT, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`sklearn oracle failed: ${r.error?.message ?? r.stderr}`);
    return JSON.parse(r.stdout) as number[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
