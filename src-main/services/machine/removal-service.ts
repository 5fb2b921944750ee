/**
 * Removing what the user no longer wants: an imported machine (with its runs, measurements
 * and predictors) or a stored workload (with the copy of an uploaded model file).
 */
import { quoted } from '../../core/text/shown.js';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { MachineRepo } from '../../adapters/store/machine-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { WorkloadRepo } from '../../adapters/store/workload-repo.js';
import { findMachine } from './machine-service.js';

export function removeImportedMachine(db: Database, idOrLabel: string): { id: string; label: string } {
  const m = findMachine(db, idOrLabel);
  if (!m) throw new UserError(`no machine ${quoted(idOrLabel)} in the store (see pipedejavu machines)`);
  if (m.source === 'local')
    throw new UserError(`${m.label} is this machine; it is not removed (probing records it again)`);
  new MachineRepo(db).deleteMachine(m.id);
  return { id: m.id, label: m.label };
}

/** Removes a workload; a model file kept under `uploadsDir` (web-mode uploads) goes with it. */
export function removeWorkload(db: Database, name: string, uploadsDir?: string): { name: string } {
  const repo = new WorkloadRepo(db);
  const w = repo.get(name);
  if (!w) throw new UserError(`no workload ${quoted(name)} (see pipedejavu workload list)`);
  repo.remove(name);
  if (uploadsDir && w.filePath && path.dirname(path.resolve(w.filePath)) === path.resolve(uploadsDir)) {
    rmSync(w.filePath, { force: true });
  }
  return { name };
}
