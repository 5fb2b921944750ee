/** Runs the CLI in-process with captured output and an isolated database. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../src-main/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function tempDir(prefix = 'pdjv-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** `stdin`: what the command reads from standard input (`import -`); none by default, as from a terminal. */
export async function cli(args: string[], env: NodeJS.ProcessEnv = {}, stdin?: string | Uint8Array): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    // No waiting for a quiet moment around profiles and measure-model (a test passes its own to read them).
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PIPEDEJAVU_RUN_CONDITIONS: 'off', ...env },
    isTty: false,
    ...(stdin === undefined ? {} : { stdin: () => Readable.from([Buffer.from(stdin)]) }),
  });
  return { code, stdout, stderr };
}
