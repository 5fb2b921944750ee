/**
 * Points tests at test/helpers/fake-nvidia-smi.mjs as if it were an nvidia-smi binary:
 * a tiny /bin/sh launcher named `nvidia-smi` in a temp dir that execs it with this node.
 */
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const FAKE_SMI_SCRIPT = path.join(here, 'fake-nvidia-smi.mjs');
export const SMI_FIXTURES = path.resolve(here, '../fixtures/nvidia-smi');

export const CAPTURES = {
  h100: 'linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01.txt',
  h100Mig: 'linux-x86_64__nvidia-h100-mig__590.48.01.txt',
  rtx4080Super: 'linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05.txt',
  rtx2080Super: 'linux-x86_64__nvidia-geforce-rtx-2080-super__595.71.05.txt',
  windows2080Super: 'windows-x86_64__nvidia-geforce-rtx-2080-super__610.62.txt',
  topo8x4090: 'topo-m__8x-geforce-rtx-4090.txt',
  topoDgxStyle: 'topo-m__handwritten-dgx-h100-style.txt',
  /** The H100 capture with its clock event reasons changed to a power cap and a thermal slowdown (README). */
  h100Throttled: 'derived-throttled__nvidia-h100-80gb-hbm3__590.48.01.txt',
} as const;

export const fixturePath = (name: string): string => path.join(SMI_FIXTURES, name);

const shQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export interface FakeSmi {
  /** The temp dir holding the launcher (usable as PATH). */
  dir: string;
  /** The launcher, to pass as an nvidia-smi path. */
  smiPath: string;
  /** The env that makes the fake replay `capture`, with optional failure modes. */
  env(capture: string, ...modes: string[]): NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

export async function makeFakeSmi(): Promise<FakeSmi> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fake-smi-'));
  const smiPath = path.join(dir, 'nvidia-smi');
  await writeFile(smiPath, `#!/bin/sh\nexec ${shQuote(process.execPath)} ${shQuote(FAKE_SMI_SCRIPT)} "$@"\n`);
  await chmod(smiPath, 0o755);
  return {
    dir,
    smiPath,
    env: (capture, ...modes) => ({
      PATH: dir,
      FAKE_SMI_CAPTURE: fixturePath(capture),
      FAKE_SMI_MODE: modes.join(','),
    }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * The body of the first section of a capture whose banner ends with `# $ <command>`,
 * the command given exactly or as a pattern.
 */
export function captureSection(capture: string, command: string | RegExp): string {
  const matches = (c: string): boolean => (typeof command === 'string' ? c === command : command.test(c));
  const lines = readFileSync(fixturePath(capture), 'utf8').split('\n');
  let inBanner = false;
  let found = false;
  const body: string[] = [];
  for (const line of lines) {
    if (/^#{20,}$/.test(line)) {
      if (found && !inBanner) break;
      inBanner = !inBanner;
    } else if (inBanner) {
      if (line.startsWith('# $ ') && matches(line.slice(4).trim())) found = true;
    } else if (found) body.push(line);
  }
  if (!found) throw new Error(`no section "${String(command)}" in ${capture}`);
  return body.join('\n');
}
