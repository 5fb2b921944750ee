/**
 * Where one of the project's Python scripts (adapters/torch/torch_runner.py,
 * adapters/python/sklearn_reference.py) is at run time. They are files of their own, run by path:
 * what the TypeScript side gives them goes in as arguments or JSON on stdin, never into the code.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * fileName as found from the module at moduleUrl (its import.meta.url): in the sources, the
 * script sits next to the TypeScript that runs it; the build copies every script into
 * dist/python/ (scripts/build.mjs), so a bundle finds it in python/ beside it (dist/cli.js,
 * dist/job-runner.js), one level up (dist/electron/main.js), or in the project's dist/ (a bundle
 * in .tmp/). Inside a packaged app, in app.asar.unpacked: a Python child cannot read the asar.
 * None there: the first place looked.
 */
export function pythonScriptPath(fileName: string, moduleUrl: string): string {
  const here = path.dirname(fileURLToPath(moduleUrl)).replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
  const candidates = [
    path.join(here, fileName),
    path.join(here, 'python', fileName),
    path.resolve(here, '../python', fileName),
    path.resolve(here, '../dist/python', fileName),
  ];
  return candidates.find((p) => existsSync(p)) ?? (candidates[0] as string);
}
