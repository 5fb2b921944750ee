/**
 * Recording the probed machine in the store, and listing what the store holds.
 */
import { devicesFromProbe, linksFromProbe, type Device, type Link } from '../core/domain/devices.js';
import { MachineRepo, type MachineSummary } from '../adapters/store/machine-repo.js';
import type { Database } from '../adapters/store/types.js';
import { probeMachine, type MachineProbe, type NvidiaProbeOptions, type ProbeDeps } from './probe-service.js';

export interface RecordedProbe extends MachineProbe {
  devices: Device[];
  links: Link[];
}

/** Probes this machine and records it (updating it when probed before). */
export async function probeAndRecord(db: Database, deps: ProbeDeps, opts: NvidiaProbeOptions): Promise<RecordedProbe> {
  const result = await probeMachine(deps, opts);
  const devices = devicesFromProbe(result.probe);
  const links = linksFromProbe(result.probe);
  new MachineRepo(db, deps.now).upsertLocalMachine(result.probe, result.machineId, devices, links);
  return { ...result, devices, links };
}

export function listMachines(db: Database): MachineSummary[] {
  return new MachineRepo(db).listMachines();
}
