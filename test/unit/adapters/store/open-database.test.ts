import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import {
  APPLICATION_ID,
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  migrate,
  type Migration,
} from '../../../../src-main/adapters/store/migrations.js';
import { StoreError, environmentFailure } from '../../../../src-main/adapters/store/errors.js';
import { PredictorRepo } from '../../../../src-main/adapters/store/predictor-repo.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { tempDir } from '../../../helpers/store-fixtures.js';
import { serverProbe } from '../../../helpers/sample-probe.js';
import { makeReadOnly } from '../../../helpers/read-only.js';

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function tableNames(db: Database): string[] {
  return db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((r) => r.name);
}

function migrationRows(db: Database): { version: number; name: string }[] {
  return db
    .prepare<[], { version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version')
    .all();
}

function expectStoreError(fn: () => unknown, code: StoreError['code'], message: RegExp): StoreError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(StoreError);
  const e = caught as StoreError;
  expect(e.code).toBe(code);
  expect(e.message).toMatch(message);
  return e;
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => {
  tmp.cleanup();
});

describe('openDatabase: migrations from empty', () => {
  it('creates the whole schema in memory', () => {
    const db = openDatabase(':memory:');
    expect(tableNames(db)).toEqual([
      'devices',
      'links',
      'machines',
      'measurements',
      'model_checks',
      'plans',
      'predictors',
      'profile_runs',
      'profiler_locks',
      'schema_migrations',
      'workloads',
    ]);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(migrationRows(db)).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('creates a file database (and its parent directories) with the pragmas set', () => {
    const path = join(tmp.dir, 'nested', 'deeper', 'pipedejavu.db');
    const db = openDatabase(path);
    expect(existsSync(path)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(60_000);
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    db.close();
  });

  it('records applied_at from the injected clock', () => {
    const db = openDatabase(':memory:', { now: () => new Date('2030-05-06T07:08:09.000Z') });
    const rows = db.prepare<[], { applied_at: string }>('SELECT applied_at FROM schema_migrations').all();
    expect(rows.every((r) => r.applied_at === '2030-05-06T07:08:09.000Z')).toBe(true);
    db.close();
  });
});

describe('openDatabase: re-open', () => {
  it('is idempotent: a second open applies nothing and keeps the data', () => {
    const path = join(tmp.dir, 'p.db');
    const db1 = openDatabase(path);
    db1
      .prepare(
        "INSERT INTO workloads (name, source, graph_json, created_at) VALUES ('resnet', 'onnx', '{}', '2025-01-01')",
      )
      .run();
    const before = migrationRows(db1);
    db1.close();

    const db2 = openDatabase(path);
    expect(migrationRows(db2)).toEqual(before);
    expect(migrate(db2)).toEqual([]);
    expect(db2.prepare('SELECT name FROM workloads').pluck().all()).toEqual(['resnet']);
    db2.close();
    const db3 = openDatabase(path);
    expect(migrationRows(db3)).toEqual(before);
    db3.close();
  });

  it('two handles on one file can both open it', () => {
    const path = join(tmp.dir, 'p.db');
    const a = openDatabase(path);
    const b = openDatabase(path);
    expect(b.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    a.close();
    b.close();
  });
});

describe('migrations carry old data forward', () => {
  it('a v1 database with rows migrates to the latest version and keeps every row', () => {
    const path = join(tmp.dir, 'old.db');
    const v1 = openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) });
    expect(v1.pragma('user_version', { simple: true })).toBe(1);
    const cols = v1.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('profile_runs')").all();
    expect(cols.map((c) => c.name)).not.toContain('heartbeat_at');

    // Rows written with the v1 schema only (as an old pipeDejavu would have).
    v1.prepare(
      `INSERT INTO machines (id, hostname, label, source, probe_json, created_at, updated_at)
       VALUES ('m1', 'box-1', 'My box', 'local', ?, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')`,
    ).run(JSON.stringify(serverProbe('box-1')));
    v1.prepare(
      "INSERT INTO devices (machine_id, key, kind, name, memory_bytes) VALUES ('m1', 'cpu', 'cpu', 'EPYC', 1024)",
    ).run();
    v1.prepare(
      `INSERT INTO profile_runs (id, machine_id, device_key, suite, execution_provider, threads, runtime_version, status,
                                 started_at, finished_at)
       VALUES ('r-done', 'm1', 'cpu', 'quick', 'CPUExecutionProvider', 8, '1.19.2', 'complete',
               '2024-01-01T00:00:00.000Z', '2024-01-01T00:05:00.000Z'),
              ('r-open', 'm1', 'cpu', 'quick', 'CPUExecutionProvider', 8, '1.19.2', 'running',
               '2024-01-02T00:00:00.000Z', NULL)`,
    ).run();
    v1.prepare(
      `INSERT INTO measurements (run_id, machine_id, device_key, op, family, shape_json, shape_key, dtype, flops, bytes,
                                 execution_provider, threads, runtime_version, median_us, p10_us, p90_us, cv, repetitions,
                                 wall_median_us, source, created_at)
       VALUES ('r-done', 'm1', 'cpu', 'MatMul', 'gemm', '{"K":8,"M":8,"N":8}', 'K=8,M=8,N=8', 'fp32', 1024, 768,
               'CPUExecutionProvider', 8, '1.19.2', ?, 1, 2, 0.1, 10, NULL, 'profile', '2024-01-01T00:01:00.000Z')`,
    ).run(0.1 + 0.2);
    v1.close();

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(migrationRows(db).map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(db.prepare('SELECT label FROM machines WHERE id = ?').pluck().get('m1')).toBe('My box');
    expect(db.prepare('SELECT count(*) FROM devices').pluck().get()).toBe(1);
    // v2 backfilled the heartbeat of the old runs.
    expect(db.prepare('SELECT id, heartbeat_at FROM profile_runs ORDER BY id').all()).toEqual([
      { id: 'r-done', heartbeat_at: '2024-01-01T00:05:00.000Z' },
      { id: 'r-open', heartbeat_at: '2024-01-02T00:00:00.000Z' },
    ]);
    expect(db.prepare('SELECT median_us FROM measurements').pluck().get()).toBe(0.1 + 0.2);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it("a predictor stored under the old column name (model_json, before v7) is read as the predictor's JSON", () => {
    const path = join(tmp.dir, 'v6.db');
    const v6 = openDatabase(path, { migrations: MIGRATIONS.slice(0, 6) });
    const state = { name: 'roofline', version: 1 };
    v6.prepare(
      `INSERT INTO predictors (machine_id, name, version, kind, trained_at, training_set_json, model_json)
       VALUES (NULL, 'roofline', '1', 'roofline', '2024-01-01T00:00:00.000Z', '{}', ?)`,
    ).run(JSON.stringify(state));
    v6.close();

    const db = openDatabase(path);
    const cols = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('predictors')").all();
    expect(cols.map((c) => c.name)).toContain('predictor_json');
    expect(cols.map((c) => c.name)).not.toContain('model_json');
    const [stored] = new PredictorRepo(db).inUse(null);
    expect(stored?.model).toEqual(state);
    // The JSON check moved with the column.
    expect(() => db.prepare("UPDATE predictors SET predictor_json = 'not json'").run()).toThrow(/CHECK/);
    db.close();
  });

  it('a failing migration rolls back completely and leaves the previous version', () => {
    const path = join(tmp.dir, 'p.db');
    openDatabase(path).close();
    const broken: Migration = {
      version: LATEST_SCHEMA_VERSION + 1,
      name: 'broken',
      up(db) {
        db.exec('CREATE TABLE half_done (x INTEGER)');
        db.exec('INSERT INTO no_such_table VALUES (1)');
      },
    };
    expectStoreError(() => openDatabase(path, { migrations: [...MIGRATIONS, broken] }), 'migration-failed', /broken/);
    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(tableNames(db)).not.toContain('half_done');
    expect(migrationRows(db).map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    db.close();
  });

  it('rejects a migration list with gaps', () => {
    const db = new BetterSqlite3(':memory:');
    const gap: Migration = { version: LATEST_SCHEMA_VERSION + 2, name: 'gap', up() {} };
    expect(() => migrate(db, [...MIGRATIONS, gap])).toThrow(/numbered 1, 2, 3/);
    db.close();
  });
});

describe('openDatabase refuses files it must not touch', () => {
  it('refuses a database written by a newer version, without modifying it', () => {
    const path = join(tmp.dir, 'future.db');
    const db = openDatabase(path);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const hash = sha256(path);

    const e = expectStoreError(() => openDatabase(path), 'newer-version', /newer version of pipeDejavu/);
    expect(e.message).toContain(`schema version ${LATEST_SCHEMA_VERSION + 1}`);
    expect(e.message).toContain(path);
    expect(sha256(path)).toBe(hash);
    // Still refused the second time (nothing was half-migrated).
    expectStoreError(() => openDatabase(path), 'newer-version', /newer version/);
    expect(sha256(path)).toBe(hash);
  });

  it('refuses a text file with one clear error and leaves it alone', () => {
    const path = join(tmp.dir, 'notes.txt');
    const text = 'these are my notes, not a database\n'.repeat(50);
    writeFileSync(path, text);
    const e = expectStoreError(() => openDatabase(path), 'not-a-database', /is not a pipeDejavu database/);
    expect(e.message).toBe(`"${path}" is not a pipeDejavu database (file is not a database)`);
    expect(e).toBeInstanceOf(Error);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(readdirSync(tmp.dir)).toEqual(['notes.txt']);
  });

  it('refuses a short text file too', () => {
    const path = join(tmp.dir, 'tiny.db');
    writeFileSync(path, 'hi');
    expectStoreError(() => openDatabase(path), 'not-a-database', /file is not a database/);
    expect(readFileSync(path, 'utf8')).toBe('hi');
  });

  it("refuses another application's SQLite database", () => {
    const path = join(tmp.dir, 'other.db');
    const other = new BetterSqlite3(path);
    other.exec('CREATE TABLE contacts (name TEXT)');
    other.close();
    const hash = sha256(path);
    expectStoreError(() => openDatabase(path), 'foreign-database', /another application|other tables/);
    expect(sha256(path)).toBe(hash);
  });

  it('reports an unopenable path (a directory) as open-failed', () => {
    expectStoreError(() => openDatabase(tmp.dir), 'open-failed', /is a folder, not a database file$/);
  });

  it('accepts an existing empty file as a new database', () => {
    const path = join(tmp.dir, 'empty.db');
    writeFileSync(path, '');
    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    db.close();
  });
});

describe('foreign keys', () => {
  it('are enforced on every handle openDatabase returns', () => {
    const db = openDatabase(':memory:');
    expect(() =>
      db
        .prepare("INSERT INTO devices (machine_id, key, kind, name) VALUES ('no-such-machine', 'cpu', 'cpu', 'x')")
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('a measurement must belong to a run of the same machine', () => {
    const db = openDatabase(':memory:');
    const probe = JSON.stringify(serverProbe());
    for (const id of ['m1', 'm2']) {
      db.prepare(
        "INSERT INTO machines (id, hostname, label, source, probe_json, created_at, updated_at) VALUES (?, 'h', 'h', 'local', ?, 't', 't')",
      ).run(id, probe);
    }
    db.prepare(
      `INSERT INTO profile_runs (id, machine_id, device_key, suite, execution_provider, runtime_version, status, started_at)
       VALUES ('r1', 'm1', 'cpu', 's', 'CPU', '1', 'running', 't')`,
    ).run();
    const insert = (machine: string) =>
      db
        .prepare(
          `INSERT INTO measurements (run_id, machine_id, device_key, op, family, shape_json, shape_key, dtype, flops, bytes,
             execution_provider, runtime_version, median_us, p10_us, p90_us, cv, repetitions, source, created_at)
           VALUES ('r1', ?, 'cpu', 'Add', 'elementwise', '{}', '', 'fp32', 0, 0, 'CPU', '1', 1, 1, 1, 0, 1, 'profile', 't')`,
        )
        .run(machine);
    expect(() => insert('m2')).toThrow(/FOREIGN KEY/);
    expect(insert('m1').changes).toBe(1);
    db.close();
  });
});

describe('a database the machine will not let us write', () => {
  it('a real SQLITE_READONLY becomes one line naming the file, not an internal error', () => {
    const t = tempDir();
    const file = join(t.dir, 'ro.db');
    openDatabase(file).close();
    const ro = new BetterSqlite3(file, { readonly: true });
    let err: unknown;
    try {
      ro.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'x', 'y')").run();
    } catch (e) {
      err = e;
    }
    ro.close();
    t.cleanup();
    expect(environmentFailure(err, file)).toBe(
      `cannot use the database "${file}": it is read-only (the file, its folder or the disk) (SQLITE_READONLY)`,
    );
    expect(environmentFailure(Object.assign(new Error('x'), { code: 'ENOSPC' }), file)).toMatch(/the disk is full/);
    expect(environmentFailure(new Error('a bug'), file)).toBeNull();
  });

  it('a read-only folder for a new database, or for the folder it needs, is one line naming the path', (ctx) => {
    const t = tempDir();
    const ro = makeReadOnly(t.dir);
    if ('unavailable' in ro) {
      t.cleanup();
      ctx.skip(ro.unavailable);
      return;
    }
    try {
      const file = join(t.dir, 'new.db');
      expectStoreError(
        () => openDatabase(file),
        'open-failed',
        /^cannot open the database ".*new\.db": it cannot be opened or created \(is its folder there and writable\?\) \(SQLITE_CANTOPEN\)$/,
      );
      expectStoreError(
        () => openDatabase(join(t.dir, 'sub', 'new.db')),
        'open-failed',
        /^cannot create the folder of the database ".*new\.db": (permission denied|the file system is read-only) \(E[A-Z]+\)$/,
      );
    } finally {
      ro.undo();
      t.cleanup();
    }
  });
});

describe('a database on a network filesystem', () => {
  const nfs = () => ({ type: 'nfs', network: true, freeBytes: 1e12 });

  it('is refused in one line saying where to put it instead, before anything is written', () => {
    const { dir, cleanup } = tempDir();
    const path = join(dir, 'sub', 'store.db');
    expectStoreError(
      () => openDatabase(path, { filesystem: nfs }),
      'network-filesystem',
      /^the database ".*store\.db" is on nfs, a network filesystem, where SQLite's locking is unsafe: give --db a node-local path \(in a Slurm job, --db "\$TMPDIR\/pipedejavu\.db"\)/,
    );
    expect(existsSync(join(dir, 'sub'))).toBe(false);
    cleanup();
  });

  it('opens when the user says only one process uses it', () => {
    const { dir, cleanup } = tempDir();
    const db = openDatabase(join(dir, 'store.db'), { filesystem: nfs, allowNetworkFilesystem: true });
    expect(tableNames(db).length).toBeGreaterThan(0);
    db.close();
    cleanup();
  });

  it('is told apart from a local one by statfs', async () => {
    const { filesystemOf } = await import('../../../../src-main/adapters/files/filesystem.js');
    const { dir, cleanup } = tempDir();
    const here = filesystemOf(join(dir, 'not-yet', 'store.db'));
    cleanup();
    expect(here.network).toBe(false);
    expect(here.type).not.toBe('unknown');
    expect(here.freeBytes).toBeGreaterThan(0);
    // A path that does not exist at all is judged by its nearest existing folder.
    expect(filesystemOf('/proc/self/nope/nope').network).toBe(false);
  });
});
