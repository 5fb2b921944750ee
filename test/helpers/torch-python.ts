/**
 * Pythons for the PyTorch backend's tests: Debian's /usr/bin/python3 with python3-torch (a
 * CPU-only torch, installed by .ci/run; tests gate on needOracle('torch'), helpers/oracle.ts), and
 * the same Python made to lack torch, and a script run at several ranks as torchrun would start them.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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

/** A TCP port free on 127.0.0.1 now, for one run's rendezvous (MASTER_PORT). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `script` in SYSTEM_PYTHON at `world` ranks, each process given the variables torchrun sets
 * (RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT; one CPU thread each): the exit codes, in
 * rank order, and every rank's output (stdout, then stderr).
 */
export async function runRanks(
  script: string,
  world: number,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ codes: number[]; out: string; stderr: string }> {
  const first = await runRanksOnce(script, world, args, cwd, env);
  // The rendezvous port is free when chosen, not when bound: a collision is retried once on a new port.
  return world > 1 && RENDEZVOUS_FAILED.test(first.stderr) ? runRanksOnce(script, world, args, cwd, env) : first;
}

/** What torch.distributed says when the ranks did not meet (not a failure of the script itself). */
const RENDEZVOUS_FAILED = /address already in use|connection refused|connection reset|timed out|Socket Timeout/i;

async function runRanksOnce(
  script: string,
  world: number,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ codes: number[]; out: string; stderr: string }> {
  const port = String(await freePort());
  const ranks = Array.from(
    { length: world },
    (_, rank) =>
      new Promise<{ code: number; out: string; err: string }>((resolve) => {
        const vars = { MASTER_ADDR: '127.0.0.1', MASTER_PORT: port, WORLD_SIZE: String(world) };
        const rankEnv = { ...env, ...vars, RANK: String(rank), LOCAL_RANK: String(rank), OMP_NUM_THREADS: '1' };
        const child = spawn(SYSTEM_PYTHON, [script, ...args], { cwd, env: rankEnv });
        let out = '';
        let err = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString()));
        child.stderr.on('data', (b: Buffer) => (err += b.toString()));
        child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
      }),
  );
  const done = await Promise.all(ranks);
  return {
    codes: done.map((d) => d.code),
    out: done.map((d) => `${d.out}${d.err}`).join('\n'),
    stderr: done.map((d) => d.err).join(''),
  };
}
