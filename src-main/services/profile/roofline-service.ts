/** Measured rooflines of a machine's devices, from its stored measurements. */
import { summarizeDevice } from '../../core/profiler/device-summary.js';
import { cpuPeak, type CpuPeak, type MeasuredCpuPeak } from '../../core/profiler/cpu-peak.js';
import { ProfileRepo, type StoredMeasurement } from '../../adapters/store/profile-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { machineFor } from '../machine/machine-service.js';
import { deviceBlasPool, deviceOverhead, type DeviceRuns } from '../workload/stored-device-figures.js';
import { ownBlasPool } from '../../core/profiler/blas-pool.js';
import { deviceRunUs, type MeasuredOverhead } from '../../core/profiler/overhead.js';
import type { RooflinePoint } from '../../core/domain/roofline-point.js';
import { groupBy } from '../../core/util/group-by.js';
import { deviceIdLabel, deviceIdOf, type DeviceId } from '../../core/domain/device-id.js';

export interface Roofline {
  /** The profiled device (one per thread count): what lists of rooflines key on. */
  id: DeviceId;
  /** For people: "CPU, 2 threads". */
  label: string;
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
  summary: ReturnType<typeof summarizeDevice>;
  /** The CPU's theoretical fp32 peak at these threads (core/profiler/cpu-peak.ts); null for GPUs. */
  theoreticalPeak: CpuPeak | null;
  /** What a run costs beyond its kernels, from the profile's overhead step; null when not measured. */
  overhead: MeasuredOverhead | null;
}

function measuredOverhead(db: Database, device: DeviceRuns): MeasuredOverhead | null {
  const o = deviceOverhead(db, device);
  if (!o) return null;
  return {
    runUs: deviceRunUs(o),
    nodeUs: o.nodeUs,
    binding: o.binding ? { perCallUs: o.binding.perCallUs, usPerMiB: (o.binding.nsPerByte * 2 ** 20) / 1000 } : null,
    wakeUs: o.wakeUs,
    parallelOpUs: o.parallelOpUs,
  };
}

function rooflinePoint(m: StoredMeasurement): RooflinePoint {
  const t = m.stats.medianUs;
  return {
    kernel: `${m.op} ${Object.entries(m.shape)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} ${m.dtype}`,
    family: m.family,
    op: m.op,
    dtype: m.dtype,
    flops: m.flops,
    bytes: m.bytes,
    timeUs: t,
    gflops: m.flops / t / 1000,
    gbps: m.bytes / t / 1000,
    intensity: m.bytes > 0 ? m.flops / m.bytes : 0,
  };
}

/** The rooflines of a machine (id or label; this one when none is named), each with its profiled kernels. */
export function rooflinesWithPoints(db: Database, machineId?: string): (Roofline & { points: RooflinePoint[] })[] {
  const machine = machineFor(db, machineId);
  const ms = new ProfileRepo(db).listMeasurements({ machineId: machine.id }).filter((m) => m.source === 'profile');
  return rooflines(db, machine.id).map((r) => {
    const points = ms
      .filter(
        (m) => m.deviceKey === r.deviceKey && m.executionProvider === r.executionProvider && m.threads === r.threads,
      )
      .map(rooflinePoint);
    return { ...r, points };
  });
}

/**
 * The fp32 peaks measured on the CPU, one per thread count: what the theoretical peak is judged against.
 * PyTorch's products on a BLAS pool of their own ran on that pool's threads, whatever PyTorch's count.
 */
function measuredCpuPeaks(
  db: Database,
  machineId: string,
  rows: readonly Omit<Roofline, 'theoreticalPeak'>[],
): MeasuredCpuPeak[] {
  return rows.flatMap((r) => {
    const g = r.summary.peakGflops.fp32;
    if (r.deviceKey !== 'cpu' || g === undefined) return [];
    const pool = r.executionProvider === 'torch-cpu' ? deviceBlasPool(db, { ...r, machineId }) : null;
    const threads = ownBlasPool(pool) && r.threads !== null ? Math.max(r.threads, pool.threads) : r.threads;
    return [{ gflops: g, threads }];
  });
}

/** The theoretical fp32 peak of a machine's whole CPU, as the Workstation view and `probe` show it. */
export function machineCpuPeak(db: Database, machineId?: string): CpuPeak {
  const machine = machineFor(db, machineId);
  return cpuPeak(machine.probe.cpu, null, measuredCpuPeaks(db, machine.id, rooflines(db, machine.id, 'cpu')));
}

export function rooflines(db: Database, machineId?: string, device?: string): Roofline[] {
  const machine = machineFor(db, machineId);
  const ms = new ProfileRepo(db)
    .listMeasurements({ machineId: machine.id, ...(device ? { deviceKey: device } : {}) })
    .filter((m) => m.source === 'profile');
  const groups = groupBy(ms, (m) => `${m.deviceKey}|${m.executionProvider}|${m.threads ?? ''}`);
  const rows = [...groups.values()].map((g) => {
    const first = g[0] as (typeof ms)[number];
    return {
      id: deviceIdOf(first),
      label: deviceIdLabel(first),
      deviceKey: first.deviceKey,
      executionProvider: first.executionProvider,
      threads: first.threads,
      summary: summarizeDevice(g),
      overhead: measuredOverhead(db, {
        machineId: machine.id,
        deviceKey: first.deviceKey,
        executionProvider: first.executionProvider,
        threads: first.threads,
      }),
    };
  });
  // Every CPU row is judged against the peaks of all the CPU's thread counts.
  const measured = measuredCpuPeaks(db, machine.id, rows);
  return rows
    .map((r) => ({
      ...r,
      theoreticalPeak: r.deviceKey === 'cpu' ? cpuPeak(machine.probe.cpu, r.threads, measured) : null,
    }))
    .sort((a, b) => a.deviceKey.localeCompare(b.deviceKey) || (a.threads ?? 0) - (b.threads ?? 0));
}
