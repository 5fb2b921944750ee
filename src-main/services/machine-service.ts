/**
 * Recording the probed machine in the store, and listing what the store holds.
 */
import { devicesFromProbe, linksFromProbe, type Device, type Link } from '../core/domain/devices.js';
import { MachineRepo, type MachineDetail, type MachineSummary } from '../adapters/store/machine-repo.js';
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

/** This machine's id in the store, or null before its first probe. */
export function localMachineId(db: Database): string | null {
  return new MachineRepo(db).listMachines().find((m) => m.source === 'local')?.id ?? null;
}

export function listMachines(db: Database): MachineSummary[] {
  return new MachineRepo(db).listMachines();
}

/** This machine as last probed, probing it first when the store has not seen it yet. */
export async function ensureLocalMachine(
  db: Database,
  deps: ProbeDeps,
  opts: NvidiaProbeOptions = {},
): Promise<MachineDetail> {
  const repo = new MachineRepo(db, deps.now);
  const local = repo.listMachines().find((m) => m.source === 'local');
  const detail = local ? repo.getMachine(local.id) : null;
  if (detail) return detail;
  const recorded = await probeAndRecord(db, deps, opts);
  const fresh = repo.getMachine(recorded.machineId);
  if (!fresh) throw new Error('the probed machine was not stored');
  return fresh;
}
