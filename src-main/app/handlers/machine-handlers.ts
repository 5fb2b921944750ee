import type { ComparisonView, ImportView, MachineSummaryView, MachineView } from '../../api/view-models.js';
import { UserError } from '../../core/errors.js';
import type { MachineSummary } from '../../adapters/store/machine-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { findMachineDetail, listMachines, probeAndRecord } from '../../services/machine/machine-service.js';
import { machineCpuPeak } from '../../services/profile/roofline-service.js';
import { exportProfile } from '../../services/exchange/profile-export.js';
import { removeImportedMachine } from '../../services/machine/removal-service.js';
import type { HandlerGroup } from './types.js';
import { checkWorkloadSpec } from './workload-spec.js';

function summaryView(s: MachineSummary): MachineSummaryView {
  return {
    id: s.id,
    label: s.label,
    hostname: s.hostname,
    source: s.source,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    deviceCount: s.deviceCount,
    runCount: s.runCount,
    measurementCount: s.measurementCount,
  };
}

function machineView(db: Database, id?: string): MachineView | null {
  const found = findMachineDetail(db, id);
  if (!found) {
    if (id) throw new UserError(`no machine "${id}" in the store`);
    return null;
  }
  const d = found.detail;
  return {
    ...summaryView(found.summary),
    probe: d.probe,
    devices: d.devices.map(({ spec: _spec, ...dev }) => dev),
    links: d.links,
    cpuPeak: machineCpuPeak(db, found.summary.id),
    provenance: d.provenance,
  };
}

function safeFileName(label: string): string {
  return `${label.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'machine'}.pipedejavu.json`;
}

export const machineHandlers: HandlerGroup<
  | 'machine:list'
  | 'machine:get'
  | 'machine:probe'
  | 'machine:import'
  | 'machine:export'
  | 'machine:remove'
  | 'machine:compare'
> = {
  'machine:remove': (req, { db }) => removeImportedMachine(db, req.id),
  // What `pipedejavu compare` answers, in the job runner: the workload's prediction parses
  // the user's model and runs ONNX Runtime like workload:predict.
  'machine:compare': async (req, deps) => {
    if (req.workload !== undefined) checkWorkloadSpec(req.workload, deps);
    return (await deps.jobs.call('compare', req)) as ComparisonView;
  },
  'machine:list': (_req, { db }) => listMachines(db).map(summaryView),
  'machine:get': (req, { db }) => machineView(db, req.id),
  'machine:probe': async (_req, deps) => {
    await probeAndRecord(deps.db, deps.probe, { env: deps.env });
    const v = machineView(deps.db);
    if (!v) throw new Error('the probe recorded no machine');
    return v;
  },
  // In the job runner: parsing and storing a large file must not stall the other requests.
  'machine:import': async (req, deps) => {
    if (req.uploadId === undefined) return (await deps.jobs.run('import', req, req.fileName)) as ImportView;
    const file = deps.uploads?.path(req.uploadId);
    if (!file) throw new UserError('that upload is unknown or was used already; upload the file again');
    try {
      const job = {
        fileName: req.fileName,
        path: file,
        ...(req.label ? { label: req.label } : {}),
        ...(req.replace ? { replace: true } : {}),
      };
      return (await deps.jobs.run('import', job, req.fileName)) as ImportView;
    } finally {
      deps.uploads?.remove(req.uploadId);
    }
  },
  'machine:export': (req, deps) => {
    const r = exportProfile(deps.db, req.id, { now: deps.now, runtimes: deps.runtime });
    return { fileName: safeFileName(r.label), text: r.text, machineId: r.machineId, label: r.label };
  },
};
