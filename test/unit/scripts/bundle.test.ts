/**
 * The portable CLI bundle (scripts/bundle.mjs) runs where there is no Node: its folder is run
 * with a PATH that has every tool of this machine except node, npm and npx, from a working
 * directory outside the project (so nothing can be found in the project's node_modules).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { CAPTURES, fixturePath, makeFakeSmi } from '../../helpers/fake-nvidia-smi.js';

/** gcc builds the stand-in CUDA provider; machines without it skip that test (and say so). */
const HAS_GCC = spawnSync('gcc', ['--version'], { stdio: 'ignore' }).status === 0;

const NODE_TOOLS = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack']);

/** A bin folder linking every program on this PATH but Node's. */
function pathWithoutNode(dir: string): string {
  const bin = path.join(dir, 'bin-without-node');
  mkdirSync(bin);
  for (const d of (process.env.PATH ?? '').split(':').filter((p) => existsSync(p) && statSync(p).isDirectory())) {
    for (const name of readdirSync(d)) {
      if (NODE_TOOLS.has(name) || existsSync(path.join(bin, name))) continue;
      symlinkSync(path.join(d, name), path.join(bin, name));
    }
  }
  return bin;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('the portable bundle', () => {
  let launcher = '';
  let env: NodeJS.ProcessEnv = {};
  let work = '';

  beforeAll(() => {
    work = tempDir('pdjv-bundle-');
    execFileSync(process.execPath, ['scripts/bundle.mjs', '--out', path.join(work, 'out'), '--no-archive']);
    const [name] = readdirSync(path.join(work, 'out'));
    launcher = path.join(work, 'out', name ?? '', 'bin', 'pipedejavu');
    env = { HOME: work, PATH: pathWithoutNode(work), PIPEDEJAVU_DB: path.join(work, 'store.db') };
  }, 120_000);

  /** The launcher as a user runs it, one SIGINT (Ctrl-C) once `interruptWhen` matches stderr. */
  const run = (args: string[], interruptWhen?: RegExp): Promise<Run> =>
    new Promise((resolve) => {
      const child = spawn(launcher, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let sent = false;
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (!sent && interruptWhen?.test(stderr)) sent = child.kill('SIGINT');
      });
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('carries the Python scripts the CLI runs (PyTorch backend, scikit-learn reference)', () => {
    const python = path.join(path.dirname(path.dirname(launcher)), 'dist/python');
    expect(readdirSync(python)).toEqual(expect.arrayContaining(['sklearn_reference.py', 'torch_runner.py']));
  });

  it('has no node to lean on', () => {
    expect(() => execFileSync('sh', ['-c', 'command -v node'], { env })).toThrow();
  });

  it('probes, profiles the CPU (stopped early, keeping what finished) and exports without Node installed', async () => {
    const probe = await run(['probe', '--json', '--nvidia-smi', '/nonexistent']);
    expect(probe.stderr).toBe('');
    expect(probe.code).toBe(0);
    const probed = JSON.parse(probe.stdout) as { devices: { key: string }[] };
    expect(probed.devices.map((d) => d.key)).toEqual(['cpu']);

    const profile = await run(['profile', '--device', 'cpu', '--threads', '1'], /step \d{2,}\/\d+/);
    expect(profile.stderr).toMatch(/profile interrupted; finished measurements are stored/);
    expect(profile.code).toBe(130);

    const exported = await run(['export', '--out', '-']);
    expect(exported.code).toBe(0);
    const file = JSON.parse(exported.stdout) as { measurements: { ep: string }[]; runtime?: unknown };
    expect(file.measurements.length).toBeGreaterThan(0);
  }, 120_000);

  it.skipIf(!HAS_GCC)(
    'a CUDA provider whose CUDA libraries are missing: one line naming them, nothing stored',
    async () => {
      // A stand-in libonnxruntime_providers_cuda.so that links a libcublasLt.so.12 the loader cannot find.
      const build = path.join(work, 'fake-cuda');
      mkdirSync(build);
      writeFileSync(path.join(build, 'lt.c'), 'int cublasLtCreate(void) { return 0; }\n');
      writeFileSync(
        path.join(build, 'p.c'),
        'extern int cublasLtCreate(void);\nint GetProvider(void) { return cublasLtCreate(); }\n',
      );
      const gcc = (args: string[]): void => void execFileSync('gcc', args, { cwd: build });
      gcc(['-shared', '-fPIC', '-o', 'libcublasLt.so.12', 'lt.c', '-Wl,-soname,libcublasLt.so.12']);
      const ortBin = path.join(
        path.dirname(path.dirname(launcher)),
        'node_modules/onnxruntime-node/bin/napi-v6/linux/x64',
      );
      gcc([
        '-shared',
        '-fPIC',
        '-o',
        path.join(ortBin, 'libonnxruntime_providers_cuda.so'),
        'p.c',
        '-L.',
        '-l:libcublasLt.so.12',
      ]);
      const smi = await makeFakeSmi();
      const saved = env;
      env = { ...env, PIPEDEJAVU_NVIDIA_SMI: smi.smiPath, FAKE_SMI_CAPTURE: fixturePath(CAPTURES.h100) };
      try {
        expect((await run(['probe'])).code).toBe(0);
        const r = await run(['profile', '--device', 'cuda:0']);
        expect(r.code).toBe(1);
        expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
          "pipedejavu: error: nothing profiled on cuda:0: cuda:0: ONNX Runtime's CUDA provider is installed but cannot load: libcublasLt.so.12 not found (it needs CUDA 12 and cuDNN 9 where the loader finds them, e.g. on LD_LIBRARY_PATH)",
        );
        const exported = JSON.parse((await run(['export', '--out', '-'])).stdout) as {
          measurements: { deviceKey: string }[];
        };
        expect(exported.measurements.filter((m) => m.deviceKey === 'cuda:0')).toEqual([]);
      } finally {
        env = saved;
        await smi.cleanup();
      }
    },
    120_000,
  );
});
