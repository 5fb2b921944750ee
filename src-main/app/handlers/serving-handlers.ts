import type { ServingPlanView } from '../../api/view-models.js';
import type { HandlerGroup } from './types.js';
import { checkWorkloadSpec } from './workload-spec.js';

export const servingHandlers: HandlerGroup<'serving:plan'> = {
  // Seconds of simulation: in the job runner, so the server's other calls do not wait.
  'serving:plan': async (req, deps) => {
    checkWorkloadSpec(req.workload, deps);
    return (await deps.jobs.call('serving-plan', req)) as ServingPlanView;
  },
};
