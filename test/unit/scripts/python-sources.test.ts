/**
 * The project's Python is Python: every .py in the repository byte-compiles with Debian's
 * /usr/bin/python3 (warnings as errors), and the build copies the scripts the app runs
 * (src-main/**\/*.py) into dist/python/, where the bundles find them (test/global-setup.ts builds).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { needOracle, ORACLE_PYTHON } from '../../helpers/oracle.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Tracked and new (not ignored) files matching the pattern, relative to the repository root. */
function repoFiles(pattern: string): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', pattern], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out.split('\n').filter(Boolean).sort();
}

describe('Python sources', () => {
  const python = needOracle('python');

  it('include the scripts the app runs', () => {
    expect(repoFiles('src-main/*.py')).toEqual(
      expect.arrayContaining([
        'src-main/adapters/python/sklearn_reference.py',
        'src-main/adapters/torch/torch_runner.py',
      ]),
    );
  });

  it.skipIf(!python)('every .py byte-compiles with Debian’s python3 -m py_compile, warnings as errors', () => {
    const files = repoFiles('*.py');
    // The bytecode goes to a temp folder, not into __pycache__ folders in the tree.
    const r = spawnSync(ORACLE_PYTHON, ['-W', 'error', '-m', 'py_compile', ...files], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPYCACHEPREFIX: tempDir('pdjv-pycache-') },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('are copied by the build into dist/python/, byte for byte', () => {
    for (const file of repoFiles('src-main/*.py')) {
      const built = path.join(ROOT, 'dist/python', path.basename(file));
      expect(readFileSync(built, 'utf8'), file).toBe(readFileSync(path.join(ROOT, file), 'utf8'));
    }
  });
});
