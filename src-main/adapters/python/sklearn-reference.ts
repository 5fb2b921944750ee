/**
 * scikit-learn's RandomForestRegressor on the same features, targets and folds as
 * our forest: the reference the TypeScript forest is held to in `pipedejavu evaluate`.
 * Runs sklearn_reference.py with Debian's /usr/bin/python3 (python3-sklearn); absent, the
 * report says so.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pythonScriptPath } from './python-script.js';

/** sklearn_reference.py: reads the job file, writes the predictions file (both named on its command line). */
const SCRIPT_FILE = 'sklearn_reference.py';

/** Debian's Python: python3-sklearn installs into it (a python3 elsewhere on PATH cannot see it). */
const PYTHON = '/usr/bin/python3';

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
      [pythonScriptPath(SCRIPT_FILE, import.meta.url), input, output],
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
