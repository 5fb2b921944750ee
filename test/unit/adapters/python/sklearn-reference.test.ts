/**
 * sklearn_reference.py run for real by Debian's /usr/bin/python3 (python3-sklearn): the
 * reference forest of `pipedejavu evaluate`, on folds it is given.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSklearnForest, type SklearnJob } from '../../../../src-main/adapters/python/sklearn-reference.js';
import { tempDir } from '../../../helpers/cli.js';
import { needOracle } from '../../../helpers/oracle.js';

/** y = 2a + b on a 10 x 6 grid; fold "even" holds out the even rows, "odd" the odd ones. */
function job(): SklearnJob {
  const X: number[][] = [];
  for (let a = 0; a < 10; a++) for (let b = 0; b < 6; b++) X.push([a, b]);
  const y = X.map(([a, b]) => 2 * (a as number) + (b as number));
  const rows = X.map((_, i) => i);
  const even = rows.filter((i) => i % 2 === 0);
  const odd = rows.filter((i) => i % 2 === 1);
  return {
    X,
    y,
    folds: [
      { name: 'even', train: odd, test: even },
      { name: 'odd', train: even, test: odd },
    ],
    trees: 20,
    depth: 8,
    minLeaf: 1,
    maxFeatures: 1,
    seed: 7,
  };
}

describe('the scikit-learn reference forest', () => {
  const sklearn = needOracle('sklearn');
  const savedPythonPath = process.env.PYTHONPATH;
  afterEach(() => {
    if (savedPythonPath === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = savedPythonPath;
  });

  it.skipIf(!sklearn)('predicts each fold’s held-out rows from its training rows', async () => {
    const j = job();
    const r = await runSklearnForest(j);
    if (!r.ok) throw new Error(r.reason);
    expect(r.folds.map((f) => f.name)).toEqual(['even', 'odd']);
    expect(r.fitSeconds).toBeGreaterThan(0);
    for (const [k, fold] of r.folds.entries()) {
      expect(fold.test).toEqual(j.folds[k]?.test);
      expect(fold.predicted).toHaveLength(fold.test.length);
      const errors = fold.test.map((row, i) => Math.abs((fold.predicted[i] as number) - (j.y[row] as number)));
      // y spans 0..23 and each held-out row has neighbours one step away in the training rows.
      expect(Math.max(...errors)).toBeLessThan(3);
    }
  });

  it.skipIf(!sklearn)('says how to install scikit-learn where Python has none', async () => {
    const dir = tempDir('pdjv-nosklearn-');
    mkdirSync(path.join(dir, 'sklearn'));
    writeFileSync(
      path.join(dir, 'sklearn', '__init__.py'),
      'raise ModuleNotFoundError("No module named \'sklearn\'")\n',
    );
    process.env.PYTHONPATH = dir;
    expect(await runSklearnForest(job())).toEqual({
      ok: false,
      reason: 'scikit-learn reference unavailable (apt-get install python3-sklearn)',
    });
  });
});
