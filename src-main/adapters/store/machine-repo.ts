/**
 * Machines with their devices and links. A machine is either 'local' (probed here,
 * refreshed by every probe) or 'imported' (from a profile file, identified by the
 * file's content hash). Every write runs in one transaction; better-sqlite3 nests
 * transactions as savepoints, so an importer may wrap these calls together with
 * ProfileRepo writes in one outer `db.transaction(...)`.
 */
import { z } from 'zod';
import { ProbeResultSchema, type ProbeResult } from '../../core/domain/hardware.js';
import {
  DeviceKindSchema,
  DeviceSchema,
  LinkKindSchema,
  LinkSchema,
  type Device,
  type Link,
} from '../../core/domain/devices.js';
import { StoreError } from './errors.js';
import { parseJsonColumn, parseJsonColumnOrNull, toJson, toJsonOrNull, validate } from './json.js';
import type { Database } from './types.js';
import { writeTransaction } from './write-transaction.js';

export type MachineSource = 'local' | 'imported';

/** Free-form JSON object (device spec, import provenance). */
export type JsonObject = Record<string, unknown>;
const JsonObjectSchema = z.record(z.string(), z.unknown());

/** A device as given to the store; `spec` holds device-specific detail for later features. */
export type DeviceInput = Device & { spec?: JsonObject | null };
export type StoredDevice = Device & { spec: JsonObject | null };

export interface MachineRecord {
  id: string;
  hostname: string;
  label: string;
  source: MachineSource;
  probe: ProbeResult;
  /** Content hash of the imported file; null for local machines. */
  contentHash: string | null;
  /** Where an import came from (file name, exporter version, ...); null for local machines. */
  provenance: JsonObject | null;
  createdAt: string;
  updatedAt: string;
}

export interface MachineDetail extends MachineRecord {
  devices: StoredDevice[];
  links: Link[];
}

export interface MachineSummary {
  id: string;
  hostname: string;
  label: string;
  source: MachineSource;
  contentHash: string | null;
  createdAt: string;
  updatedAt: string;
  deviceCount: number;
  runCount: number;
  measurementCount: number;
}

export interface ImportedMachineInput {
  id: string;
  /** Defaults to the probe's hostname (or, on replace, the label already stored). */
  label?: string;
  probe: ProbeResult;
  devices: DeviceInput[];
  links: Link[];
  contentHash: string;
  provenance: JsonObject;
}

interface MachineRow {
  id: string;
  hostname: string;
  label: string;
  source: string;
  probe_json: string;
  content_hash: string | null;
  provenance_json: string | null;
  created_at: string;
  updated_at: string;
}

interface SummaryRow {
  id: string;
  hostname: string;
  label: string;
  source: string;
  content_hash: string | null;
  created_at: string;
  updated_at: string;
  device_count: number;
  run_count: number;
  measurement_count: number;
}

interface DeviceRow {
  key: string;
  kind: string;
  name: string;
  memory_bytes: number | null;
  spec_json: string | null;
}

interface LinkRow {
  a: string;
  b: string;
  kind: string;
  nvlink_count: number | null;
  bandwidth_gbps: number | null;
  source: string;
}

function machineSource(value: string, id: string): MachineSource {
  if (value === 'local' || value === 'imported') return value;
  throw new StoreError('corrupt-row', `machines.source of ${id} is "${value}"`);
}

const MACHINE_COLUMNS =
  'id, hostname, label, source, probe_json, content_hash, provenance_json, created_at, updated_at';

function prepareStatements(db: Database) {
  return {
    get: db.prepare<[string], MachineRow>(`SELECT ${MACHINE_COLUMNS} FROM machines WHERE id = ?`),
    byHash: db.prepare<[string], MachineRow>(`SELECT ${MACHINE_COLUMNS} FROM machines WHERE content_hash = ?`),
    list: db.prepare<[], SummaryRow>(
      `SELECT m.id, m.hostname, m.label, m.source, m.content_hash, m.created_at, m.updated_at,
              (SELECT count(*) FROM devices d WHERE d.machine_id = m.id) AS device_count,
              (SELECT count(*) FROM profile_runs r WHERE r.machine_id = m.id) AS run_count,
              (SELECT count(*) FROM measurements x WHERE x.machine_id = m.id) AS measurement_count
         FROM machines m
        ORDER BY m.source = 'imported', m.label COLLATE NOCASE, m.id`,
    ),
    upsertLocal: db.prepare<[Record<string, string>]>(
      `INSERT INTO machines (id, hostname, label, source, probe_json, content_hash, provenance_json, created_at, updated_at)
       VALUES (@id, @hostname, @label, 'local', @probe_json, NULL, NULL, @now, @now)
       ON CONFLICT (id) DO UPDATE SET hostname = excluded.hostname, probe_json = excluded.probe_json,
                                      updated_at = excluded.updated_at`,
    ),
    insertImported: db.prepare<[Record<string, string>]>(
      `INSERT INTO machines (id, hostname, label, source, probe_json, content_hash, provenance_json, created_at, updated_at)
       VALUES (@id, @hostname, @label, 'imported', @probe_json, @content_hash, @provenance_json, @now, @now)`,
    ),
    setLabel: db.prepare<[string, string, string]>('UPDATE machines SET label = ?, updated_at = ? WHERE id = ?'),
    adopt: db.prepare<[string, string]>(
      `UPDATE machines SET source = 'local', content_hash = NULL, provenance_json = NULL, updated_at = ?
        WHERE id = ? AND source = 'imported'`,
    ),
    delete: db.prepare<[string]>('DELETE FROM machines WHERE id = ?'),
    devices: db.prepare<[string], DeviceRow>(
      'SELECT key, kind, name, memory_bytes, spec_json FROM devices WHERE machine_id = ? ORDER BY rowid',
    ),
    links: db.prepare<[string], LinkRow>(
      'SELECT a, b, kind, nvlink_count, bandwidth_gbps, source FROM links WHERE machine_id = ? ORDER BY rowid',
    ),
    deleteDevices: db.prepare<[string]>('DELETE FROM devices WHERE machine_id = ?'),
    deleteLinks: db.prepare<[string]>('DELETE FROM links WHERE machine_id = ?'),
    insertDevice: db.prepare<[string, string, string, string, number | null, string | null]>(
      'INSERT INTO devices (machine_id, key, kind, name, memory_bytes, spec_json) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    insertLink: db.prepare<[string, string, string, string, number | null, number | null, string]>(
      'INSERT INTO links (machine_id, a, b, kind, nvlink_count, bandwidth_gbps, source) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
  };
}

export class MachineRepo {
  private readonly stmts: ReturnType<typeof prepareStatements>;

  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.stmts = prepareStatements(db);
  }

  /**
   * Creates or refreshes the local machine `machineId` from a probe. Its devices and
   * links are replaced (one transaction); its label, runs and measurements are kept.
   * Refuses an id held by an imported machine.
   */
  upsertLocalMachine(probe: ProbeResult, machineId: string, devices: DeviceInput[], links: Link[]): MachineDetail {
    const p = validate(ProbeResultSchema, probe, 'probe');
    writeTransaction(this.db, () => {
      const existing = this.stmts.get.get(machineId);
      if (existing && existing.source !== 'local') {
        throw new StoreError(
          'conflict',
          `machine id "${machineId}" belongs to an imported machine; delete it before storing it as local`,
        );
      }
      this.stmts.upsertLocal.run({
        id: machineId,
        hostname: p.hostname,
        label: p.hostname,
        probe_json: toJson(p),
        now: this.now().toISOString(),
      });
      this.replaceDevicesAndLinks(machineId, devices, links);
    });
    return this.mustGet(machineId);
  }

  /** Stores a machine read from a profile file. Fails with 'conflict' if the id or the content hash is taken. */
  insertImportedMachine(input: ImportedMachineInput): MachineDetail {
    writeTransaction(this.db, () => {
      if (this.stmts.get.get(input.id)) {
        throw new StoreError('conflict', `machine "${input.id}" already exists`);
      }
      this.insertImported(input, input.label ?? input.probe.hostname);
    });
    return this.mustGet(input.id);
  }

  /**
   * Replaces an imported machine (or inserts it when absent): the old row and, through
   * ON DELETE CASCADE, its devices, links, runs and measurements go; the caller stores
   * the file's runs again. Keeps the stored label unless `input.label` is given.
   */
  replaceImportedMachine(input: ImportedMachineInput): MachineDetail {
    writeTransaction(this.db, () => {
      const existing = this.stmts.get.get(input.id);
      if (existing && existing.source !== 'imported') {
        throw new StoreError('conflict', `machine "${input.id}" is the local machine; an import cannot replace it`);
      }
      if (existing) this.stmts.delete.run(input.id);
      this.insertImported(input, input.label ?? existing?.label ?? input.probe.hostname);
    });
    return this.mustGet(input.id);
  }

  getMachine(id: string): MachineDetail | null {
    const row = this.stmts.get.get(id);
    if (!row) return null;
    return {
      ...this.toRecord(row),
      devices: this.stmts.devices.all(id).map((d) => this.toDevice(d, id)),
      links: this.stmts.links.all(id).map((l) => this.toLink(l, id)),
    };
  }

  /** Local machines first, then imported ones, each by label. */
  listMachines(): MachineSummary[] {
    return this.stmts.list.all().map((r) => ({
      id: r.id,
      hostname: r.hostname,
      label: r.label,
      source: machineSource(r.source, r.id),
      contentHash: r.content_hash,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      deviceCount: r.device_count,
      runCount: r.run_count,
      measurementCount: r.measurement_count,
    }));
  }

  findByContentHash(contentHash: string): MachineRecord | null {
    const row = this.stmts.byHash.get(contentHash);
    return row ? this.toRecord(row) : null;
  }

  /** Renames a machine for display. Returns false when it does not exist. */
  setLabel(id: string, label: string): boolean {
    return this.stmts.setLabel.run(label, this.now().toISOString(), id).changes > 0;
  }

  /**
   * Makes an imported machine local, everything of it kept (this host's own profile restored:
   * the probe found its id). Returns false when there is no imported machine of this id.
   */
  adoptAsLocal(id: string): boolean {
    return this.stmts.adopt.run(this.now().toISOString(), id).changes > 0;
  }

  /** Deletes a machine with its devices, links, runs, measurements and predictors. Returns false when absent. */
  deleteMachine(id: string): boolean {
    return this.stmts.delete.run(id).changes > 0;
  }

  private insertImported(input: ImportedMachineInput, label: string): void {
    const probe = validate(ProbeResultSchema, input.probe, 'probe');
    const provenance = validate(JsonObjectSchema, input.provenance, 'provenance');
    if (input.contentHash.length === 0) throw new StoreError('invalid-input', 'content hash is empty');
    const taken = this.stmts.byHash.get(input.contentHash);
    if (taken) {
      throw new StoreError('conflict', `this file is already imported as machine "${taken.id}" (${taken.label})`);
    }
    this.stmts.insertImported.run({
      id: input.id,
      hostname: probe.hostname,
      label,
      probe_json: toJson(probe),
      content_hash: input.contentHash,
      provenance_json: toJson(provenance),
      now: this.now().toISOString(),
    });
    this.replaceDevicesAndLinks(input.id, input.devices, input.links);
  }

  /** Must run inside a transaction. */
  private replaceDevicesAndLinks(machineId: string, devices: DeviceInput[], links: Link[]): void {
    this.stmts.deleteDevices.run(machineId);
    this.stmts.deleteLinks.run(machineId);
    for (const input of devices) {
      const d = validate(DeviceSchema, input, `device ${input.key}`);
      const spec =
        input.spec === undefined || input.spec === null ? null : validate(JsonObjectSchema, input.spec, 'spec');
      this.stmts.insertDevice.run(machineId, d.key, d.kind, d.name, d.memoryBytes, toJsonOrNull(spec));
    }
    for (const input of links) {
      const l = validate(LinkSchema, input, `link ${input.a}-${input.b}`);
      this.stmts.insertLink.run(machineId, l.a, l.b, l.kind, l.nvlinkCount, l.bandwidthGBps, l.source);
    }
  }

  private mustGet(id: string): MachineDetail {
    const m = this.getMachine(id);
    if (!m) throw new StoreError('not-found', `machine "${id}" not found`);
    return m;
  }

  private toRecord(row: MachineRow): MachineRecord {
    return {
      id: row.id,
      hostname: row.hostname,
      label: row.label,
      source: machineSource(row.source, row.id),
      probe: parseJsonColumn(ProbeResultSchema, row.probe_json, `machines.probe_json of ${row.id}`),
      contentHash: row.content_hash,
      provenance: parseJsonColumnOrNull(JsonObjectSchema, row.provenance_json, `machines.provenance_json of ${row.id}`),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  private toDevice(row: DeviceRow, machineId: string): StoredDevice {
    const kind = DeviceKindSchema.safeParse(row.kind);
    if (!kind.success) throw new StoreError('corrupt-row', `devices.kind of ${machineId}/${row.key} is "${row.kind}"`);
    return {
      key: row.key,
      kind: kind.data,
      name: row.name,
      memoryBytes: row.memory_bytes,
      spec: parseJsonColumnOrNull(JsonObjectSchema, row.spec_json, `devices.spec_json of ${machineId}/${row.key}`),
    };
  }

  private toLink(row: LinkRow, machineId: string): Link {
    const kind = LinkKindSchema.safeParse(row.kind);
    if (!kind.success) throw new StoreError('corrupt-row', `links.kind of ${machineId} is "${row.kind}"`);
    if (row.source !== 'spec' && row.source !== 'measured') {
      throw new StoreError('corrupt-row', `links.source of ${machineId} is "${row.source}"`);
    }
    return {
      a: row.a,
      b: row.b,
      kind: kind.data,
      nvlinkCount: row.nvlink_count,
      bandwidthGBps: row.bandwidth_gbps,
      source: row.source,
    };
  }
}
