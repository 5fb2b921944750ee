import type { RooflineView, RunView } from '../../api/view-models.js';
import { listProfileRuns } from '../../services/profile-runs.js';
import { rooflinesWithPoints } from '../../services/roofline-service.js';
import { startJob } from './start-job.js';
import type { HandlerGroup } from './types.js';

export const profileHandlers: HandlerGroup<'profile:runs' | 'profile:roofline' | 'profile:start'> = {
  'profile:runs': (req, { db }) =>
    listProfileRuns(db, req.machineId).map(({ machineId: _m, heartbeatAt: _h, ...run }): RunView => run),
  'profile:roofline': (req, { db }): RooflineView[] => rooflinesWithPoints(db, req.machineId),
  'profile:start': (req, deps) => startJob(deps, 'profile', req, `${req.device}, ${req.suite} suite`),
};
