import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo, type StoredRun } from '../../../../src-main/adapters/store/profile-repo.js';
import { StoreError } from '../../../../src-main/adapters/store/errors.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import type { Measurement } from '../../../../src-main/core/domain/measurement.js';
import { fakeClock, makeDevices, makeLinks, makeMeasurement } from '../../../helpers/store-fixtures.js';
import { serverProbe } from '../../../helpers/sample-probe.js';

let db: Database;
let profiles: ProfileRepo;

beforeEach(() => {
  db = openDatabase(':memory:');
  const clock = fakeClock();
  const machines = new MachineRepo(db, clock);
  machines.upsertLocalMachine(serverProbe(), 'm1', makeDevices(1), makeLinks(1));
  machines.upsertLocalMachine(serverProbe('other'), 'm2', makeDevices(1), makeLinks(1));
  profiles = new ProfileRepo(db, clock);
});
afterEach(() => {
  db.close();
});

function newRun(machineId = 'm1', threads: number | null = null): StoredRun {
  return profiles.createRun({
    machineId,
    deviceKey: 'cuda:0',
    suite: 'quick',
    executionProvider: 'CUDAExecutionProvider',
    threads,
    runtimeVersion: '1.20.0',
  });
}

function measurementCount(): number {
  return db.prepare('SELECT count(*) FROM measurements').pluck().get() as number;
}

function strip(
  m: Measurement & { id?: number; machineId?: string; shapeKey?: string; createdAt?: string },
): Measurement {
  const { id: _id, machineId: _machineId, shapeKey: _shapeKey, createdAt: _createdAt, ...rest } = m;
  return rest;
}

describe('ProfileRepo: runs', () => {
  it('starts a run stored after its work at the time the work began (a measure-model run spans its measuring)', () => {
    const began = new Date('2020-01-01T00:00:00.000Z');
    const r = profiles.createRun({
      machineId: 'm1',
      deviceKey: 'cpu',
      suite: 'model:tiny',
      executionProvider: 'cpu',
      threads: 1,
      runtimeVersion: '1.20.0',
      began,
    });
    expect(r.startedAt).toBe('2020-01-01T00:00:00.000Z');
    expect(Date.parse(profiles.finishRun(r.id, 'complete', null).finishedAt ?? '')).toBeGreaterThan(began.getTime());
  });

  it('creates, finishes and lists runs', () => {
    const a = newRun();
    expect(a).toMatchObject({
      machineId: 'm1',
      status: 'running',
      finishedAt: null,
      summary: null,
      notes: [],
      threads: null,
    });
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.heartbeatAt).toBe(a.startedAt);
    const b = profiles.createRun({
      id: 'fixed-id',
      machineId: 'm1',
      deviceKey: 'cpu',
      suite: 'full',
      executionProvider: 'CPUExecutionProvider',
      threads: 16,
      runtimeVersion: '1.20.0',
      notes: ['governor=performance'],
    });
    const done = profiles.finishRun(b.id, 'complete', { peakGflops: 1234.5, bwGBps: 0.1 + 0.2 });
    expect(done).toMatchObject({
      id: 'fixed-id',
      status: 'complete',
      summary: { peakGflops: 1234.5, bwGBps: 0.1 + 0.2 },
      notes: ['governor=performance'],
      threads: 16,
    });
    expect(done.finishedAt).not.toBeNull();
    expect(profiles.finishRun(a.id, 'failed', null, ['OOM']).notes).toEqual(['OOM']);
    // Newest first.
    expect(profiles.listRuns('m1').map((r) => r.id)).toEqual(['fixed-id', a.id]);
    expect(profiles.listRuns('m2')).toEqual([]);
    expect(profiles.getRun('nope')).toBeNull();
  });

  it('rejects runs of unknown machines, duplicate ids and unknown runs', () => {
    expect(() => newRun('no-such-machine')).toThrow(/machine "no-such-machine" not found/);
    const r = newRun();
    expect(() => profiles.createRun({ ...r, id: r.id, machineId: 'm1' })).toThrow(/already exists/);
    expect(() => profiles.finishRun('nope', 'complete', null)).toThrow(StoreError);
    expect(() => profiles.insertMeasurements('nope', [])).toThrow(/not found/);
  });

  it('imports a run with its id, status and times', () => {
    const run = profiles.importRun('m2', {
      id: 'uuid-from-file',
      deviceKey: 'cpu',
      suite: 'quick',
      executionProvider: 'CPUExecutionProvider',
      threads: 4,
      runtimeVersion: '1.19.0',
      status: 'complete',
      startedAt: '2024-06-01T00:00:00.000Z',
      finishedAt: '2024-06-01T00:10:00.000Z',
      summary: { note: 'x' },
      notes: [],
    });
    expect(run).toMatchObject({ id: 'uuid-from-file', machineId: 'm2', status: 'complete' });
    expect(run.heartbeatAt).toBe('2024-06-01T00:10:00.000Z');
  });

  it('marks runs with a stale heartbeat as interrupted, not live ones', () => {
    const stale = newRun();
    const live = newRun();
    profiles.insertMeasurements(live.id, [makeMeasurement(live.id, 0)]); // touches the heartbeat
    const cutoff = new Date(Date.parse(live.startedAt) + 500);
    expect(profiles.interruptStaleRuns(cutoff)).toBe(1);
    expect(profiles.getRun(stale.id)?.status).toBe('interrupted');
    expect(profiles.getRun(stale.id)?.finishedAt).not.toBeNull();
    expect(profiles.getRun(live.id)?.status).toBe('running');
  });
});

describe('ProfileRepo: measurements', () => {
  it('round-trips measurements as the domain type', () => {
    const run = newRun();
    const ms = [0, 1, 2].map((i) => makeMeasurement(run.id, i));
    expect(profiles.insertMeasurements(run.id, ms)).toEqual({ inserted: 3, skipped: 0, replaced: 0 });
    const back = profiles.listMeasurements({ runId: run.id });
    expect(back.map(strip)).toEqual(ms);
    expect(back[0]).toMatchObject({ machineId: 'm1', shapeKey: 'K=256,M=64,N=512' });
  });

  it('keeps JS doubles exact (REAL round trip)', () => {
    const run = newRun();
    const values = [0.1 + 0.2, 1e-300, 5e-324, 123456789.12345679, Number.MAX_SAFE_INTEGER, 2 ** 60, Math.PI / 7];
    const ms = values.map((v, i) =>
      makeMeasurement(run.id, i, {
        flops: v,
        bytes: v * 3,
        stats: { medianUs: v, p10Us: v, p90Us: v * 1.5, cv: v / 10, repetitions: 3, wallMedianUs: v + 1 },
      }),
    );
    profiles.insertMeasurements(run.id, ms);
    const back = profiles.listMeasurements({ runId: run.id });
    expect(back.map(strip)).toEqual(ms);
    expect(back[0]!.stats.medianUs).toBe(0.30000000000000004);
    for (const [i, m] of back.entries()) {
      expect(Object.is(m.flops, values[i])).toBe(true);
      expect(Object.is(m.stats.cv, values[i]! / 10)).toBe(true);
    }
  });

  it('never stores the same point twice (NULL threads included); default is keep-first', () => {
    const r1 = newRun();
    const first = makeMeasurement(r1.id, 0);
    expect(profiles.insertMeasurements(r1.id, [first, first])).toEqual({ inserted: 1, skipped: 1, replaced: 0 });
    const r2 = newRun();
    // Same shape with keys in another order: same shape key.
    const again = makeMeasurement(r2.id, 0, {
      shape: { N: 512, K: 256, M: 64 },
      stats: { ...first.stats, medianUs: 999 },
    });
    expect(profiles.insertMeasurements(r2.id, [again])).toEqual({ inserted: 0, skipped: 1, replaced: 0 });
    const stored = profiles.listMeasurements({ machineId: 'm1' });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.runId).toBe(r1.id);
    expect(stored[0]!.stats.medianUs).toBe(first.stats.medianUs);

    // Points that differ in one identity field are distinct.
    const variants: Partial<Measurement>[] = [
      { threads: 8 },
      { dtype: 'fp32' },
      { op: 'Gemm' },
      { deviceKey: 'cpu' },
      { executionProvider: 'TensorrtExecutionProvider' },
      { shape: { M: 64, N: 512, K: 257 } },
    ];
    const res = profiles.insertMeasurements(
      r2.id,
      variants.map((v) => makeMeasurement(r2.id, 0, v)),
    );
    expect(res.inserted).toBe(variants.length);
    expect(measurementCount()).toBe(1 + variants.length);
  });

  it('the same point on another machine is a different point', () => {
    const a = newRun('m1');
    const b = newRun('m2');
    profiles.insertMeasurements(a.id, [makeMeasurement(a.id, 0)]);
    expect(profiles.insertMeasurements(b.id, [makeMeasurement(b.id, 0)]).inserted).toBe(1);
  });

  it("onConflict 'replace' overwrites the stored point and moves it to the new run", () => {
    const r1 = newRun();
    profiles.insertMeasurements(r1.id, [makeMeasurement(r1.id, 0), makeMeasurement(r1.id, 1)]);
    const [before] = profiles.listMeasurements({ runId: r1.id });
    const r2 = newRun();
    const remeasured = makeMeasurement(r2.id, 0, { stats: { ...makeMeasurement(r2.id, 0).stats, medianUs: 42.5 } });
    expect(
      profiles.insertMeasurements(r2.id, [remeasured, makeMeasurement(r2.id, 5)], { onConflict: 'replace' }),
    ).toEqual({ inserted: 1, skipped: 0, replaced: 1 });
    const moved = profiles.listMeasurements({ runId: r2.id });
    expect(moved.map((m) => m.stats.medianUs)).toEqual([42.5, 15]);
    expect(moved[0]!.id).toBe(before!.id);
    expect(profiles.listMeasurements({ runId: r1.id })).toHaveLength(1);
    expect(measurementCount()).toBe(3);
  });

  it('hasMeasurement answers for resume, with shape keys in any order and NULL threads', () => {
    const run = newRun();
    profiles.insertMeasurements(run.id, [makeMeasurement(run.id, 0), makeMeasurement(run.id, 1, { threads: 4 })]);
    const key = {
      machineId: 'm1',
      deviceKey: 'cuda:0',
      executionProvider: 'CUDAExecutionProvider',
      threads: null,
      op: 'MatMul',
      shape: { N: 512, M: 64, K: 256 },
      dtype: 'fp16' as const,
    };
    expect(profiles.hasMeasurement(key)).toBe(true);
    expect(profiles.hasMeasurement({ ...key, threads: 4 })).toBe(false);
    expect(profiles.hasMeasurement({ ...key, shape: { M: 128, N: 512, K: 256 }, threads: 4 })).toBe(true);
    expect(profiles.hasMeasurement({ ...key, machineId: 'm2' })).toBe(false);
    expect(profiles.hasMeasurement({ ...key, dtype: 'fp32' })).toBe(false);
  });

  it('filters by machine, device, op, family, dtype and source', () => {
    const run = newRun();
    profiles.insertMeasurements(run.id, [
      makeMeasurement(run.id, 0),
      makeMeasurement(run.id, 1, { op: 'Conv', family: 'conv' }),
      makeMeasurement(run.id, 2, { deviceKey: 'cpu', source: 'model' }),
      makeMeasurement(run.id, 3, { dtype: 'fp32' }),
    ]);
    const other = newRun('m2');
    profiles.insertMeasurements(other.id, [makeMeasurement(other.id, 0)]);
    expect(profiles.listMeasurements()).toHaveLength(5);
    expect(profiles.listMeasurements({ machineId: 'm1' })).toHaveLength(4);
    expect(profiles.listMeasurements({ machineId: 'm1', deviceKey: 'cuda:0' })).toHaveLength(3);
    expect(profiles.listMeasurements({ op: 'Conv' }).map((m) => m.family)).toEqual(['conv']);
    expect(profiles.listMeasurements({ family: 'gemm', dtype: 'fp32' })).toHaveLength(1);
    expect(profiles.listMeasurements({ source: 'model' }).map((m) => m.deviceKey)).toEqual(['cpu']);
    expect(profiles.listMeasurements({ machineId: 'm2', op: 'MatMul' })).toHaveLength(1);
    expect(profiles.listMeasurements({ machineId: 'nope' })).toEqual([]);
  });
});

describe('ProfileRepo: a batch is atomic', () => {
  it('an invalid row in the middle of a batch writes nothing of it', () => {
    const run = newRun();
    profiles.insertMeasurements(run.id, [makeMeasurement(run.id, 100)]);
    const heartbeat = profiles.getRun(run.id)?.heartbeatAt;
    const batch = Array.from({ length: 50 }, (_, i) => makeMeasurement(run.id, i));
    batch[30] = makeMeasurement(run.id, 30, {
      stats: { medianUs: Number.NaN, p10Us: 1, p90Us: 2, cv: 0, repetitions: 1, wallMedianUs: null },
    });
    expect(() => profiles.insertMeasurements(run.id, batch)).toThrow(/measurement #30/);
    expect(measurementCount()).toBe(1);
    expect(profiles.getRun(run.id)?.heartbeatAt).toBe(heartbeat);
  });

  it('a row of another run in the batch writes nothing of it', () => {
    const run = newRun();
    const batch = Array.from({ length: 10 }, (_, i) => makeMeasurement(run.id, i));
    batch.push(makeMeasurement('some-other-run', 99));
    expect(() => profiles.insertMeasurements(run.id, batch)).toThrow(/belongs to run "some-other-run"/);
    expect(measurementCount()).toBe(0);
  });

  it('a constraint failure raised by SQLite rolls the batch back', () => {
    const run = newRun();
    // A trigger stands in for any database-level failure after some rows were written.
    db.exec(`CREATE TEMP TRIGGER fail_on_op BEFORE INSERT ON measurements WHEN NEW.op = 'Boom'
             BEGIN SELECT RAISE(ABORT, 'boom'); END`);
    const batch = Array.from({ length: 20 }, (_, i) => makeMeasurement(run.id, i));
    batch.push(makeMeasurement(run.id, 20, { op: 'Boom' }));
    expect(() => profiles.insertMeasurements(run.id, batch)).toThrow(/boom/);
    expect(measurementCount()).toBe(0);
    expect(profiles.insertMeasurements(run.id, batch.slice(0, 20)).inserted).toBe(20);
  });
});
