/**
 * Workloads and paths named over the API. A workload named in a request is a catalog model or a
 * stored workload, looked up in the catalog and the store only; a file on the machine running the
 * core is taken only where the user chose it in this session's open dialog (Electron). Over HTTP
 * never: the refusal is one fixed line given before any file is looked at, the same for a file that
 * exists, a folder, a config.json in the server's working folder and nothing at all, so an answer
 * never tells a web page which files the server has (nor their contents, nor the folder's name).
 */
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { isExplicitPath, isWorkloadName } from '../../services/workload/workload-service.js';
import type { AppDeps } from '../app-deps.js';

export const PATHS_REFUSED_OVER_HTTP =
  'paths on the server are not taken over HTTP: upload the file (workload:add) and use its stored name';

/** The one line for every workload over HTTP that is neither a catalog model nor a stored workload. */
export const WORKLOAD_REFUSED_OVER_HTTP =
  'over HTTP a workload is a catalog model or a workload stored on this server, by name (workload:catalog, workload:list); upload a model file with workload:add';

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

/**
 * A workload named in a request: a catalog model's or a stored workload's name passes (the store
 * is asked, not the filesystem), unless it is written as a path (isExplicitPath: a stored name such
 * as ".x" would be read as a file). Anything else is refused over HTTP with one fixed line,
 * WORKLOAD_REFUSED_OVER_HTTP; in the desktop app it must be a file the open dialog returned.
 */
export function checkWorkloadSpec(spec: string, deps: Pick<AppDeps, 'transport' | 'dialogs' | 'db'>): void {
  // Written as a path, the services read it as a file even where a stored workload has that name.
  const named = !isExplicitPath(spec) && isWorkloadName(deps.db, spec);
  if (named) return;
  if (deps.transport === 'http') throw new UserError(WORKLOAD_REFUSED_OVER_HTTP);
  checkChosenFile(spec, deps);
}
