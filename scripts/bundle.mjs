#!/usr/bin/env node
// The portable CLI: one folder (and a .tar.xz of it) with a Node binary, the CLI and its child
// scripts bundled with their pure-JS dependencies, its Python scripts (dist/python/), and the
// native runtime parts (ONNX Runtime's Linux x64 libraries, better-sqlite3's addon). It runs `pipedejavu probe/profile/export` on a
// Linux x64 server that has no Node or npm: unpack, then run pipedejavu/bin/pipedejavu.
//
//   npm run bundle [-- --out DIR] [--node PATH] [--vulkan] [--no-archive]
//
// --node PATH   the Node binary to ship (default: the one running this script)
// --vulkan      ship this machine's Vulkan loader (libvulkan.so.1) for the WebGPU EP on servers
//               without one (apt-get install libvulkan1 first)
// --no-archive  the folder only (the tests use it; xz takes a minute)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyPythonSources } from './python-sources.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** What one call to the device machine can carry, and the limit for the archive. */
const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;
const NATIVE = ['better-sqlite3', 'onnxruntime-node'];
const ENTRIES = [
  ['src-main/cli/bin.ts', 'dist/cli.js'],
  ['src-main/adapters/ort/kernel-runner-process.ts', 'dist/kernel-runner.js'],
  ['src-main/app/jobs/job-runner-process.ts', 'dist/job-runner.js'],
];

function fail(message) {
  process.stderr.write(`bundle: error: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const opts = { out: path.join(root, 'bundle'), node: process.execPath, vulkan: false, archive: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out' || a === '--node') {
      const v = argv[++i];
      if (!v) fail(`${a} needs a path`);
      opts[a.slice(2)] = path.resolve(v);
    } else if (a === '--vulkan') opts.vulkan = true;
    else if (a === '--no-archive') opts.archive = false;
    else fail(`unknown option ${a} (takes --out DIR, --node PATH, --vulkan, --no-archive)`);
  }
  return opts;
}

/** An installed package's folder (npm's flat node_modules; some packages do not export package.json). */
function pkgDir(name) {
  const dir = path.join(root, 'node_modules', name);
  if (!existsSync(path.join(dir, 'package.json'))) fail(`${name} is not installed; run npm ci`);
  return dir;
}
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The Node binary: must be a Linux x86-64 executable that runs. */
function copyNode(from, dir) {
  const head = readFileSync(from).subarray(0, 20);
  const elf = head[0] === 0x7f && head.toString('latin1', 1, 4) === 'ELF';
  if (!elf || head.readUInt16LE(18) !== 62) fail(`${from} is not a Linux x86-64 executable`);
  const version = execFileSync(from, ['--version'], { encoding: 'utf8' }).trim();
  const major = Number(/^v(\d+)/.exec(version)?.[1]);
  if (!(major >= 20)) fail(`${from} is Node ${version}; the CLI needs Node 20 or newer`);
  mkdirSync(path.join(dir, 'node/bin'), { recursive: true });
  copyFileSync(from, path.join(dir, 'node/bin/node'));
  chmodSync(path.join(dir, 'node/bin/node'), 0o755);
  return version;
}

/** The CLI and its two child scripts, every pure-JS dependency inlined, no source maps. */
async function bundleScripts(dir) {
  for (const [src, out] of ENTRIES) {
    await build({
      entryPoints: [path.join(root, src)],
      outfile: path.join(dir, out),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      external: NATIVE,
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'warning',
    });
  }
}

/** A package's files (relative paths or folders) into the bundle's node_modules. */
function copyPackage(dir, name, parts) {
  const from = pkgDir(name);
  for (const part of ['package.json', ...parts]) {
    const src = path.join(from, part);
    if (!existsSync(src)) fail(`${name} has no ${part}; run npm ci`);
    cpSync(src, path.join(dir, 'node_modules', name, part), {
      recursive: true,
      filter: (f) => !f.endsWith('.map') && !f.endsWith('.d.ts'),
    });
  }
}

/** ONNX Runtime (its Linux x64 libraries only) and better-sqlite3 with what they load at run time. */
function copyNativeModules(dir) {
  const ortBin = 'bin/napi-v6/linux/x64';
  copyPackage(dir, 'onnxruntime-node', ['dist', ortBin]);
  const cuda = path.join(dir, 'node_modules/onnxruntime-node', ortBin, 'libonnxruntime_providers_cuda.so');
  if (existsSync(cuda)) {
    // Hundreds of MB with its CUDA libraries: install it on the server instead (npm run install-cuda).
    rmSync(cuda);
    console.log('bundle: left out the CUDA provider (too large); the bundle profiles CPU and WebGPU');
  }
  copyPackage(dir, 'onnxruntime-common', ['dist/cjs', 'dist/esm']);
  copyPackage(dir, 'better-sqlite3', ['lib', 'build/Release/better_sqlite3.node', 'LICENSE']);
  copyPackage(dir, 'bindings', ['bindings.js', 'LICENSE.md']);
  copyPackage(dir, 'file-uri-to-path', ['index.js', 'LICENSE']);
}

/** libvulkan.so.1 from this machine (Debian's libvulkan1), for the WebGPU EP. */
function copyVulkan(dir) {
  const found = ['/usr/lib/x86_64-linux-gnu/libvulkan.so.1', '/lib/x86_64-linux-gnu/libvulkan.so.1'].find(existsSync);
  if (!found) fail('--vulkan: no libvulkan.so.1 here (apt-get install libvulkan1)');
  mkdirSync(path.join(dir, 'lib'), { recursive: true });
  copyFileSync(found, path.join(dir, 'lib/libvulkan.so.1'));
}

const LAUNCHER = `#!/bin/sh
# pipeDejavu's portable CLI: the bundled Node runs the bundled CLI. Needs nothing else installed.
here=$(cd -- "$(dirname -- "$(readlink -f -- "$0")")/.." && pwd) || exit 1
if [ -d "$here/lib" ]; then
  LD_LIBRARY_PATH="$here/lib\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export LD_LIBRARY_PATH
fi
exec "$here/node/bin/node" "$here/dist/cli.js" "$@"
`;

function writeLauncherAndNotes(dir, nodeVersion, version) {
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  writeFileSync(path.join(dir, 'bin/pipedejavu'), LAUNCHER);
  chmodSync(path.join(dir, 'bin/pipedejavu'), 0o755);
  const ort = JSON.parse(readFileSync(path.join(pkgDir('onnxruntime-node'), 'package.json'), 'utf8')).version;
  writeFileSync(
    path.join(dir, 'README.txt'),
    [
      `pipeDejavu ${version}, portable CLI for Linux x86-64 (Node ${nodeVersion}, onnxruntime-node ${ort}).`,
      '',
      '  bin/pipedejavu probe',
      '  bin/pipedejavu profile --device all',
      '  bin/pipedejavu export --out this-machine.json',
      '',
      'Then import this-machine.json on the machine you plan from (pipedejavu import FILE).',
      'Nothing else needs to be installed; the store is ~/.local/share/pipedejavu/pipedejavu.db',
      'unless --db or PIPEDEJAVU_DB says otherwise. Licences: licenses/.',
      '',
    ].join('\n'),
  );
  writeLicenses(dir);
}

/** Who made what ships: MIT for this project and ONNX Runtime; the packages' own files sit in node_modules. */
function writeLicenses(dir) {
  const lic = path.join(dir, 'licenses');
  mkdirSync(lic, { recursive: true });
  const notes = [
    'pipeDejavu: MIT licence (package.json).',
    'onnxruntime-node, onnxruntime-common: MIT licence, Copyright (c) Microsoft Corporation.',
    'better-sqlite3, bindings, file-uri-to-path: their LICENSE files in node_modules/.',
    'Node.js: node.txt when the building machine had it, else https://github.com/nodejs/node/blob/main/LICENSE.',
    'Bundled pure-JS dependencies (systeminformation, zod, @huggingface/gguf): MIT, see their packages.',
  ];
  writeFileSync(path.join(lic, 'README.txt'), `${notes.join('\n')}\n`);
  const nodeLicense = [
    path.join(path.dirname(process.execPath), '../share/doc/node/LICENSE'),
    '/usr/share/doc/nodejs/LICENSE',
  ].find(existsSync);
  if (nodeLicense) copyFileSync(nodeLicense, path.join(lic, 'node.txt'));
}

function archive(outDir, name) {
  const file = path.join(outDir, `${name}.tar.xz`);
  rmSync(file, { force: true });
  execFileSync('tar', ['-C', outDir, '-cf', file, '--use-compress-program=xz -9 -T0', name], { stdio: 'inherit' });
  return file;
}

const opts = parseArgs(process.argv.slice(2));
if (process.platform !== 'linux' || process.arch !== 'x64') {
  fail(
    `builds a Linux x64 bundle only (ONNX Runtime's and better-sqlite3's libraries are this machine's); this is ${process.platform}-${process.arch}`,
  );
}
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const name = `pipedejavu-${version}-linux-x64`;
const dir = path.join(opts.out, name);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const nodeVersion = copyNode(opts.node, dir);
await bundleScripts(dir);
copyPythonSources(root, path.join(dir, 'dist'));
copyNativeModules(dir);
if (opts.vulkan) copyVulkan(dir);
const renderer = path.join(root, 'src-renderer/dist');
if (existsSync(path.join(renderer, 'index.html')))
  cpSync(renderer, path.join(dir, 'src-renderer/dist'), { recursive: true });
writeLauncherAndNotes(dir, nodeVersion, version);
console.log(`bundle: ${dir}`);

if (opts.archive) {
  const file = archive(opts.out, name);
  const size = statSync(file).size;
  console.log(`bundle: ${file} ${mib(size)}`);
  if (size > MAX_ARCHIVE_BYTES)
    fail(`${path.basename(file)} is ${mib(size)}, over the ${mib(MAX_ARCHIVE_BYTES)} limit`);
}
