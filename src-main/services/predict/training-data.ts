/**
 * Training samples from the store: every stored measurement with the features of
 * the device it ran on (measured summary + probe). A device here is (machine,
 * device, execution provider, thread count): one CPU at 1 and at 8 threads counts
 * as two devices.
 */
import { summarizeDevice } from '../../core/profiler/device-summary.js';
import type { DeviceFeatures, Sample } from '../../core/predictor/types.js';
import type { ProbeResult } from '../../core/domain/hardware.js';
import { groupBy } from '../../core/util/group-by.js';
import { machineDeviceId, type MachineDeviceId } from '../../core/domain/device-id.js';
import { measuredOp } from '../../core/domain/measurement.js';
import { NOISY_CV } from '../../core/profiler/timing-stats.js';
import { COMPUTE_FAMILIES, MEMORY_FAMILIES } from '../../core/kernels/types.js';
import { MachineRepo } from '../../adapters/store/machine-repo.js';
import { ProfileRepo, type StoredMeasurement } from '../../adapters/store/profile-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { conditionsWarningOf } from '../profile/run-conditions-service.js';

export interface DeviceGroup {
  deviceId: MachineDeviceId;
  machineId: string;
  machineLabel: string;
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
  features: DeviceFeatures;
  measurements: number;
  /** What the device's features could not take from its measured roofline, and what stands in (fallbackFigures). */
  warnings: string[];
}

export interface TrainingData {
  readonly samples: readonly Sample[];
  readonly devices: readonly DeviceGroup[];
  /**
   * Chains of distinct GEMVs (MatMul `distinct`): no kernel a node is priced from, so kept out of
   * `samples`; the decode model's streaming bandwidth (generation-service.ts).
   */
  readonly streams: readonly Sample[];
}

/** The best of `rate` over `ms`, or null when none gives a positive finite one. */
function best(ms: readonly StoredMeasurement[], rate: (m: StoredMeasurement) => number): number | null {
  const rates = ms.map(rate).filter((r) => Number.isFinite(r) && r > 0);
  return rates.length ? Math.max(...rates) : null;
}

/** How a device is named in a warning: "cpu (2 threads)". */
function who(deviceKey: string, threads: number | null): string {
  return `${deviceKey}${threads === null ? '' : ` (${threads} ${threads === 1 ? 'thread' : 'threads'})`}`;
}

/** The command that measures a device's missing kernels (profiles resume). */
function profileCommand(deviceKey: string, ep: string, threads: number | null): string {
  const torch = ep.startsWith('torch-') ? ' --backend torch' : '';
  return `pipedejavu profile --device ${deviceKey}${threads === null ? '' : ` --threads ${threads}`}${torch}`;
}

/**
 * The fp32 peak and bandwidth of a device whose measured roofline lacks one: the best any
 * measured kernel achieved (small compute kernels, memory-bound kernels that fit in cache,
 * then any kernel), each with a warning. Null when nothing measured gives a figure at all.
 */
function fallbackFigures(
  ms: readonly StoredMeasurement[],
  s: { peakFp32: number | null; bandwidthGBps: number | null },
  device: { deviceKey: string; executionProvider: string; threads: number | null },
): { peakFp32: number; bandwidthGBps: number; warnings: string[] } | null {
  const gflops = (m: StoredMeasurement): number => m.flops / m.stats.medianUs / 1000;
  const gbps = (m: StoredMeasurement): number => m.bytes / m.stats.medianUs / 1000;
  const peak =
    s.peakFp32 ??
    best(
      ms.filter((m) => COMPUTE_FAMILIES.has(m.family) && m.dtype === 'fp32'),
      gflops,
    ) ??
    best(ms, gflops);
  const bandwidth =
    s.bandwidthGBps ??
    best(
      ms.filter((m) => MEMORY_FAMILIES.has(m.family)),
      gbps,
    ) ??
    best(ms, gbps);
  if (peak === null || bandwidth === null) return null;
  const fix = `\`${profileCommand(device.deviceKey, device.executionProvider, device.threads)}\` measures it (profiles resume)`;
  const name = who(device.deviceKey, device.threads);
  const warnings: string[] = [];
  if (s.peakFp32 === null)
    warnings.push(
      `${name}: fp32 peak not measured (no large GEMM, conv or attention kernel stored); using ${peak.toFixed(1)} GFLOP/s from smaller kernels, likely too low; ${fix}`,
    );
  if (s.bandwidthGBps === null)
    warnings.push(
      `${name}: memory bandwidth not measured (no memory-bound kernel of 32 MiB or more stored); using ${bandwidth.toFixed(1)} GB/s from smaller kernels, likely too high; ${fix}`,
    );
  return { peakFp32: peak, bandwidthGBps: bandwidth, warnings };
}

function featuresFor(
  id: MachineDeviceId,
  first: StoredMeasurement,
  probe: ProbeResult,
  ms: StoredMeasurement[],
): { features: DeviceFeatures; warnings: string[] } | null {
  const { deviceKey, threads } = first;
  const s = summarizeDevice(ms);
  const figures = fallbackFigures(
    ms,
    { peakFp32: s.peakGflops.fp32 || null, bandwidthGBps: s.bandwidthGBps || null },
    first,
  );
  if (!figures) return null;
  const gpu = deviceKey.startsWith('cuda:')
    ? probe.nvidia.gpus.find((g) => `cuda:${g.index}` === deviceKey)
    : undefined;
  const isGpu = deviceKey !== 'cpu';
  const features: DeviceFeatures = {
    deviceId: id,
    kind: isGpu ? 'gpu' : 'cpu',
    peakGflops: { ...s.peakGflops, fp32: figures.peakFp32 },
    bandwidthGBps: figures.bandwidthGBps,
    dispatchUs: s.dispatchOverheadUs ?? 0,
    threads,
    l2Bytes: isGpu ? null : probe.cpu.cacheBytes.l2,
    l3Bytes: isGpu ? null : probe.cpu.cacheBytes.l3,
    smCount: null,
    smClockMHz: gpu?.maxSmClockMHz ?? null,
  };
  return { features, warnings: figures.warnings };
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
  const frozen: TrainingData = {
    samples: Object.freeze(data.samples.filter((x) => !x.shape['distinct'])),
    devices: Object.freeze(data.devices),
    streams: Object.freeze(data.samples.filter((x) => x.shape['distinct'])),
  };
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
    const runs = profiles.listRuns(m.id);
    const suiteOf = new Map(runs.map((r) => [r.id, r.suite]));
    const groups = groupBy(profiles.listMeasurements({ machineId: m.id }), (x) =>
      machineDeviceId(m.id, x.deviceKey, x.executionProvider, x.threads),
    );
    for (const [id, ms] of groups) {
      const first = ms[0] as StoredMeasurement;
      const found = featuresFor(
        id,
        first,
        detail.probe,
        ms.filter((x) => x.source === 'profile'),
      );
      if (!found) continue;
      const { features, warnings } = found;
      devices.push({
        deviceId: id,
        machineId: m.id,
        machineLabel: m.label,
        deviceKey: first.deviceKey,
        executionProvider: first.executionProvider,
        threads: first.threads,
        features,
        measurements: ms.length,
        // A profile taken while other work ran says so in every prediction from it (run-conditions-service.ts).
        warnings: [...warnings, ...conditionsWarningOf(runs, first)],
      });
      for (const x of ms) {
        samples.push({
          ...measuredOp(x),
          device: features,
          timeUs: x.stats.medianUs,
          origin: x.source === 'model' ? (suiteOf.get(x.runId) ?? 'model') : 'profile',
          ...(x.stats.cv > NOISY_CV ? { noisy: true } : {}),
        });
      }
    }
  }
  return { samples, devices };
}
