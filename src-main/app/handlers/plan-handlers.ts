import { startJob } from './start-job.js';
import type { HandlerGroup } from './types.js';
import { checkWorkloadSpec } from './workload-spec.js';

export const planHandlers: HandlerGroup<'plan:create'> = {
  'plan:create': (req, deps) => {
    checkWorkloadSpec(req.workload, deps);
    return startJob(deps, 'plan', req, `${req.workload} (${req.mode}, batch ${req.batch})`);
  },
};
