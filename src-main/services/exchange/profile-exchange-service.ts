/**
 * Hardware profiles as files: export one stored machine, import a file into the
 * store. Import validates everything before it writes, and writes in one
 * transaction; export of an imported machine reproduces its file byte for byte.
 */
import { createHash } from 'node:crypto';
import { canonicalText, decodeProfile, encodeProfile, ProfileFileError } from '../../core/profile-file/codec.js';
import {
  LIMITS,
  PROFILE_FORMAT,
  PROFILE_FORMAT_VERSION,
  REPLACE_HINT,
  ProvenanceSchema,
  type ProfileFile,
  type Provenance,
} from '../../core/profile-file/schema.js';
import type { Device } from '../../core/domain/devices.js';
import { measuredOp, type Measurement, type ProfileRun } from '../../core/domain/measurement.js';
import { groupBy } from '../../core/util/group-by.js';
import { UserError, errorMessage } from '../../core/errors.js';
import { controlCharProblem, quoted, visibleName } from '../../core/text/shown.js';
import { count } from '../../core/text/plural.js';
import { loadPredictor } from '../../core/predictor/registry.js';
import { TOOL_VERSION } from '../../core/version.js';
import { MachineRepo, type MachineDetail } from '../../adapters/store/machine-repo.js';
import { ProfileRepo } from '../../adapters/store/profile-repo.js';
import { PredictorRepo } from '../../adapters/store/predictor-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { writeTransaction } from '../../adapters/store/write-transaction.js';

export interface ExportDeps {
  now: () => Date;
  runtimes: Record<string, string>;
  /**
   * Take the machine's trained predictors along (a forest can be tens of MB of JSON). Default:
   * no; the other side trains its own from the measurements.
   */
  withPredictors?: boolean;
}

export interface ExportResult {
  text: string;
  machineId: string;
  label: string;
  counts: { devices: number; runs: number; measurements: number; predictors: number };
}

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
  counts: ExportResult['counts'];
  note?: string;
}

function contentHash(canonicalText: string): string {
  return createHash('sha256').update(canonicalText).digest('hex');
}

/** The machine to export when none is named: the local one. */
function pickMachine(repo: MachineRepo, machineId: string | undefined): MachineDetail {
  if (machineId) {
    const byId = repo.getMachine(machineId);
    if (byId) return byId;
    const byLabel = repo.listMachines().filter((x) => x.label === machineId);
    if (byLabel.length > 1)
      throw new UserError(`several machines are labelled ${quoted(machineId)}; name one by its id`);
    const detail = byLabel[0] ? repo.getMachine(byLabel[0].id) : null;
    if (!detail) throw new UserError(`no machine ${quoted(machineId)} in the store; see pipedejavu machines`);
    return detail;
  }
  const local = repo.listMachines().filter((m) => m.source === 'local');
  const first = local[0];
  if (!first) throw new UserError('no machine recorded yet: run `pipedejavu probe` first (or name one with --machine)');
  if (local.length > 1) throw new UserError('several local machines in the store; name one with --machine ID');
  const detail = repo.getMachine(first.id);
  if (!detail) throw new UserError(`machine ${first.id} vanished from the store`);
  return detail;
}

/**
 * Devices measured but not found by the probe (a WebGPU adapter is the same GPU seen
 * through another runtime) still need an entry, so the file stays self-consistent.
 */
function withReferencedDevices(devices: Device[], runs: ProfileRun[]): Device[] {
  const keys = new Set(devices.map((d) => d.key));
  const extra: Device[] = [];
  for (const r of runs) {
    if (keys.has(r.deviceKey)) continue;
    keys.add(r.deviceKey);
    extra.push({
      key: r.deviceKey,
      kind: 'gpu',
      name: `${r.executionProvider} adapter ${r.deviceKey}`,
      memoryBytes: null,
    });
  }
  return [...devices, ...extra];
}

function byStartThenId(a: ProfileRun, b: ProfileRun): number {
  return a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function buildProfileFile(db: Database, machineId: string | undefined, deps: ExportDeps): ProfileFile {
  const machines = new MachineRepo(db);
  const profiles = new ProfileRepo(db);
  const m = pickMachine(machines, machineId);
  const runs: ProfileRun[] = profiles
    .listRuns(m.id)
    .map((r) => ({
      id: r.id,
      deviceKey: r.deviceKey,
      suite: r.suite,
      executionProvider: r.executionProvider,
      threads: r.threads,
      runtimeVersion: r.runtimeVersion,
      status: r.status,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      summary: r.summary,
      notes: r.notes,
    }))
    .sort(byStartThenId);
  const runOrder = new Map(runs.map((r, i) => [r.id, i]));
  const measurements: Measurement[] = profiles
    .listMeasurements({ machineId: m.id })
    .map((x) => ({
      runId: x.runId,
      deviceKey: x.deviceKey,
      ...measuredOp(x),
      executionProvider: x.executionProvider,
      threads: x.threads,
      runtimeVersion: x.runtimeVersion,
      stats: x.stats,
      source: x.source,
    }))
    // Stable: by run order, then as stored (insertion order).
    .map((x, i) => ({ x, i }))
    .sort((a, b) => (runOrder.get(a.x.runId) ?? 0) - (runOrder.get(b.x.runId) ?? 0) || a.i - b.i)
    .map(({ x }) => x);
  const stored = m.source === 'imported' ? ProvenanceSchema.safeParse(m.provenance) : null;
  const provenance: Provenance =
    stored?.success === true
      ? stored.data
      : {
          tool: 'pipedejavu',
          toolVersion: TOOL_VERSION,
          exportedAt: deps.now().toISOString(),
          runtimes: deps.runtimes,
        };
  return {
    format: PROFILE_FORMAT,
    formatVersion: PROFILE_FORMAT_VERSION,
    provenance,
    machine: { id: m.id, label: m.label, probe: m.probe },
    devices: withReferencedDevices(
      m.devices.map((d) => ({ key: d.key, kind: d.kind, name: d.name, memoryBytes: d.memoryBytes })),
      runs,
    ),
    links: m.links,
    profileRuns: runs,
    measurements,
    // On request, the newest predictor of each name trained here travels with the machine.
    predictors: (deps.withPredictors ? latestByName(new PredictorRepo(db).listForMachine(m.id)) : []).map((p) => ({
      name: p.name,
      version: p.version,
      kind: p.kind,
      trainedAt: p.trainedAt,
      trainingSet: p.trainingSet,
      report: p.report,
      model: p.model,
    })),
  };
}

function latestByName<T extends { name: string }>(rows: readonly T[]): T[] {
  const last = new Map<string, T>();
  for (const r of rows) last.set(r.name, r);
  return [...last.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The counts a profile file may hold (LIMITS); an export past one would be a file import refuses. */
const EXPORT_CAPS = [
  ['measurements', (f: ProfileFile) => f.measurements.length, LIMITS.maxMeasurements, 'LIMITS.maxMeasurements'],
  ['profile runs', (f: ProfileFile) => f.profileRuns.length, LIMITS.maxRuns, 'LIMITS.maxRuns'],
  ['devices', (f: ProfileFile) => f.devices.length, LIMITS.maxDevices, 'LIMITS.maxDevices'],
  ['links', (f: ProfileFile) => f.links.length, LIMITS.maxLinks, 'LIMITS.maxLinks'],
  ['predictors', (f: ProfileFile) => f.predictors.length, LIMITS.maxPredictors, 'LIMITS.maxPredictors'],
] as const;

export function refuseOverCaps(file: ProfileFile): void {
  for (const [what, of, cap, name] of EXPORT_CAPS) {
    const n = of(file);
    if (n > cap) {
      throw new UserError(
        `machine ${JSON.stringify(visibleName(file.machine.label))} has ${n} ${what}, more than a hardware profile holds (${cap}, ${name}); import would refuse the file, so it was not written`,
      );
    }
  }
}

export function exportProfile(db: Database, machineId: string | undefined, deps: ExportDeps): ExportResult {
  const file = buildProfileFile(db, machineId, deps);
  refuseOverCaps(file);
  return {
    text: encodeProfile(file),
    machineId: file.machine.id,
    label: file.machine.label,
    counts: {
      devices: file.devices.length,
      runs: file.profileRuns.length,
      measurements: file.measurements.length,
      predictors: file.predictors.length,
    },
  };
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
  const problem = controlCharProblem(what, label);
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

function fileCounts(file: ProfileFile): ExportResult['counts'] {
  return {
    devices: file.devices.length,
    runs: file.profileRuns.length,
    measurements: file.measurements.length,
    predictors: file.predictors.length,
  };
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
