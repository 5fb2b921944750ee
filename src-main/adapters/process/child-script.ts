/** Where a bundled child entry (dist/kernel-runner.js, dist/job-runner.js) is found at run time. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * dist/<fileName>: next to the running bundle (dist/cli.js), one level up (dist/electron/main.js,
 * a bundle in .tmp/), or the project's dist/ (sources under test). Inside a packaged app it lives
 * in app.asar.unpacked, where a child process can load it. None there: the first place looked.
 */
export function bundledScriptPath(fileName: string): string {
  const here = path
    .dirname(fileURLToPath(import.meta.url))
    .replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
  const candidates = [
    path.join(here, fileName),
    path.resolve(here, '..', fileName),
    path.resolve(here, '../dist', fileName),
    path.resolve(here, '../../../dist', fileName),
  ];
  return candidates.find((p) => existsSync(p)) ?? (candidates[0] as string);
}
