import { startJob } from './start-job.js';
import type { HandlerGroup } from './types.js';

export const planHandlers: HandlerGroup<'plan:create'> = {
  'plan:create': (req, deps) => startJob(deps, 'plan', req, `${req.workload} (${req.mode}, batch ${req.batch})`),
};
