/** The profile runs a machine has stored, for the views that list them. */
import { ProfileRepo, type StoredRun } from '../../adapters/store/profile-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { machineFor } from '../machine/machine-service.js';
import { closeAbandonedRuns } from './profiler-lock.js';

/**
 * The runs of a machine (id or label; this one when none is named), oldest first, each with
 * the number of measurements it stored. This machine's runs left 'running' by a profiler
 * that is gone are closed first.
 */
export function listProfileRuns(db: Database, machineId?: string): (StoredRun & { measurements: number })[] {
  const machine = machineFor(db, machineId);
  if (machine.source === 'local') closeAbandonedRuns(db, machine.id);
  const repo = new ProfileRepo(db);
  const counts = new Map<string, number>();
  for (const m of repo.listMeasurements({ machineId: machine.id })) counts.set(m.runId, (counts.get(m.runId) ?? 0) + 1);
  return repo
    .listRuns(machine.id)
    .map((run) => ({ ...run, measurements: counts.get(run.id) ?? 0 }))
    .reverse();
}
