// The project's Python scripts (src-main/**/*.py, run by the PyTorch backend and `evaluate`)
// are files of their own; the builds copy them, flat, into <dist>/python/, where
// src-main/adapters/python/python-script.ts finds them next to the bundled JS at run time.
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/** src-main/**\/*.py, relative to root, sorted; two with one file name would collide in dist/python/. */
export function pythonSources(root) {
  const files = readdirSync(path.join(root, 'src-main'), { recursive: true })
    .filter((f) => f.endsWith('.py') && !f.split(path.sep).includes('__pycache__'))
    .map((f) => path.join('src-main', f))
    .sort();
  const byName = new Map();
  for (const f of files) {
    const name = path.basename(f);
    if (byName.has(name)) throw new Error(`two Python scripts named ${name}: ${byName.get(name)} and ${f}`);
    byName.set(name, f);
  }
  return files;
}

/**
 * Copies every Python script into <distDir>/python/ and removes scripts no longer in the sources;
 * returns how many. Each lands whole (a copy renamed into place): a test run may be reading the
 * previous one while another build runs.
 */
export function copyPythonSources(root, distDir) {
  const out = path.join(distDir, 'python');
  mkdirSync(out, { recursive: true });
  const files = pythonSources(root);
  for (const f of files) {
    const to = path.join(out, path.basename(f));
    copyFileSync(path.join(root, f), `${to}.${process.pid}.tmp`);
    renameSync(`${to}.${process.pid}.tmp`, to);
  }
  const names = new Set(files.map((f) => path.basename(f)));
  for (const stale of readdirSync(out).filter((f) => f.endsWith('.py') && !names.has(f))) rmSync(path.join(out, stale));
  return files.length;
}
