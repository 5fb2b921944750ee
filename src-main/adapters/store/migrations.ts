/**
 * Versioned schema migrations. The schema version lives in `PRAGMA user_version`;
 * `schema_migrations` records when each step ran. Rules:
 * - Append only: never edit a released migration, add a new one with the next version.
 * - Each migration runs in its own IMMEDIATE transaction together with the bump of
 *   user_version and its schema_migrations row, so a crash leaves the previous version.
 * - Foreign keys are switched off while migrating (SQLite's documented procedure for
 *   table rebuilds) and `PRAGMA foreign_key_check` must be clean before each commit.
 * - Old rows must be carried forward (ALTER TABLE ... ADD COLUMN + backfill, or
 *   CREATE new / INSERT SELECT / DROP old / RENAME for rebuilds).
 */
import type { Database } from './types.js';
import { StoreError, errorMessage } from './errors.js';

export interface Migration {
  /** 1, 2, 3, ... without gaps. */
  readonly version: number;
  /** Short kebab-case description, recorded in schema_migrations. */
  readonly name: string;
  /** Applies the change. Runs inside a transaction; must not open its own. */
  up(db: Database): void;
}

/** PRAGMA application_id of a pipeDejavu database: "pDjV" in ASCII. */
export const APPLICATION_ID = 0x70446a56;

const V1_SQL = `
CREATE TABLE schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  applied_at TEXT NOT NULL
) STRICT;

CREATE TABLE machines (
  id              TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 200),
  hostname        TEXT NOT NULL,
  label           TEXT NOT NULL,
  source          TEXT NOT NULL CHECK (source IN ('local', 'imported')),
  probe_json      TEXT NOT NULL CHECK (json_valid(probe_json)),
  content_hash    TEXT,
  provenance_json TEXT CHECK (provenance_json IS NULL OR json_valid(provenance_json)),
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  CHECK (source = 'imported' OR (content_hash IS NULL AND provenance_json IS NULL)),
  CHECK (source = 'local' OR content_hash IS NOT NULL)
) STRICT;
CREATE UNIQUE INDEX machines_content_hash ON machines (content_hash) WHERE content_hash IS NOT NULL;

-- devices and links keep their rowid: reads return them in the order they were given.
CREATE TABLE devices (
  machine_id   TEXT NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  key          TEXT NOT NULL,
  kind         TEXT NOT NULL,
  name         TEXT NOT NULL,
  memory_bytes REAL CHECK (memory_bytes IS NULL OR memory_bytes >= 0),
  spec_json    TEXT CHECK (spec_json IS NULL OR json_valid(spec_json)),
  PRIMARY KEY (machine_id, key)
) STRICT;

CREATE TABLE links (
  machine_id     TEXT NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  a              TEXT NOT NULL,
  b              TEXT NOT NULL,
  kind           TEXT NOT NULL,
  nvlink_count   INTEGER CHECK (nvlink_count IS NULL OR nvlink_count >= 0),
  bandwidth_gbps REAL CHECK (bandwidth_gbps IS NULL OR bandwidth_gbps >= 0),
  source         TEXT NOT NULL CHECK (source IN ('spec', 'measured')),
  PRIMARY KEY (machine_id, a, b, source)
) STRICT;

CREATE TABLE profile_runs (
  id                 TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 100),
  machine_id         TEXT NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  device_key         TEXT NOT NULL,
  suite              TEXT NOT NULL,
  execution_provider TEXT NOT NULL,
  threads            INTEGER CHECK (threads IS NULL OR threads >= 0),
  runtime_version    TEXT NOT NULL,
  status             TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted', 'failed')),
  started_at         TEXT NOT NULL,
  finished_at        TEXT,
  summary_json       TEXT CHECK (summary_json IS NULL OR json_valid(summary_json)),
  notes_json         TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(notes_json)),
  -- target of the measurements (run_id, machine_id) foreign key
  UNIQUE (id, machine_id)
) STRICT;
CREATE INDEX profile_runs_machine ON profile_runs (machine_id, started_at);

CREATE TABLE measurements (
  id                 INTEGER PRIMARY KEY,
  run_id             TEXT NOT NULL,
  machine_id         TEXT NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  device_key         TEXT NOT NULL,
  op                 TEXT NOT NULL,
  family             TEXT NOT NULL,
  shape_json         TEXT NOT NULL CHECK (json_valid(shape_json)),
  shape_key          TEXT NOT NULL,
  dtype              TEXT NOT NULL,
  flops              REAL NOT NULL CHECK (flops >= 0),
  bytes              REAL NOT NULL CHECK (bytes >= 0),
  execution_provider TEXT NOT NULL,
  threads            INTEGER CHECK (threads IS NULL OR threads >= 0),
  runtime_version    TEXT NOT NULL,
  median_us          REAL NOT NULL CHECK (median_us > 0),
  p10_us             REAL NOT NULL CHECK (p10_us > 0),
  p90_us             REAL NOT NULL CHECK (p90_us > 0),
  cv                 REAL NOT NULL CHECK (cv >= 0),
  repetitions        INTEGER NOT NULL CHECK (repetitions > 0),
  wall_median_us     REAL CHECK (wall_median_us IS NULL OR wall_median_us > 0),
  source             TEXT NOT NULL CHECK (source IN ('profile', 'model')),
  created_at         TEXT NOT NULL,
  -- the run must belong to the same machine as the measurement
  FOREIGN KEY (run_id, machine_id) REFERENCES profile_runs (id, machine_id) ON DELETE CASCADE
) STRICT;
-- One row per measured point. NULL threads ("runtime default") is one value here:
-- NULLs are distinct in a plain UNIQUE constraint, so the key uses COALESCE(threads, -1).
CREATE UNIQUE INDEX measurements_identity ON measurements (
  machine_id, device_key, execution_provider, COALESCE(threads, -1), op, shape_key, dtype
);
CREATE INDEX measurements_run ON measurements (run_id, machine_id);
CREATE INDEX measurements_op ON measurements (machine_id, device_key, op);
CREATE INDEX measurements_family ON measurements (machine_id, device_key, family, dtype);

CREATE TABLE predictors (
  id                INTEGER PRIMARY KEY,
  machine_id        TEXT REFERENCES machines (id) ON DELETE CASCADE,
  name              TEXT NOT NULL,
  version           TEXT NOT NULL,
  kind              TEXT NOT NULL,
  trained_at        TEXT NOT NULL,
  training_set_json TEXT NOT NULL CHECK (json_valid(training_set_json)),
  report_json       TEXT CHECK (report_json IS NULL OR json_valid(report_json)),
  model_json        TEXT NOT NULL CHECK (json_valid(model_json))
) STRICT;
CREATE INDEX predictors_machine ON predictors (machine_id, name, trained_at);

CREATE TABLE workloads (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL UNIQUE,
  source       TEXT NOT NULL,
  file_path    TEXT,
  content_hash TEXT,
  graph_json   TEXT NOT NULL CHECK (json_valid(graph_json)),
  created_at   TEXT NOT NULL
) STRICT;
CREATE INDEX workloads_content_hash ON workloads (content_hash);

CREATE TABLE plans (
  id           INTEGER PRIMARY KEY,
  workload_id  INTEGER NOT NULL REFERENCES workloads (id) ON DELETE CASCADE,
  devices_json TEXT NOT NULL CHECK (json_valid(devices_json)),
  mode         TEXT NOT NULL,
  batch        INTEGER NOT NULL CHECK (batch > 0),
  result_json  TEXT NOT NULL CHECK (json_valid(result_json)),
  created_at   TEXT NOT NULL
) STRICT;
CREATE INDEX plans_workload ON plans (workload_id, created_at);
`;

/**
 * v2: a heartbeat per run. The profiler touches it with every batch it stores, so a
 * run still marked 'running' whose heartbeat is old was killed and can be marked
 * 'interrupted' without racing a live profiler in another process. Existing runs are
 * backfilled with their last known time.
 */
const V2_SQL = `
ALTER TABLE profile_runs ADD COLUMN heartbeat_at TEXT;
UPDATE profile_runs SET heartbeat_at = COALESCE(finished_at, started_at);
CREATE INDEX profile_runs_status ON profile_runs (status, heartbeat_at);
`;

/**
 * v3: one profiler per machine at a time, across processes (CLIs, serve, the app). The
 * holder is a process (host, pid and its start time, so a reused pid is not mistaken
 * for it) with a heartbeat; a holder that is dead, or silent for long on another host,
 * can be taken over.
 */
const V3_SQL = `
CREATE TABLE profiler_locks (
  machine_id    TEXT PRIMARY KEY NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  device_key    TEXT NOT NULL,
  host          TEXT NOT NULL,
  pid           INTEGER NOT NULL,
  process_start TEXT,
  acquired_at   TEXT NOT NULL,
  heartbeat_at  TEXT NOT NULL
) STRICT;
`;

/**
 * Version 4: a workload's graph is stored deflated (graph_gz; graph_json is then 'null'), with its
 * node and layer counts beside it, so a 200k-node graph costs a few MB in the store and in memory
 * while it is written, and listing workloads reads no graph. Rows written before keep graph_json.
 */
const V4_SQL = `
ALTER TABLE workloads ADD COLUMN graph_gz BLOB;
ALTER TABLE workloads ADD COLUMN node_count INTEGER;
ALTER TABLE workloads ADD COLUMN layer_count INTEGER;
`;

/**
 * Model checks: each measure-model run's measured and predicted whole-model times, the held-out
 * residuals of the prediction band (core/predictor/model-band.ts). Profile runs keep the
 * conditions they were taken in (load, CPU steal) as JSON.
 */
const V5_SQL = `
CREATE TABLE model_checks (
  id            INTEGER PRIMARY KEY,
  machine_id    TEXT NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  device_key    TEXT NOT NULL,
  threads       INTEGER CHECK (threads IS NULL OR threads >= 0),
  model         TEXT NOT NULL,
  label         TEXT NOT NULL,
  predictor     TEXT NOT NULL,
  measured_us   REAL NOT NULL CHECK (measured_us > 0),
  predicted_us  REAL NOT NULL CHECK (predicted_us > 0),
  checked_at    TEXT NOT NULL
);
CREATE INDEX model_checks_device ON model_checks (machine_id, device_key);
ALTER TABLE profile_runs ADD COLUMN conditions_json TEXT;
`;

/**
 * Version 6: a Hugging Face model's description (its architecture, and what its safetensors
 * store) kept with its workload, so an uploaded folder, which has no path here, and a folder added
 * on the CLI are both read from the store, never the filesystem. Rows written before have none.
 */
const V6_SQL = `
ALTER TABLE workloads ADD COLUMN described_json TEXT;
`;

/**
 * Version 7: a stored predictor's trained state is `predictor_json`, named as the glossary says ("model"
 * is the network, never a predictor); `model_json` was its name before. The rename carries every row
 * and the column's JSON check.
 */
const V7_SQL = `
ALTER TABLE predictors RENAME COLUMN model_json TO predictor_json;
`;

/**
 * Version 8: a model check keeps the machine's state when it was measured (core/profiler/machine-state.ts):
 * its calibration model's time then over its profiled time (null: not read), and whether that was
 * off the profiled speed, when the check is kept but not used for the bands. Rows written before
 * were not read and stay in use.
 */
const V8_SQL = `
ALTER TABLE model_checks ADD COLUMN machine_ratio REAL CHECK (machine_ratio IS NULL OR machine_ratio > 0);
ALTER TABLE model_checks ADD COLUMN off_speed INTEGER NOT NULL DEFAULT 0 CHECK (off_speed IN (0, 1));
`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial-schema',
    up(db) {
      db.exec(V1_SQL);
      db.pragma(`application_id = ${APPLICATION_ID}`);
    },
  },
  {
    version: 2,
    name: 'run-heartbeat',
    up(db) {
      db.exec(V2_SQL);
    },
  },
  {
    version: 3,
    name: 'profiler-lock',
    up(db) {
      db.exec(V3_SQL);
    },
  },
  {
    version: 4,
    name: 'workload-graph-deflated',
    up(db) {
      db.exec(V4_SQL);
    },
  },
  {
    version: 5,
    name: 'model-checks-and-run-conditions',
    up(db) {
      db.exec(V5_SQL);
    },
  },
  {
    version: 6,
    name: 'workload-description',
    up(db) {
      db.exec(V6_SQL);
    },
  },
  {
    version: 7,
    name: 'predictor-json',
    up(db) {
      db.exec(V7_SQL);
    },
  },
  {
    version: 8,
    name: 'model-check-machine-state',
    up(db) {
      db.exec(V8_SQL);
    },
  },
];

export const LATEST_SCHEMA_VERSION: number = latestVersion(MIGRATIONS);

export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

export function readUserVersion(db: Database): number {
  const v = db.pragma('user_version', { simple: true });
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new StoreError('corrupt-row', `PRAGMA user_version returned ${String(v)}`);
  }
  return v;
}

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new StoreError(
        'migration-failed',
        `migrations must be numbered 1, 2, 3, ... in order; found version ${m.version} at position ${i + 1}`,
      );
    }
  });
}

export interface MigrateOptions {
  /** Stop after this version (tests build old databases this way). Default: the last one. */
  targetVersion?: number;
  /** Clock for schema_migrations.applied_at. */
  now?: () => Date;
}

/**
 * Brings the database up to `targetVersion`. Returns the versions applied (empty when
 * already current). Refuses (and changes nothing) when the database is newer than the
 * migrations known here.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
  options: MigrateOptions = {},
): number[] {
  checkOrder(migrations);
  const latest = latestVersion(migrations);
  const target = options.targetVersion ?? latest;
  const now = options.now ?? (() => new Date());
  const current = readUserVersion(db);
  if (current > latest) {
    throw new StoreError(
      'newer-version',
      `database schema version ${current} is newer than this version of pipeDejavu knows (${latest})`,
    );
  }
  const pending = migrations.filter((m) => m.version > current && m.version <= target);
  if (pending.length === 0) return [];

  const applied: number[] = [];
  const fkWasOn = db.pragma('foreign_keys', { simple: true }) === 1;
  db.pragma('foreign_keys = OFF');
  try {
    for (const m of pending) {
      const step = db.transaction(() => {
        // Another process may have migrated while we waited for the write lock.
        if (readUserVersion(db) >= m.version) return false;
        m.up(db);
        const violations = db.pragma('foreign_key_check') as unknown[];
        if (violations.length > 0) {
          throw new StoreError(
            'migration-failed',
            `migration ${m.version} (${m.name}) left ${violations.length} foreign key violation(s)`,
          );
        }
        db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
          m.version,
          m.name,
          now().toISOString(),
        );
        db.pragma(`user_version = ${m.version}`);
        return true;
      });
      try {
        if (step.immediate()) applied.push(m.version);
      } catch (err) {
        if (err instanceof StoreError) throw err;
        throw new StoreError('migration-failed', `migration ${m.version} (${m.name}) failed: ${errorMessage(err)}`, {
          cause: err,
        });
      }
    }
  } finally {
    if (fkWasOn) db.pragma('foreign_keys = ON');
  }
  return applied;
}
