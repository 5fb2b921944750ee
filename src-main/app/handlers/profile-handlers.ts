import type { RooflinePoint, RooflineView, RunView } from '../../api/views.js';
import { ProfileRepo } from '../../adapters/store/profile-repo.js';
import { machineFor, rooflines } from '../../services/roofline-service.js';
import { closeAbandonedRuns } from '../../services/profiler-lock.js';
import { startJob } from './start-job.js';
import type { HandlerGroup } from './types.js';

export const profileHandlers: HandlerGroup<'profile:runs' | 'profile:roofline' | 'profile:start'> = {
  'profile:runs': (req, { db }) => {
    const machine = req.machineId ? machineFor(db, req.machineId) : machineFor(db, undefined);
    if (machine.source === 'local') closeAbandonedRuns(db, machine.id);
    const repo = new ProfileRepo(db);
    const counts = new Map<string, number>();
    for (const m of repo.listMeasurements({ machineId: machine.id }))
      counts.set(m.runId, (counts.get(m.runId) ?? 0) + 1);
    return repo
      .listRuns(machine.id)
      .map(({ machineId: _m, heartbeatAt: _h, ...run }): RunView => ({ ...run, measurements: counts.get(run.id) ?? 0 }))
      .reverse();
  },
  'profile:roofline': (req, { db }) => {
    const machine = machineFor(db, req.machineId);
    const ms = new ProfileRepo(db).listMeasurements({ machineId: machine.id }).filter((m) => m.source === 'profile');
    return rooflines(db, machine.id).map((r): RooflineView => {
      const points = ms
        .filter(
          (m) => m.deviceKey === r.deviceKey && m.executionProvider === r.executionProvider && m.threads === r.threads,
        )
        .map((m): RooflinePoint => {
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
        });
      return { ...r, points };
    });
  },
  'profile:start': (req, deps) => startJob(deps, 'profile', req, `${req.device}, ${req.suite} suite`),
};
