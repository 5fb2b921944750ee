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

/**
 * A command line's words, written as one: cli(words`plan --workload ${name} --db ${db}`). The
 * text is split at white space; each `${value}` stays in its word whatever it holds (a path with
 * spaces is one word), joined to the text it touches (`${GPU_BOX},h100-box` is one word).
 */
export function words(text: TemplateStringsArray, ...values: (string | number)[]): string[] {
  const out: string[] = [];
  let word: string | null = null;
  text.forEach((part, i) => {
    part.split(/\s+/).forEach((piece, j) => {
      if (j > 0 && word !== null) {
        out.push(word);
        word = null;
      }
      if (piece !== '') word = (word ?? '') + piece;
    });
    if (i < values.length) word = (word ?? '') + String(values[i]);
  });
  if (word !== null) out.push(word);
  return out;
}
