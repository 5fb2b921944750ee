/**
 * Pythons for the PyTorch backend's tests: Debian's /usr/bin/python3 with python3-torch (a
 * CPU-only torch, installed by .ci/run; tests gate on needOracle('torch'), helpers/oracle.ts), and
 * the same Python made to lack torch.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './cli.js';
import { ORACLE_PYTHON } from './oracle.js';

export const SYSTEM_PYTHON = ORACLE_PYTHON;

/** An environment in which SYSTEM_PYTHON finds a `torch` that fails to import, as where none is installed. */
export function envWithoutTorch(): NodeJS.ProcessEnv {
  const dir = tempDir('pdjv-notorch-');
  mkdirSync(path.join(dir, 'torch'));
  writeFileSync(path.join(dir, 'torch', '__init__.py'), 'raise ModuleNotFoundError("No module named \'torch\'")\n');
  return { ...process.env, PYTHONPATH: dir };
}
