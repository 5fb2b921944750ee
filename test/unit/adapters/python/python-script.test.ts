import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pythonScriptPath } from '../../../../src-main/adapters/python/python-script.js';
import { tempDir } from '../../../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const urlOf = (file: string): string => pathToFileURL(file).href;

/** A built tree: <dir>/dist/python/<name>. */
function builtTree(dir: string, name: string): string {
  mkdirSync(path.join(dir, 'dist/python'), { recursive: true });
  const file = path.join(dir, 'dist/python', name);
  writeFileSync(file, 'pass\n');
  return file;
}

describe('pythonScriptPath', () => {
  it('finds a script next to the TypeScript that runs it in the sources', () => {
    const runner = path.join(ROOT, 'src-main/adapters/torch/torch-runner.ts');
    expect(pythonScriptPath('torch_runner.py', urlOf(runner))).toBe(
      path.join(ROOT, 'src-main/adapters/torch/torch_runner.py'),
    );
  });

  it('finds dist/python/ from each bundle: dist/cli.js, dist/electron/main.js, a bench bundle in .tmp/', () => {
    const dir = tempDir('pdjv-pyscript-');
    const built = builtTree(dir, 'x.py');
    for (const bundle of ['dist/cli.js', 'dist/job-runner.js', 'dist/electron/main.js', '.tmp/bench.mjs'])
      expect(pythonScriptPath('x.py', urlOf(path.join(dir, bundle))), bundle).toBe(built);
  });

  it('in a packaged app, the copy in app.asar.unpacked (Python cannot read the asar)', () => {
    const resources = tempDir('pdjv-pyscript-');
    const unpacked = builtTree(path.join(resources, 'app.asar.unpacked'), 'x.py');
    expect(pythonScriptPath('x.py', urlOf(path.join(resources, 'app.asar/dist/electron/main.js')))).toBe(unpacked);
  });

  it('found nowhere: the first place looked, which the Python child then names in its error', () => {
    const dir = tempDir('pdjv-pyscript-');
    expect(pythonScriptPath('x.py', urlOf(path.join(dir, 'dist/cli.js')))).toBe(path.join(dir, 'dist/x.py'));
  });
});
