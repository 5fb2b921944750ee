import type { ProfileEstimateView, RooflineView, RunView } from '../../api/view-models.js';
import type { SuiteName } from '../../core/kernels/suites.js';
import { parseBackends } from '../../services/profile/device-targets.js';
import { estimateProfile } from '../../services/profile/profile-targets.js';
import { listProfileRuns } from '../../services/profile/profile-runs.js';
import { rooflinesWithPoints } from '../../services/profile/roofline-service.js';
import { startJob } from './start-job.js';
import type { HandlerGroup } from './types.js';

export const profileHandlers: HandlerGroup<'profile:runs' | 'profile:roofline' | 'profile:start' | 'profile:estimate'> =
  {
    'profile:runs': (req, { db }) =>
      listProfileRuns(db, req.machineId).map(({ machineId: _m, heartbeatAt: _h, ...run }): RunView => run),
    'profile:roofline': (req, { db }): RooflineView[] => rooflinesWithPoints(db, req.machineId),
    'profile:estimate': (req, { db }): ProfileEstimateView =>
      estimateProfile(db, {
        device: req.device,
        suite: req.suite as SuiteName,
        ...(req.threads ? { threads: req.threads } : {}),
        backends: parseBackends(req.backend ?? 'ort'),
      }),
    'profile:start': (req, deps) => startJob(deps, 'profile', req, `${req.device}, ${req.suite} suite`),
  };
