/**
 * Training samples from the store: every stored measurement with the features of
 * the device it ran on (measured summary + probe). A device here is (machine,
 * device, execution provider, thread count): one CPU at 1 and at 8 threads counts
 * as two devices.
 */
import { summarizeDevice } from '../core/profiler/device-summary.js';
import type { DeviceFeatures, Sample } from '../core/predictor/types.js';
import type { ProbeResult } from '../core/domain/hardware.js';
import { MachineRepo } from '../adapters/store/machine-repo.js';
import { ProfileRepo, type StoredMeasurement } from '../adapters/store/profile-repo.js';
import type { Database } from '../adapters/store/types.js';

export interface DeviceGroup {
  deviceId: string;
  machineId: string;
  machineLabel: string;
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
  features: DeviceFeatures;
  measurements: number;
}

export interface TrainingData {
  readonly samples: readonly Sample[];
  readonly devices: readonly DeviceGroup[];
}

export function deviceId(machineId: string, deviceKey: string, ep: string, threads: number | null): string {
  return `${machineId}/${deviceKey}/${ep}${threads === null ? '' : `/${threads}t`}`;
}

function featuresFor(
  id: string,
  deviceKey: string,
  threads: number | null,
  probe: ProbeResult,
  ms: StoredMeasurement[],
): DeviceFeatures | null {
  const s = summarizeDevice(ms);
  if (!s.peakGflops.fp32 || !s.bandwidthGBps) return null;
  const gpu = deviceKey.startsWith('cuda:')
    ? probe.nvidia.gpus.find((g) => `cuda:${g.index}` === deviceKey)
    : undefined;
  const isGpu = deviceKey !== 'cpu';
  return {
    deviceId: id,
    kind: isGpu ? 'gpu' : 'cpu',
    peakGflops: s.peakGflops,
    bandwidthGBps: s.bandwidthGBps,
    dispatchUs: s.dispatchOverheadUs ?? 0,
    threads,
    l2Bytes: isGpu ? null : probe.cpu.cacheBytes.l2,
    l3Bytes: isGpu ? null : probe.cpu.cacheBytes.l3,
    smCount: null,
    smClockMHz: gpu?.maxSmClockMHz ?? null,
  };
}

/**
 * What the store holds changed: SQLite's data_version (bumped by other connections' commits)
 * and this connection's total_changes() (every row it inserted, updated or deleted).
 */
function changeStamp(db: Database): string {
  const version = db.pragma('data_version', { simple: true }) as number;
  const own = (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  return `${version}:${own}`;
}

/** Loads per store and machine filter, kept while the store's change stamp stays the same. */
const loads = new WeakMap<Database, { stamp: string; byFilter: Map<string, TrainingData> }>();

/**
 * Every stored measurement as a training sample, with its device's features. One prediction
 * asks for these several times (the device, the predictor's anchors, the 1-thread sibling, a
 * planner's candidates), and a store of a few thousand measurements took 15-47 ms a load, so
 * a load is kept until the store changes. Callers share the arrays: they are frozen.
 */
export function loadTrainingData(db: Database, opts: { machineId?: string } = {}): TrainingData {
  const stamp = changeStamp(db);
  let entry = loads.get(db);
  if (!entry || entry.stamp !== stamp) {
    entry = { stamp, byFilter: new Map() };
    loads.set(db, entry);
  }
  const key = opts.machineId ?? '';
  const kept = entry.byFilter.get(key);
  if (kept) return kept;
  const data = readTrainingData(db, opts);
  const frozen: TrainingData = { samples: Object.freeze(data.samples), devices: Object.freeze(data.devices) };
  entry.byFilter.set(key, frozen);
  return frozen;
}

function readTrainingData(db: Database, opts: { machineId?: string }): { samples: Sample[]; devices: DeviceGroup[] } {
  const machines = new MachineRepo(db);
  const profiles = new ProfileRepo(db);
  const samples: Sample[] = [];
  const devices: DeviceGroup[] = [];
  for (const m of machines.listMachines()) {
    if (opts.machineId && m.id !== opts.machineId) continue;
    const detail = machines.getMachine(m.id);
    if (!detail) continue;
    const suiteOf = new Map(profiles.listRuns(m.id).map((r) => [r.id, r.suite]));
    const groups = new Map<string, StoredMeasurement[]>();
    for (const x of profiles.listMeasurements({ machineId: m.id })) {
      const id = deviceId(m.id, x.deviceKey, x.executionProvider, x.threads);
      groups.set(id, [...(groups.get(id) ?? []), x]);
    }
    for (const [id, ms] of groups) {
      const first = ms[0] as StoredMeasurement;
      const features = featuresFor(
        id,
        first.deviceKey,
        first.threads,
        detail.probe,
        ms.filter((x) => x.source === 'profile'),
      );
      if (!features) continue;
      devices.push({
        deviceId: id,
        machineId: m.id,
        machineLabel: m.label,
        deviceKey: first.deviceKey,
        executionProvider: first.executionProvider,
        threads: first.threads,
        features,
        measurements: ms.length,
      });
      for (const x of ms) {
        samples.push({
          op: x.op,
          family: x.family,
          shape: x.shape,
          dtype: x.dtype,
          flops: x.flops,
          bytes: x.bytes,
          device: features,
          timeUs: x.stats.medianUs,
          origin: x.source === 'model' ? (suiteOf.get(x.runId) ?? 'model') : 'profile',
        });
      }
    }
  }
  return { samples, devices };
}
