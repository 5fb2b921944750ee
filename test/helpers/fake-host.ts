/** A fake host for the profiler's run conditions: CPU times that move with its sleeps and with the kernels run on it. */
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../src-main/adapters/store/machine-repo.js';
import type { Database } from '../../src-main/adapters/store/types.js';
import { devicesFromProbe, linksFromProbe } from '../../src-main/core/domain/devices.js';
import type { RunOutcome } from '../../src-main/adapters/ort/protocol.js';
import type { CpuTimes } from '../../src-main/core/profiler/run-conditions.js';
import type { KernelRunnerLike } from '../../src-main/services/profile/profiler-types.js';
import { sampleProbe } from './sample-probe.js';

/**
 * A 2-CPU host whose other work keeps `load(window)` CPUs busy in each 1 s reading window (the
 * profiler's sleeps) and whose hypervisor steals `steal` of the time our kernels run.
 */
export function fakeHost(load: (window: number) => number, steal = 0) {
  const t: CpuTimes = { busy: 0, steal: 0, total: 0, cpus: 2 };
  let windows = 0;
  return {
    windows: () => windows,
    cpuTimes: (): CpuTimes => ({ ...t }),
    sleep: async (ms: number): Promise<void> => {
      t.total += 2 * ms;
      t.busy += load(windows++) * ms;
    },
    /** A kernel ran for `ms` on both CPUs. */
    run(ms: number): void {
      t.total += 2 * ms;
      t.steal += 2 * ms * steal;
      t.busy += 2 * ms * (1 - steal);
    },
  };
}

export function runnerOn(host: ReturnType<typeof fakeHost>): KernelRunnerLike {
  return {
    start: async () => ({ ortVersion: '9.9.9', backends: [] }),
    run: async (): Promise<RunOutcome> => {
      host.run(10);
      const samples = Array.from({ length: 20 }, (_, i) => 10 + (i % 2) * 0.1);
      return {
        id: 0,
        ok: true,
        kernelUs: samples,
        wallUs: samples,
        providers: [],
        byOpUs: {},
        nodeOps: {},
        stop: 'converged',
        sessionCreateMs: 1,
      };
    },
    kill: () => undefined,
    close: async () => undefined,
  };
}

/** A store that knows machine m1 (the sample probe's). */
export function freshDb(): Database {
  const db = openDatabase(':memory:');
  const probe = sampleProbe();
  new MachineRepo(db).upsertLocalMachine(probe, 'm1', devicesFromProbe(probe), linksFromProbe(probe));
  return db;
}
