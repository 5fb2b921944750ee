/**
 * Recording the probed machine in the store, and listing what the store holds.
 */
import { quoted } from '../../core/text/shown.js';
import os from 'node:os';
import { devicesFromProbe, linksFromProbe, type Device, type Link } from '../../core/domain/devices.js';
import { UserError } from '../../core/errors.js';
import { MachineRepo, type MachineDetail, type MachineSummary } from '../../adapters/store/machine-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { writeTransaction } from '../../adapters/store/write-transaction.js';
import { probeMachine, type MachineProbe, type NvidiaProbeOptions, type ProbeDeps } from './probe-service.js';

export interface RecordedProbe extends MachineProbe {
  devices: Device[];
  links: Link[];
}

/** Probes this machine and records it (updating it when probed before). */
export async function probeAndRecord(db: Database, deps: ProbeDeps, opts: NvidiaProbeOptions): Promise<RecordedProbe> {
  const probed = await probeMachine(deps, opts);
  const repo = new MachineRepo(db, deps.now);
  // A store made before machine ids held the hostname keeps this machine under its old id.
  const legacy = repo.getMachine(probed.legacyMachineId);
  const keepLegacy =
    legacy !== null &&
    legacy.source === 'local' &&
    legacy.hostname === probed.probe.hostname &&
    !repo.getMachine(probed.machineId);
  const result = { ...probed, machineId: keepLegacy ? probed.legacyMachineId : probed.machineId };
  const devices = devicesFromProbe(result.probe);
  const links = linksFromProbe(result.probe);
  writeTransaction(db, () => {
    // This host's own export imported (a backup restored onto a new store): the id is this
    // host's, so the machine is this one again, its runs and measurements kept.
    repo.adoptAsLocal(result.machineId);
    repo.upsertLocalMachine(result.probe, result.machineId, devices, links);
  });
  return { ...result, devices, links };
}

/** This machine's id in the store, or null before its first probe. */
export function localMachineId(db: Database): string | null {
  return findMachine(db)?.id ?? null;
}

export function listMachines(db: Database): MachineSummary[] {
  return new MachineRepo(db).listMachines();
}

/**
 * A stored machine by id or label (the first listed when several share a label), or this
 * machine when none is named; null when there is no such machine.
 */
export function findMachine(db: Database, idOrLabel?: string): MachineSummary | null {
  const list = listMachines(db);
  if (idOrLabel) return list.find((m) => m.id === idOrLabel || m.label === idOrLabel) ?? null;
  // Several hosts may have recorded themselves in one store: this host's own record first.
  const local = list.filter((m) => m.source === 'local');
  return local.find((m) => m.hostname === os.hostname()) ?? local[0] ?? null;
}

/** A machine's summary and its devices, links and probe (see findMachine); null when there is none. */
export function findMachineDetail(
  db: Database,
  idOrLabel?: string,
): { summary: MachineSummary; detail: MachineDetail } | null {
  const summary = findMachine(db, idOrLabel);
  if (!summary) return null;
  const detail = new MachineRepo(db).getMachine(summary.id);
  if (!detail) throw new UserError(`machine ${summary.id} vanished from the store`);
  return { summary, detail };
}

/** The named machine (id or label), or this one; a user error when the store has none such. */
export function machineFor(db: Database, idOrLabel: string | undefined): MachineDetail {
  const found = findMachineDetail(db, idOrLabel);
  if (!found) {
    throw new UserError(
      idOrLabel
        ? `no machine ${quoted(idOrLabel)} in the store`
        : 'no machine recorded yet: run `pipedejavu profile` first',
    );
  }
  return found.detail;
}

/** This machine as last probed, probing it first when the store has not seen it yet. */
export async function ensureLocalMachine(
  db: Database,
  deps: ProbeDeps,
  opts: NvidiaProbeOptions = {},
): Promise<MachineDetail> {
  const repo = new MachineRepo(db, deps.now);
  const local = findMachine(db);
  const detail = local ? repo.getMachine(local.id) : null;
  // A store another host recorded itself in (a copied database): this host is probed and recorded on its own.
  if (detail && detail.hostname === os.hostname()) return detail;
  const recorded = await probeAndRecord(db, deps, opts);
  const fresh = repo.getMachine(recorded.machineId);
  if (!fresh) throw new Error('the probed machine was not stored');
  return fresh;
}
