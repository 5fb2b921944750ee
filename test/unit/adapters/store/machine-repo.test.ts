import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import {
  MachineRepo,
  type DeviceInput,
  type ImportedMachineInput,
} from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { StoreError } from '../../../../src-main/adapters/store/errors.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { fakeClock, makeDevices, makeLinks, makeMeasurement } from '../../../helpers/store-fixtures.js';
import { serverProbe } from '../../../helpers/sample-probe.js';

let db: Database;
let machines: MachineRepo;
let profiles: ProfileRepo;

beforeEach(() => {
  db = openDatabase(':memory:');
  const clock = fakeClock();
  machines = new MachineRepo(db, clock);
  profiles = new ProfileRepo(db, clock);
});
afterEach(() => {
  db.close();
});

function count(table: string): number {
  return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
}

function profileSome(machineId: string, n: number): string {
  const run = profiles.createRun({
    machineId,
    deviceKey: 'cuda:0',
    suite: 'quick',
    executionProvider: 'CUDAExecutionProvider',
    threads: null,
    runtimeVersion: '1.20.0',
  });
  profiles.insertMeasurements(
    run.id,
    Array.from({ length: n }, (_, i) => makeMeasurement(run.id, i)),
  );
  return run.id;
}

function imported(id: string, hash: string, label?: string): ImportedMachineInput {
  return {
    id,
    ...(label === undefined ? {} : { label }),
    probe: serverProbe(`remote-${id}`, 2),
    devices: makeDevices(2),
    links: makeLinks(2),
    contentHash: hash,
    provenance: { file: `${id}.pdjv.json`, exporter: 'pipedejavu 0.1.0' },
  };
}

describe('MachineRepo: local machine', () => {
  it('stores a probe and reads it back as domain types', () => {
    const probe = serverProbe('box-1', 1);
    const [cpu, gpu] = makeDevices(1);
    const devices: DeviceInput[] = [cpu!, { ...gpu!, spec: { computeCapability: '9.0' } }];
    const stored = machines.upsertLocalMachine(probe, 'mid-1', devices, makeLinks(1));
    expect(stored).toMatchObject({
      id: 'mid-1',
      hostname: 'box-1',
      label: 'box-1',
      source: 'local',
      contentHash: null,
      provenance: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(stored.probe).toEqual(probe);
    expect(stored.devices).toEqual([
      { ...makeDevices(1)[0], spec: null },
      { ...makeDevices(1)[1], spec: { computeCapability: '9.0' } },
    ]);
    expect(stored.links).toEqual(makeLinks(1));
    expect(machines.getMachine('mid-1')).toEqual(stored);
    expect(machines.getMachine('nope')).toBeNull();
  });

  it('upserting twice refreshes devices and links but keeps label, runs and measurements', () => {
    machines.upsertLocalMachine(serverProbe('box-1', 2), 'mid-1', makeDevices(2), makeLinks(2));
    expect(machines.setLabel('mid-1', 'Lab workstation')).toBe(true);
    const runId = profileSome('mid-1', 5);
    const before = profiles.listMeasurements({ machineId: 'mid-1' });
    expect(before).toHaveLength(5);

    // A GPU was removed and the hostname changed.
    const second = machines.upsertLocalMachine(serverProbe('box-1-renamed', 1), 'mid-1', makeDevices(1), makeLinks(1));
    expect(second.devices.map((d) => d.key)).toEqual(['cpu', 'cuda:0']);
    expect(second.links).toHaveLength(1);
    expect(second.hostname).toBe('box-1-renamed');
    expect(second.label).toBe('Lab workstation');
    expect(second.createdAt < second.updatedAt).toBe(true);
    expect(profiles.listRuns('mid-1').map((r) => r.id)).toEqual([runId]);
    expect(profiles.listMeasurements({ machineId: 'mid-1' })).toEqual(before);
    expect(count('devices')).toBe(2);
    expect(count('machines')).toBe(1);
  });

  it('rejects invalid devices and writes nothing of that upsert', () => {
    machines.upsertLocalMachine(serverProbe(), 'mid-1', makeDevices(1), makeLinks(1));
    const bad = [...makeDevices(1), { key: 'tpu:0', kind: 'gpu' as const, name: 'x', memoryBytes: null }];
    expect(() => machines.upsertLocalMachine(serverProbe('changed'), 'mid-1', bad, [])).toThrow(StoreError);
    const m = machines.getMachine('mid-1');
    expect(m?.hostname).toBe('box-1');
    expect(m?.devices).toHaveLength(2);
    expect(m?.links).toHaveLength(1);
  });

  it('refuses to store a local machine under an imported machine id', () => {
    machines.insertImportedMachine(imported('remote', 'hash-1'));
    expect(() => machines.upsertLocalMachine(serverProbe(), 'remote', makeDevices(), [])).toThrow(/imported machine/);
  });
});

describe('MachineRepo: imported machines', () => {
  it('inserts, finds by content hash, and refuses duplicates', () => {
    const m = machines.insertImportedMachine(imported('r1', 'sha256:aaa', 'Cluster node'));
    expect(m).toMatchObject({
      id: 'r1',
      label: 'Cluster node',
      source: 'imported',
      contentHash: 'sha256:aaa',
      provenance: { file: 'r1.pdjv.json', exporter: 'pipedejavu 0.1.0' },
    });
    expect(m.devices).toHaveLength(3);
    expect(machines.findByContentHash('sha256:aaa')?.id).toBe('r1');
    expect(machines.findByContentHash('sha256:zzz')).toBeNull();
    expect(() => machines.insertImportedMachine(imported('r1', 'sha256:bbb'))).toThrow(/already exists/);
    expect(() => machines.insertImportedMachine(imported('r2', 'sha256:aaa'))).toThrow(/already imported/);
    expect(count('machines')).toBe(1);
  });

  it('replaceImportedMachine swaps everything of the machine and keeps its label', () => {
    machines.insertImportedMachine(imported('r1', 'sha256:v1', 'Named by user'));
    profileSome('r1', 3);
    const replaced = machines.replaceImportedMachine(imported('r1', 'sha256:v2'));
    expect(replaced.contentHash).toBe('sha256:v2');
    expect(replaced.label).toBe('Named by user');
    expect(profiles.listRuns('r1')).toEqual([]);
    expect(count('measurements')).toBe(0);
    expect(machines.findByContentHash('sha256:v1')).toBeNull();
    // Absent: behaves as an insert.
    expect(machines.replaceImportedMachine(imported('r9', 'sha256:new')).id).toBe('r9');
  });

  it('an import plus its runs can be written in one outer transaction', () => {
    const importAll = db.transaction((failAtEnd: boolean) => {
      machines.insertImportedMachine(imported('r1', 'sha256:x'));
      profileSome('r1', 4);
      if (failAtEnd) throw new Error('bad file');
    });
    expect(() => importAll(true)).toThrow('bad file');
    expect(count('machines') + count('profile_runs') + count('measurements') + count('devices')).toBe(0);
    importAll(false);
    expect(count('measurements')).toBe(4);
  });

  it('replace refuses to overwrite the local machine', () => {
    machines.upsertLocalMachine(serverProbe(), 'local-1', makeDevices(), makeLinks());
    expect(() => machines.replaceImportedMachine(imported('local-1', 'h'))).toThrow(/local machine/);
  });
});

describe('MachineRepo: listing and deleting', () => {
  it('lists machines with device, run and measurement counts, local first', () => {
    machines.insertImportedMachine(imported('a-remote', 'h1', 'Alpha remote'));
    machines.upsertLocalMachine(serverProbe('zeta', 1), 'local-1', makeDevices(1), makeLinks(1));
    profileSome('local-1', 7);
    profileSome('a-remote', 2);
    profileSome('a-remote', 0);
    expect(
      machines.listMachines().map(({ id, source, deviceCount, runCount, measurementCount }) => ({
        id,
        source,
        deviceCount,
        runCount,
        measurementCount,
      })),
    ).toEqual([
      { id: 'local-1', source: 'local', deviceCount: 2, runCount: 1, measurementCount: 7 },
      { id: 'a-remote', source: 'imported', deviceCount: 3, runCount: 2, measurementCount: 2 },
    ]);
  });

  it('deleting a machine cascades to devices, links, runs, measurements and predictors', () => {
    machines.upsertLocalMachine(serverProbe(), 'keep', makeDevices(1), makeLinks(1));
    machines.upsertLocalMachine(serverProbe('other'), 'gone', makeDevices(1), makeLinks(1));
    profileSome('keep', 2);
    profileSome('gone', 3);
    db.prepare(
      `INSERT INTO predictors (machine_id, name, version, kind, trained_at, training_set_json, predictor_json)
       VALUES ('gone', 'roofline', '1', 'analytic', 't', '[]', '{}')`,
    ).run();
    expect(machines.deleteMachine('gone')).toBe(true);
    expect(machines.deleteMachine('gone')).toBe(false);
    expect(machines.getMachine('gone')).toBeNull();
    expect(count('machines')).toBe(1);
    expect(count('devices')).toBe(2);
    expect(count('links')).toBe(1);
    expect(count('profile_runs')).toBe(1);
    expect(count('measurements')).toBe(2);
    expect(count('predictors')).toBe(0);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('setLabel reports a missing machine', () => {
    expect(machines.setLabel('nope', 'x')).toBe(false);
  });
});
