#!/usr/bin/env node
// Builds the Node side (CLI, kernel runner, Electron main and preload) with esbuild.
// Dependencies stay external: they are installed in node_modules (and unpacked from
// asar by electron-builder where native). The Python scripts are copied into dist/python/.
// The renderer is built by Vite when present.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { copyPythonSources } from './python-sources.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const rel = (p) => path.join(root, p);

const nodeEntries = [
  ['src-main/cli/bin.ts', 'dist/cli.js'],
  ['src-main/adapters/ort/kernel-runner-process.ts', 'dist/kernel-runner.js'],
  ['src-main/electron/main.ts', 'dist/electron/main.js'],
  ['src-main/app/jobs/job-runner-process.ts', 'dist/job-runner.js'],
].filter(([src]) => existsSync(rel(src)));

// Child-process entries inline their pure-JS dependencies: in a packaged app they run from
// app.asar.unpacked, next to only the native modules (see electron-builder.yml's asarUnpack).
const CHILDREN = new Set(['dist/kernel-runner.js', 'dist/job-runner.js']);
const NATIVE = ['better-sqlite3', 'onnxruntime-node', 'electron'];

await Promise.all(
  nodeEntries.map(([src, out]) =>
    build({
      entryPoints: [rel(src)],
      outfile: rel(out),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      ...(CHILDREN.has(out)
        ? {
            external: NATIVE,
            // Inlined CommonJS dependencies may call require().
            banner: {
              js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
            },
          }
        : { packages: 'external' }),
      sourcemap: true,
      logLevel: 'warning',
    }),
  ),
);
if (existsSync(rel('src-main/electron/preload.ts'))) {
  // Sandboxed preloads must be CommonJS and may only require 'electron'.
  await build({
    entryPoints: [rel('src-main/electron/preload.ts')],
    outfile: rel('dist/electron/preload.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['electron'],
    logLevel: 'warning',
  });
}
// The Python scripts the bundles run by path (src-main/adapters/python/python-script.ts).
copyPythonSources(root, rel('dist'));
// The renderer (Svelte + Vite) into src-renderer/dist, served by `pipedejavu serve` and loaded by Electron.
// PIPEDEJAVU_SKIP_RENDERER=1 skips it (the CLI alone needs none of it).
const viteConfig = rel('src-renderer/vite.config.ts');
if (existsSync(viteConfig) && process.env.PIPEDEJAVU_SKIP_RENDERER !== '1') {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: viteConfig, logLevel: 'warn' });
}
console.log(`built ${nodeEntries.length} entr${nodeEntries.length === 1 ? 'y' : 'ies'} into dist/`);
