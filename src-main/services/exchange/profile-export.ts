/**
 * A stored machine as a hardware profile file: its probe, devices, links, runs and measurements
 * (and, on request, its newest predictors), checked against the counts a file may hold. An
 * imported machine is exported with the provenance it came with, so its file comes back byte for
 * byte.
 */
import { encodeProfile } from '../../core/profile-file/codec.js';
import {
  LIMITS,
  PROFILE_FORMAT,
  PROFILE_FORMAT_VERSION,
  ProvenanceSchema,
  type ProfileFile,
  type Provenance,
} from '../../core/profile-file/schema.js';
import type { Device } from '../../core/domain/devices.js';
import { measuredOp, type Measurement, type ProfileRun } from '../../core/domain/measurement.js';
import { UserError } from '../../core/errors.js';
import { countMeasurements, type MeasurementCounts } from '../../core/profiler/kernel-counts.js';
import { quoted, visibleName } from '../../core/text/shown.js';
import { TOOL_VERSION } from '../../core/version.js';
import { MachineRepo, type MachineDetail } from '../../adapters/store/machine-repo.js';
import { ProfileRepo } from '../../adapters/store/profile-repo.js';
import { PredictorRepo } from '../../adapters/store/predictor-repo.js';
import type { Database } from '../../adapters/store/types.js';

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
  counts: ExportCounts;
}

/** What an import added or a profile file holds, counted. */
export interface ProfileCounts {
  devices: number;
  runs: number;
  measurements: number;
  predictors: number;
}

/** What a profile file holds, counted; its measurements also by kind (kernels, reorders, model nodes: kernel-counts.ts). */
export interface ExportCounts extends ProfileCounts {
  measured: MeasurementCounts;
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
    counts: fileCounts(file),
  };
}

/** What a profile file holds, counted. */
export function fileCounts(file: ProfileFile): ExportCounts {
  return {
    devices: file.devices.length,
    runs: file.profileRuns.length,
    measurements: file.measurements.length,
    measured: countMeasurements(file.measurements),
    predictors: file.predictors.length,
  };
}
