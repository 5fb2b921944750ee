/** Measured rooflines of a machine's devices, from its stored measurements. */
import { summarizeDevice } from '../../core/profiler/device-summary.js';
import type { ProbeResult } from '../../core/domain/hardware.js';
import { ProfileRepo, type StoredMeasurement } from '../../adapters/store/profile-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { machineFor } from '../machine/machine-service.js';
import { deviceOverhead, type DeviceRuns } from '../workload/stored-device-figures.js';
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
  /**
   * cores used x clock x FLOPs per cycle from the ISA; null for GPUs (datasheets come later), and
   * when the measured peak is above it (the clock the OS reports is not the cores' real one).
   */
  theoreticalGflops: number | null;
  /** Why there is no theoretical peak although the CPU's clock is known; null otherwise. */
  theoreticalNote: string | null;
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
  };
}

/** The theoretical fp32 peak, unless the measured one is above it: then null and why. */
export function theoreticalOf(
  probe: ProbeResult,
  threads: number | null,
  measured: number | undefined,
): { theoreticalGflops: number | null; theoreticalNote: string | null } {
  const theo = theoreticalCpuGflops(probe, threads);
  if (theo === null || measured === undefined || measured <= theo)
    return { theoreticalGflops: theo, theoreticalNote: null };
  const ghz = probe.cpu.maxClockGHz ?? probe.cpu.baseClockGHz;
  return {
    theoreticalGflops: null,
    theoreticalNote:
      `cpu${threads ? ` at ${threads} thread${threads === 1 ? '' : 's'}` : ''}: the measured fp32 peak (${measured.toFixed(0)} GFLOP/s) is above ` +
      `cores x the clock the OS reports (${ghz === null ? '?' : Number(ghz.toFixed(2))} GHz) x ${probe.cpu.fp32FlopsPerCycle} FLOP/cycle (${theo.toFixed(0)} GFLOP/s): ` +
      'the cores run faster than reported (a virtual machine often reports a nominal clock), so the theoretical peak is unknown',
  };
}

export function theoreticalCpuGflops(probe: ProbeResult, threads: number | null): number | null {
  const ghz = probe.cpu.maxClockGHz ?? probe.cpu.baseClockGHz;
  if (ghz === null) return null;
  const cores = Math.min(threads ?? probe.cpu.physicalCores, probe.cpu.physicalCores);
  return cores * ghz * probe.cpu.fp32FlopsPerCycle;
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

export function rooflines(db: Database, machineId?: string, device?: string): Roofline[] {
  const machine = machineFor(db, machineId);
  const ms = new ProfileRepo(db)
    .listMeasurements({ machineId: machine.id, ...(device ? { deviceKey: device } : {}) })
    .filter((m) => m.source === 'profile');
  const groups = groupBy(ms, (m) => `${m.deviceKey}|${m.executionProvider}|${m.threads ?? ''}`);
  return [...groups.values()]
    .map((g) => {
      const first = g[0] as (typeof ms)[number];
      const summary = summarizeDevice(g);
      return {
        id: deviceIdOf(first),
        label: deviceIdLabel(first),
        deviceKey: first.deviceKey,
        executionProvider: first.executionProvider,
        threads: first.threads,
        summary,
        overhead: measuredOverhead(db, {
          machineId: machine.id,
          deviceKey: first.deviceKey,
          executionProvider: first.executionProvider,
          threads: first.threads,
        }),
        ...(first.deviceKey === 'cpu'
          ? theoreticalOf(machine.probe, first.threads, summary.peakGflops.fp32)
          : { theoreticalGflops: null, theoreticalNote: null }),
      };
    })
    .sort((a, b) => a.deviceKey.localeCompare(b.deviceKey) || (a.threads ?? 0) - (b.threads ?? 0));
}
