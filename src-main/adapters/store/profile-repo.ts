/**
 * Profile runs and their measurements.
 *
 * Conflict policy of insertMeasurements: a measurement is identified by (machine,
 * device, execution provider, threads, op, shape, dtype). By default an already
 * stored point is kept and the new one skipped (INSERT ... ON CONFLICT DO NOTHING):
 * the profiler checks hasMeasurement() to resume, and a resumed or repeated run must
 * never silently overwrite earlier data. `{ onConflict: 'replace' }` (ON CONFLICT DO
 * UPDATE) is for an explicit re-measure: the row keeps its id and moves to the new run.
 *
 * Each batch is one transaction: either every row of it is stored or none is.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  DtypeSchema,
  MeasurementSchema,
  ProfileRunSchema,
  RunStatusSchema,
  shapeKey,
  type Dtype,
  type Measurement,
  type ProfileRun,
  type RunStatus,
} from '../../core/domain/measurement.js';
import type { RunConditions } from '../../core/profiler/run-conditions.js';
import { StoreError } from './errors.js';
import { parseJsonColumn, parseJsonColumnOrNull, toJson, toJsonOrNull, validate } from './json.js';
import type { Database } from './types.js';
import { writeTransaction } from './write-transaction.js';

export type StoredRun = ProfileRun & {
  machineId: string;
  /** Last sign of life of the profiler writing this run (v2). */
  heartbeatAt: string | null;
  /** The conditions the run was taken in (load, steal; v5); null: not read (older runs, non-Linux, GPUs). */
  conditions: RunConditions | null;
};

export interface NewRunInput {
  /** Defaults to a fresh uuid. */
  id?: string;
  machineId: string;
  deviceKey: string;
  suite: string;
  executionProvider: string;
  threads: number | null;
  runtimeVersion: string;
  notes?: string[];
  /** When the run's work began, if before it is stored (measure-model stores after measuring); default now. */
  began?: Date;
}

export type FinishedRunStatus = Exclude<RunStatus, 'running'>;

export type RunSummary = Record<string, unknown>;

export type StoredMeasurement = Measurement & {
  id: number;
  machineId: string;
  shapeKey: string;
  createdAt: string;
};

/** The identity of a measured point (the measurements UNIQUE key). */
export interface MeasurementKey {
  machineId: string;
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
  op: string;
  shape: Record<string, number>;
  dtype: Dtype;
}

export interface MeasurementFilter {
  machineId?: string;
  deviceKey?: string;
  runId?: string;
  op?: string;
  family?: string;
  dtype?: Dtype;
  source?: Measurement['source'];
}

export interface InsertMeasurementsOptions {
  /** 'skip' (default): keep the stored point. 'replace': overwrite it with the new one. */
  onConflict?: 'skip' | 'replace';
  /**
   * The caller validated every measurement with MeasurementSchema or a stricter schema
   * (a decoded profile file): they are not parsed again, which halves a large import.
   */
  validated?: boolean;
}

export interface InsertMeasurementsResult {
  inserted: number;
  /** Already stored and kept ('skip'). */
  skipped: number;
  /** Already stored and overwritten ('replace'). */
  replaced: number;
}

interface RunRow {
  id: string;
  machine_id: string;
  device_key: string;
  suite: string;
  execution_provider: string;
  threads: number | null;
  runtime_version: string;
  status: string;
  started_at: string;
  finished_at: string | null;
  summary_json: string | null;
  notes_json: string;
  heartbeat_at: string | null;
  conditions_json: string | null;
}

/** A measurements row as stored (`id` is the row's; the rest is what an insert writes). */
interface MeasurementRow {
  id: number;
  run_id: string;
  machine_id: string;
  device_key: string;
  op: string;
  family: string;
  shape_json: string;
  shape_key: string;
  dtype: string;
  flops: number;
  bytes: number;
  execution_provider: string;
  threads: number | null;
  runtime_version: string;
  median_us: number;
  p10_us: number;
  p90_us: number;
  cv: number;
  repetitions: number;
  wall_median_us: number | null;
  source: string;
  created_at: string;
}

type MeasurementParams = Omit<MeasurementRow, 'id'>;

const RUN_COLUMNS = [
  'id',
  'machine_id',
  'device_key',
  'suite',
  'execution_provider',
  'threads',
  'runtime_version',
  'status',
  'started_at',
  'finished_at',
  'summary_json',
  'notes_json',
  'heartbeat_at',
  'conditions_json',
] as const satisfies readonly (keyof RunRow)[];

/** The measurements columns an insert writes, in the order of the positional insert's parameters. */
const WRITTEN_COLUMNS = [
  'run_id',
  'machine_id',
  'device_key',
  'op',
  'family',
  'shape_json',
  'shape_key',
  'dtype',
  'flops',
  'bytes',
  'execution_provider',
  'threads',
  'runtime_version',
  'median_us',
  'p10_us',
  'p90_us',
  'cv',
  'repetitions',
  'wall_median_us',
  'source',
  'created_at',
] as const satisfies readonly (keyof MeasurementParams)[];

/** Every column is listed once: a column added to a row type and not to its list fails to compile. */
type Unlisted<Row, Listed> = Exclude<keyof Row, Listed>;
const _runsListed: [Unlisted<RunRow, (typeof RUN_COLUMNS)[number]>] extends [never] ? true : never = true;
const _measurementsListed: [Unlisted<MeasurementParams, (typeof WRITTEN_COLUMNS)[number]>] extends [never]
  ? true
  : never = true;

/** The columns that identify a measured point, as the measurements_identity index lists them. */
const IDENTITY_COLUMNS = [
  'machine_id',
  'device_key',
  'execution_provider',
  'threads',
  'op',
  'shape_key',
  'dtype',
] as const satisfies readonly (typeof WRITTEN_COLUMNS)[number][];

/** The index's expression for a column: a null thread count is -1 there. */
const identityExpression = (column: string, value = column): string =>
  column === 'threads' ? `COALESCE(${value}, -1)` : value;

const MEASUREMENT_COLUMNS = `id, ${WRITTEN_COLUMNS.join(', ')}`;

const INSERT_MEASUREMENT = `INSERT INTO measurements (${WRITTEN_COLUMNS.join(', ')})
  VALUES (${WRITTEN_COLUMNS.map((c) => `@${c}`).join(', ')})`;

/** The skipping insert with positional parameters: binding an array is cheaper than named keys. */
const INSERT_SKIP_POSITIONAL = `INSERT INTO measurements (${WRITTEN_COLUMNS.join(', ')})
  VALUES (${WRITTEN_COLUMNS.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`;

/** The conflict target must repeat the expressions of the measurements_identity index. */
const IDENTITY_TARGET = `(${IDENTITY_COLUMNS.map((c) => identityExpression(c)).join(', ')})`;

/** A replacing insert overwrites every written column but the identity. */
const UPDATE_ON_CONFLICT = WRITTEN_COLUMNS.filter((c) => !(IDENTITY_COLUMNS as readonly string[]).includes(c))
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');

/** A point by its identity, with positional parameters in IDENTITY_COLUMNS order. */
const IDENTITY_WHERE = IDENTITY_COLUMNS.map((c) => `${identityExpression(c)} = ${identityExpression(c, '?')}`).join(
  ' AND ',
);

const SummarySchema = z.record(z.string(), z.unknown());
const NotesSchema = z.array(z.string());
const ShapeSchema = MeasurementSchema.shape.shape;
const ConditionsSchema = z.object({
  othersBefore: z.number().nullable(),
  othersAfter: z.number().nullable(),
  stealShare: z.number().nullable(),
  waitedMs: z.number().nonnegative(),
  crowdedKernels: z.number().int().nonnegative().optional(),
  poor: z.string().nullable(),
});
const SourceSchema = MeasurementSchema.shape.source;

function prepareStatements(db: Database) {
  return {
    insertRun: db.prepare<[RunRow]>(
      `INSERT INTO profile_runs (${RUN_COLUMNS.join(', ')}) VALUES (${RUN_COLUMNS.map((c) => `@${c}`).join(', ')})`,
    ),
    getRun: db.prepare<[string], RunRow>(`SELECT ${RUN_COLUMNS.join(', ')} FROM profile_runs WHERE id = ?`),
    listRuns: db.prepare<[string], RunRow>(
      `SELECT ${RUN_COLUMNS.join(', ')} FROM profile_runs WHERE machine_id = ? ORDER BY started_at DESC, id`,
    ),
    finishRun: db.prepare<[string, string, string | null, string, string, string]>(
      `UPDATE profile_runs SET status = ?, finished_at = ?, summary_json = ?, notes_json = ?, heartbeat_at = ?
        WHERE id = ?`,
    ),
    touchRun: db.prepare<[string, string]>('UPDATE profile_runs SET heartbeat_at = ? WHERE id = ?'),
    setConditions: db.prepare<[string, string]>('UPDATE profile_runs SET conditions_json = ? WHERE id = ?'),
    interruptStale: db.prepare<[string, string]>(
      `UPDATE profile_runs SET status = 'interrupted', finished_at = ?
        WHERE status = 'running' AND COALESCE(heartbeat_at, started_at) < ?`,
    ),
    insertSkipPositional: db.prepare<unknown[]>(INSERT_SKIP_POSITIONAL),
    insertReplace: db.prepare<[MeasurementParams]>(
      `${INSERT_MEASUREMENT} ON CONFLICT ${IDENTITY_TARGET} DO UPDATE SET ${UPDATE_ON_CONFLICT}`,
    ),
    has: db.prepare<[string, string, string, number | null, string, string, string], { one: number }>(
      `SELECT 1 AS one FROM measurements WHERE ${IDENTITY_WHERE}`,
    ),
  };
}

export class ProfileRepo {
  private readonly stmts: ReturnType<typeof prepareStatements>;

  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.stmts = prepareStatements(db);
  }

  /** Starts a run (status 'running') on a stored machine. */
  createRun(input: NewRunInput): StoredRun {
    const startedAt = (input.began ?? this.now()).toISOString();
    const run = validate(
      ProfileRunSchema,
      {
        id: input.id ?? randomUUID(),
        deviceKey: input.deviceKey,
        suite: input.suite,
        executionProvider: input.executionProvider,
        threads: input.threads,
        runtimeVersion: input.runtimeVersion,
        status: 'running',
        startedAt,
        finishedAt: null,
        summary: null,
        notes: input.notes ?? [],
      },
      'run',
    );
    // Alive now, whenever it began: a stale-run sweep must not take it for a dead one.
    this.insertRun(input.machineId, run, input.began ? this.now().toISOString() : startedAt);
    return this.mustGetRun(run.id);
  }

  /** Stores a run read from a profile file as it is (id, status and times kept). */
  importRun(machineId: string, run: ProfileRun): StoredRun {
    const r = validate(ProfileRunSchema, run, 'run');
    this.insertRun(machineId, r, r.finishedAt ?? r.startedAt);
    return this.mustGetRun(r.id);
  }

  /** Ends a run: sets status, finish time, summary and (when given) replaces its notes. */
  finishRun(runId: string, status: FinishedRunStatus, summary: RunSummary | null, notes?: string[]): StoredRun {
    const st = validate(RunStatusSchema.exclude(['running']), status, 'run status');
    const sum = summary === null ? null : validate(SummarySchema, summary, 'run summary');
    const at = this.now().toISOString();
    writeTransaction(this.db, () => {
      const current = this.stmts.getRun.get(runId);
      if (!current) throw new StoreError('not-found', `profile run "${runId}" not found`);
      const n = notes === undefined ? current.notes_json : toJson(validate(NotesSchema, notes, 'run notes'));
      this.stmts.finishRun.run(st, at, toJsonOrNull(sum), n, at, runId);
    });
    return this.mustGetRun(runId);
  }

  /** Stores the conditions the run was taken in (run-conditions.ts). */
  setRunConditions(runId: string, conditions: RunConditions): StoredRun {
    const c = validate(ConditionsSchema, conditions, 'run conditions');
    if (this.stmts.setConditions.run(toJson(c), runId).changes === 0)
      throw new StoreError('not-found', `profile run "${runId}" not found`);
    return this.mustGetRun(runId);
  }

  /** Records that the run's profiler is alive (insertMeasurements does this too). */
  touchRun(runId: string): boolean {
    return this.stmts.touchRun.run(this.now().toISOString(), runId).changes > 0;
  }

  /**
   * Marks runs still 'running' whose heartbeat is older than `staleBefore` as
   * 'interrupted' (their profiler was killed). Returns how many were marked.
   */
  interruptStaleRuns(staleBefore: Date): number {
    return this.stmts.interruptStale.run(this.now().toISOString(), staleBefore.toISOString()).changes;
  }

  /**
   * Marks every run of a machine still 'running' as 'interrupted': called by whoever
   * takes the machine's profiler lock, so any such run belongs to a profiler that died.
   */
  interruptRunningRuns(machineId: string): number {
    const at = this.now().toISOString();
    return this.db
      .prepare(
        `UPDATE profile_runs SET status = 'interrupted', finished_at = ? WHERE machine_id = ? AND status = 'running'`,
      )
      .run(at, machineId).changes;
  }

  hasRunningRuns(machineId: string): boolean {
    return (
      this.db
        .prepare<[string], { one: number }>(
          `SELECT 1 AS one FROM profile_runs WHERE machine_id = ? AND status = 'running' LIMIT 1`,
        )
        .get(machineId) !== undefined
    );
  }

  getRun(runId: string): StoredRun | null {
    const row = this.stmts.getRun.get(runId);
    return row ? toRun(row) : null;
  }

  /** Runs of a machine, newest first. */
  listRuns(machineId: string): StoredRun[] {
    return this.stmts.listRuns.all(machineId).map(toRun);
  }

  /**
   * Stores a batch of measurements of one run in ONE transaction: an invalid row, a
   * constraint violation or a crash stores none of the batch. Each measurement's
   * runId must equal `runId`; its machine is the run's. Duplicates (same identity,
   * also within the batch) follow `options.onConflict` (see the file comment).
   */
  insertMeasurements(
    runId: string,
    measurements: readonly Measurement[],
    options: InsertMeasurementsOptions = {},
  ): InsertMeasurementsResult {
    const mode = options.onConflict ?? 'skip';
    const result: InsertMeasurementsResult = { inserted: 0, skipped: 0, replaced: 0 };
    writeTransaction(this.db, () => {
      const run = this.stmts.getRun.get(runId);
      if (!run) throw new StoreError('not-found', `profile run "${runId}" not found`);
      const createdAt = this.now().toISOString();
      const rows = measurements.map((input, i) => {
        const m = options.validated ? input : validate(MeasurementSchema, input, `measurement #${i} (${input.op})`);
        if (m.runId !== runId) {
          throw new StoreError('invalid-input', `measurement #${i} belongs to run "${m.runId}", not "${runId}"`);
        }
        return { m, params: toParams(m, run.machine_id, createdAt) };
      });
      if (mode === 'skip')
        this.insertSkipping(
          rows.map((r) => r.params),
          result,
        );
      else {
        for (const { m, params } of rows) {
          const exists = this.hasRow(run.machine_id, m, params.shape_key);
          this.stmts.insertReplace.run(params);
          if (exists) result.replaced++;
          else result.inserted++;
        }
      }
      this.stmts.touchRun.run(createdAt, runId);
    });
    return result;
  }

  /** Inserts rows, keeping stored points. */
  private insertSkipping(rows: readonly MeasurementParams[], result: InsertMeasurementsResult): void {
    for (const p of rows) {
      if (this.stmts.insertSkipPositional.run(WRITTEN_COLUMNS.map((c) => p[c])).changes > 0) result.inserted++;
      else result.skipped++;
    }
  }

  /** True when this point is already stored (the profiler skips it on resume). */
  hasMeasurement(key: MeasurementKey): boolean {
    return (
      this.stmts.has.get(
        key.machineId,
        key.deviceKey,
        key.executionProvider,
        key.threads,
        key.op,
        shapeKey(key.shape),
        key.dtype,
      ) !== undefined
    );
  }

  /** Measurements matching every given field, in insertion order. */
  listMeasurements(filter: MeasurementFilter = {}): StoredMeasurement[] {
    const columns: Record<keyof MeasurementFilter, string> = {
      machineId: 'machine_id',
      deviceKey: 'device_key',
      runId: 'run_id',
      op: 'op',
      family: 'family',
      dtype: 'dtype',
      source: 'source',
    };
    const where: string[] = [];
    const params: Record<string, string> = {};
    for (const field of Object.keys(columns) as (keyof MeasurementFilter)[]) {
      const value = filter[field];
      if (value === undefined) continue;
      where.push(`${columns[field]} = @${field}`);
      params[field] = value;
    }
    const sql =
      `SELECT ${MEASUREMENT_COLUMNS} FROM measurements` +
      (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
      ' ORDER BY id';
    return this.db.prepare<[Record<string, string>], MeasurementRow>(sql).all(params).map(toMeasurement);
  }

  private hasRow(machineId: string, m: Measurement, key: string): boolean {
    return this.stmts.has.get(machineId, m.deviceKey, m.executionProvider, m.threads, m.op, key, m.dtype) !== undefined;
  }

  private insertRun(machineId: string, run: ProfileRun, heartbeatAt: string): void {
    try {
      this.stmts.insertRun.run({
        id: run.id,
        machine_id: machineId,
        device_key: run.deviceKey,
        suite: run.suite,
        execution_provider: run.executionProvider,
        threads: run.threads,
        runtime_version: run.runtimeVersion,
        status: run.status,
        started_at: run.startedAt,
        finished_at: run.finishedAt,
        summary_json: toJsonOrNull(run.summary),
        notes_json: toJson(run.notes),
        heartbeat_at: heartbeatAt,
        conditions_json: null,
      });
    } catch (err) {
      const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
      if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        throw new StoreError('not-found', `machine "${machineId}" not found`, { cause: err });
      }
      if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new StoreError('conflict', `profile run "${run.id}" already exists`, { cause: err });
      }
      throw err;
    }
  }

  private mustGetRun(runId: string): StoredRun {
    const run = this.getRun(runId);
    if (!run) throw new StoreError('not-found', `profile run "${runId}" not found`);
    return run;
  }
}

function toParams(m: Measurement, machineId: string, createdAt: string): MeasurementParams {
  return {
    run_id: m.runId,
    machine_id: machineId,
    device_key: m.deviceKey,
    op: m.op,
    family: m.family,
    shape_json: toJson(m.shape),
    shape_key: shapeKey(m.shape),
    dtype: m.dtype,
    flops: m.flops,
    bytes: m.bytes,
    execution_provider: m.executionProvider,
    threads: m.threads,
    runtime_version: m.runtimeVersion,
    median_us: m.stats.medianUs,
    p10_us: m.stats.p10Us,
    p90_us: m.stats.p90Us,
    cv: m.stats.cv,
    repetitions: m.stats.repetitions,
    wall_median_us: m.stats.wallMedianUs,
    source: m.source,
    created_at: createdAt,
  };
}

function toRun(row: RunRow): StoredRun {
  const status = RunStatusSchema.safeParse(row.status);
  if (!status.success) throw new StoreError('corrupt-row', `profile_runs.status of ${row.id} is "${row.status}"`);
  return {
    id: row.id,
    machineId: row.machine_id,
    deviceKey: row.device_key,
    suite: row.suite,
    executionProvider: row.execution_provider,
    threads: row.threads,
    runtimeVersion: row.runtime_version,
    status: status.data,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    summary: parseJsonColumnOrNull(SummarySchema, row.summary_json, `profile_runs.summary_json of ${row.id}`),
    notes: parseJsonColumn(NotesSchema, row.notes_json, `profile_runs.notes_json of ${row.id}`),
    heartbeatAt: row.heartbeat_at,
    conditions: parseJsonColumnOrNull(
      ConditionsSchema,
      row.conditions_json,
      `profile_runs.conditions_json of ${row.id}`,
    ),
  };
}

function toMeasurement(row: MeasurementRow): StoredMeasurement {
  const dtype = DtypeSchema.safeParse(row.dtype);
  if (!dtype.success) throw new StoreError('corrupt-row', `measurements.dtype of #${row.id} is "${row.dtype}"`);
  const source = SourceSchema.safeParse(row.source);
  if (!source.success) throw new StoreError('corrupt-row', `measurements.source of #${row.id} is "${row.source}"`);
  return {
    id: row.id,
    machineId: row.machine_id,
    runId: row.run_id,
    deviceKey: row.device_key,
    op: row.op,
    family: row.family,
    shape: parseJsonColumn(ShapeSchema, row.shape_json, `measurements.shape_json of #${row.id}`),
    shapeKey: row.shape_key,
    dtype: dtype.data,
    flops: row.flops,
    bytes: row.bytes,
    executionProvider: row.execution_provider,
    threads: row.threads,
    runtimeVersion: row.runtime_version,
    stats: {
      medianUs: row.median_us,
      p10Us: row.p10_us,
      p90Us: row.p90_us,
      cv: row.cv,
      repetitions: row.repetitions,
      wallMedianUs: row.wall_median_us,
    },
    source: source.data,
    createdAt: row.created_at,
  };
}
