/** Measured rooflines of a machine's devices, from its stored measurements. */
import { summarizeDevice } from '../core/profiler/device-summary.js';
import type { ProbeResult } from '../core/domain/hardware.js';
import { MachineRepo, type MachineDetail } from '../adapters/store/machine-repo.js';
import { ProfileRepo } from '../adapters/store/profile-repo.js';
import type { Database } from '../adapters/store/types.js';
import { UserError } from '../core/errors.js';

export interface Roofline {
  deviceKey: string;
  executionProvider: string;
  threads: number | null;
  summary: ReturnType<typeof summarizeDevice>;
  /** cores used x clock x FLOPs per cycle from the ISA; null for GPUs (datasheets come later). */
  theoreticalGflops: number | null;
}

export function theoreticalCpuGflops(probe: ProbeResult, threads: number | null): number | null {
  const ghz = probe.cpu.maxClockGHz ?? probe.cpu.baseClockGHz;
  if (ghz === null) return null;
  const cores = Math.min(threads ?? probe.cpu.physicalCores, probe.cpu.physicalCores);
  return cores * ghz * probe.cpu.fp32FlopsPerCycle;
}

export function machineFor(db: Database, machineId: string | undefined): MachineDetail {
  const repo = new MachineRepo(db);
  const list = repo.listMachines();
  const pick = machineId
    ? list.find((m) => m.id === machineId || m.label === machineId)
    : list.find((m) => m.source === 'local');
  if (!pick) {
    throw new UserError(
      machineId ? `no machine "${machineId}" in the store` : 'no machine recorded yet: run `pipedejavu profile` first',
    );
  }
  const detail = repo.getMachine(pick.id);
  if (!detail) throw new UserError(`machine ${pick.id} vanished from the store`);
  return detail;
}

export function rooflines(db: Database, machineId?: string, device?: string): Roofline[] {
  const machine = machineFor(db, machineId);
  const ms = new ProfileRepo(db)
    .listMeasurements({ machineId: machine.id, ...(device ? { deviceKey: device } : {}) })
    .filter((m) => m.source === 'profile');
  const groups = new Map<string, typeof ms>();
  for (const m of ms) {
    const key = `${m.deviceKey}|${m.executionProvider}|${m.threads ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()]
    .map((g) => {
      const first = g[0] as (typeof ms)[number];
      return {
        deviceKey: first.deviceKey,
        executionProvider: first.executionProvider,
        threads: first.threads,
        summary: summarizeDevice(g),
        theoreticalGflops: first.deviceKey === 'cpu' ? theoreticalCpuGflops(machine.probe, first.threads) : null,
      };
    })
    .sort((a, b) => a.deviceKey.localeCompare(b.deviceKey) || (a.threads ?? 0) - (b.threads ?? 0));
}
