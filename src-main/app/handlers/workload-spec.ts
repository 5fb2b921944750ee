/**
 * Paths named over the API. A workload named in a request is a catalog model or a stored
 * workload; a file on the machine running the core is taken only where the user chose it in
 * this session's open dialog (Electron). Over HTTP never: the refusal is one fixed line given
 * before any file is looked at, the same for a file that exists and one that does not, so an
 * answer never tells a web page which files the server has.
 */
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import type { AppDeps } from '../app-deps.js';

export const PATHS_REFUSED_OVER_HTTP =
  'paths on the server are not taken over HTTP: upload the file (workload:add) and use its stored name';

/** Whether the workload services would read `spec` as a file: a path, or a name ending in .onnx or .gguf. */
function namesAFile(spec: string): boolean {
  return /[\\/]/.test(spec) || /\.(onnx|gguf)$/i.test(spec);
}

/**
 * Throws the one-line refusal unless `file` may be read: never over HTTP, else only a dialog's
 * pick (`shownAs`, the file's name in the desktop app's message).
 */
export function checkChosenFile(
  file: string,
  deps: Pick<AppDeps, 'transport' | 'dialogs'>,
  shownAs = path.basename(file),
): void {
  if (deps.transport === 'http') throw new UserError(PATHS_REFUSED_OVER_HTTP);
  if (!deps.dialogs?.opened(file)) throw new UserError(`${shownAs} was not chosen in the open dialog; choose it there`);
}

/** A workload named in a request: names pass; a file passes only as checkChosenFile says. */
export function checkWorkloadSpec(spec: string, deps: Pick<AppDeps, 'transport' | 'dialogs'>): void {
  if (namesAFile(spec)) checkChosenFile(spec, deps);
}
