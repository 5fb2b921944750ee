/**
 * A hardware profile file into the store. Import validates everything before it writes, and
 * writes in one transaction: a new machine, a newer export of an imported one, or the runs this
 * machine's own profile (a backup) has that the store lacks; the same content again changes
 * nothing, and an older file is refused unless it is to replace what is stored.
 */
import { createHash } from 'node:crypto';
import { canonicalText, decodeProfile, ProfileFileError } from '../../core/profile-file/codec.js';
import { REPLACE_HINT, ProvenanceSchema, type ProfileFile } from '../../core/profile-file/schema.js';
import type { Measurement } from '../../core/domain/measurement.js';
import { groupBy } from '../../core/util/group-by.js';
import { UserError, errorMessage } from '../../core/errors.js';
import { controlCharRefusal, visibleName } from '../../core/text/shown.js';
import { count } from '../../core/text/plural.js';
import { loadPredictor } from '../../core/predictor/registry.js';
import { MachineRepo, type MachineDetail } from '../../adapters/store/machine-repo.js';
import { ProfileRepo } from '../../adapters/store/profile-repo.js';
import { PredictorRepo } from '../../adapters/store/predictor-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { writeTransaction } from '../../adapters/store/write-transaction.js';
import { fileCounts, type ProfileCounts } from './profile-export.js';

/**
 * What an import did: `imported` a new machine, `updated` an imported one with a newer file,
 * `merged` the runs this machine's own profile had and the store lacked (nothing stored is
 * replaced), or left everything `unchanged` (the same content is here already). `counts` are
 * what the file holds, except for `merged`, where they are what was added; `note` says why for
 * `unchanged`.
 */
export interface ImportResult {
  machineId: string;
  label: string;
  action: 'imported' | 'updated' | 'merged' | 'unchanged';
  counts: ProfileCounts;
  note?: string;
}

function contentHash(canonicalText: string): string {
  return createHash('sha256').update(canonicalText).digest('hex');
}

/**
 * Imports a profile file's text. Everything is validated first; then the machine,
 * its runs and measurements are written in one transaction, or nothing is.
 */
export function importProfile(
  db: Database,
  input: string | Uint8Array,
  sourceName: string,
  label?: string,
  options: { replace?: boolean } = {},
): ImportResult {
  const text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: false }).decode(input);
  const file = decodeProfile(text, sourceName);
  return storeProfile(db, prepareProfile(file, sourceName, canonicalHash(file, text, input)), {
    ...(label === undefined ? {} : { label }),
    ...options,
  });
}

/** How a prepared profile is stored. */
export interface StoreOptions {
  /** The name to show for the machine instead of the file's label. */
  label?: string;
  /**
   * Replace a stored imported machine even when the file is older than what is stored, or
   * differs from it on the same date (without it, such an import is refused in one line).
   */
  replace?: boolean;
}

/** Refuses a label the user typed that holds a control character; `what` names where it came from. */
export function checkLabel(label: string, what = 'machine label'): void {
  const problem = controlCharRefusal(what, label);
  if (problem) throw new UserError(`${problem}; a label must be plain text`);
}

/** A decoded profile whose predictors load and whose content hash is known: ready to be stored. */
export interface PreparedProfile {
  file: ProfileFile;
  sourceName: string;
  hash: string;
}

/**
 * Checks what the schema cannot (the predictors load, none is trained in the future) and
 * hashes the content; `hash` when the caller has it from the file's bytes already.
 */
export function prepareProfile(file: ProfileFile, sourceName: string, hash?: string): PreparedProfile {
  checkPredictors(file, sourceName);
  return { file, sourceName, hash: hash ?? contentHash(canonicalText(file)) };
}

/** Writes a prepared profile in one transaction, or nothing of it (`unchanged` when its content is here). */
export function storeProfile(db: Database, p: PreparedProfile, options: StoreOptions = {}): ImportResult {
  if (options.label !== undefined) checkLabel(options.label);
  const byRun = groupBy(p.file.measurements, (m) => m.runId);
  // A large import touches four indexes per row: a bigger page cache for its duration.
  return withPageCache(db, IMPORT_CACHE_KIB, () => store(db, p, byRun, options));
}

const IMPORT_CACHE_KIB = 256 * 1024;

function withPageCache<T>(db: Database, kib: number, fn: () => T): T {
  const before = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = ${-kib}`);
  try {
    return fn();
  } finally {
    db.pragma(`cache_size = ${before}`);
  }
}

function store(
  db: Database,
  p: PreparedProfile,
  byRun: Map<string, Measurement[]>,
  options: StoreOptions,
): ImportResult {
  const { file, hash, sourceName } = p;
  const label = options.label;
  const machines = new MachineRepo(db);
  const profiles = new ProfileRepo(db);
  // The checks run inside the write transaction: a second import of the same file waits
  // for the first, then finds it already there.
  return writeTransaction(db, () => {
    const same = machines.findByContentHash(hash);
    if (same) {
      return unchanged(
        file,
        same,
        `${sourceName} was already imported (same content as machine "${same.label}", id ${same.id}); nothing to do`,
      );
    }
    const existing = machines.getMachine(file.machine.id);
    // This machine's own profile (a backup restored): the runs the store lacks are added.
    if (existing?.source === 'local') return mergeIntoLocal(profiles, file, existing, byRun, sourceName);
    if (existing && !options.replace) refuseOlder(machines, profiles, existing, file, sourceName);
    const input = {
      id: file.machine.id,
      label: label ?? (existing ? existing.label : file.machine.label),
      probe: file.machine.probe,
      devices: file.devices,
      links: file.links,
      contentHash: hash,
      provenance: file.provenance,
    };
    if (existing) machines.replaceImportedMachine(input);
    else machines.insertImportedMachine(input);
    for (const run of file.profileRuns) profiles.importRun(file.machine.id, run);
    for (const [runId, ms] of byRun) profiles.insertMeasurements(runId, ms, { validated: true });
    const predictors = new PredictorRepo(db);
    for (const p of file.predictors) predictors.insert(file.machine.id, p);
    return {
      machineId: file.machine.id,
      label: input.label,
      action: existing ? 'updated' : 'imported',
      counts: fileCounts(file),
    } satisfies ImportResult;
  });
}

/** The newest start or finish of a run, as an ISO string ('' when there is none). */
function newestRunDate(runs: readonly { startedAt: string; finishedAt: string | null }[]): string {
  let newest = '';
  for (const r of runs) {
    const at = r.finishedAt ?? r.startedAt;
    if (at > newest) newest = at;
  }
  return newest;
}

/**
 * A stored imported machine is replaced only by a newer export of it: one exported later whose
 * runs are not older than the stored ones. An older file, or a different one of the same date,
 * is refused in one line (with both dates and counts) that asks for `--replace`.
 */
function refuseOlder(
  machines: MachineRepo,
  profiles: ProfileRepo,
  existing: MachineDetail,
  file: ProfileFile,
  sourceName: string,
): void {
  const stored = ProvenanceSchema.safeParse(existing.provenance);
  const storedAt = stored.success ? stored.data.exportedAt : '';
  const fileAt = file.provenance.exportedAt;
  const fileTime = Date.parse(fileAt) || 0;
  const storedTime = Date.parse(storedAt) || 0;
  const runsOlder = newestRunDate(file.profileRuns) < newestRunDate(profiles.listRuns(existing.id));
  if (fileTime > storedTime && !runsOlder) return;
  const verdict =
    fileTime < storedTime ? 'is older' : fileTime === storedTime ? 'differs on the same date' : 'has older runs';
  const storedCount = machines.listMachines().find((m) => m.id === existing.id)?.measurementCount ?? 0;
  throw new UserError(
    `${sourceName}: machine "${visibleName(existing.label)}" (id ${existing.id}) in the store was exported ${storedAt || 'at an unknown date'} with ${count(storedCount, 'measurement')}; ` +
      `this file, exported ${fileAt} with ${count(file.measurements.length, 'measurement')}, ${verdict}; ` +
      REPLACE_HINT,
  );
}

function unchanged(file: ProfileFile, machine: { id: string; label: string }, note: string): ImportResult {
  return { machineId: machine.id, label: machine.label, action: 'unchanged', counts: fileCounts(file), note };
}

/**
 * This machine's own profile, imported where it is recorded as local: the file's runs that the
 * store lacks are added with their measurements. A run already here is left as it is, and a
 * measurement already stored is kept (the store's is as new as the file's or newer): an older
 * backup never replaces newer data. Predictors stay behind; this machine trains its own.
 */
function mergeIntoLocal(
  profiles: ProfileRepo,
  file: ProfileFile,
  local: MachineDetail,
  byRun: Map<string, Measurement[]>,
  sourceName: string,
): ImportResult {
  for (const r of file.profileRuns) {
    const stored = profiles.getRun(r.id);
    if (stored && stored.machineId !== local.id) {
      throw new UserError(
        `${sourceName}: profile run "${r.id}" of this machine's own profile is stored for machine ${stored.machineId}; profile run ids must be unique`,
      );
    }
  }
  const missing = file.profileRuns.filter((r) => profiles.getRun(r.id) === null);
  if (missing.length === 0) {
    return unchanged(
      file,
      local,
      `${sourceName} is the profile of this machine itself (id ${local.id}) and every run of it is here already`,
    );
  }
  let measurements = 0;
  for (const run of missing) {
    profiles.importRun(local.id, run);
    measurements += profiles.insertMeasurements(run.id, byRun.get(run.id) ?? [], { validated: true }).inserted;
  }
  return {
    machineId: local.id,
    label: local.label,
    action: 'merged',
    counts: { devices: 0, runs: missing.length, measurements, predictors: 0 },
  };
}

/**
 * The content hash is over the canonical text. A file pipeDejavu exported is canonical
 * already: then its bytes are hashed as they are (encoding a 200 MB string to UTF-8
 * again costs seconds here).
 */
export function canonicalHash(file: ProfileFile, text: string, input: string | Uint8Array): string {
  const canonical = canonicalText(file);
  if (typeof input !== 'string' && canonical === text) return createHash('sha256').update(input).digest('hex');
  return contentHash(canonical);
}

/** How far in the future a predictor's training date may lie (clock skew between machines). */
const MAX_CLOCK_SKEW_MS = 24 * 3600_000;

/**
 * Each predictor in the file must load (a malformed one is refused here, not at the
 * next prediction) and must not claim a training date in the future.
 */
function checkPredictors(file: ProfileFile, sourceName: string, now: Date = new Date()): void {
  for (const p of file.predictors) {
    const at = Date.parse(p.trainedAt);
    if (!Number.isFinite(at) || at > now.getTime() + MAX_CLOCK_SKEW_MS) {
      throw new ProfileFileError(
        `${sourceName}: its ${p.name} predictor claims to be trained at ${p.trainedAt}, in the future; the file was not imported`,
      );
    }
    try {
      loadPredictor(p.name, p.model);
    } catch (e) {
      throw new ProfileFileError(
        `${sourceName}: its ${p.name} predictor cannot be loaded (${errorMessage(e)}); the file was not imported`,
      );
    }
  }
}
