/**
 * scikit-learn's RandomForestRegressor as a test oracle: Debian's python3-sklearn, run by
 * /usr/bin/python3 (a python3 elsewhere on PATH cannot see the Debian packages). Data goes
 * through a temp JSON file; the predictions come back on stdout as JSON.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SKLEARN_PYTHON = '/usr/bin/python3';

const SCRIPT = fileURLToPath(new URL('./python/sklearn_forest.py', import.meta.url));

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
    const r = spawnSync(SKLEARN_PYTHON, [SCRIPT, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`sklearn oracle failed: ${r.error?.message ?? r.stderr}`);
    return JSON.parse(r.stdout) as number[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
