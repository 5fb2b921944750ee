import { startJob } from './start-job.js';
import type { HandlerGroup } from './types.js';
import { checkWorkloadSpec } from './workload-spec.js';

export const planHandlers: HandlerGroup<'plan:create'> = {
  'plan:create': (req, deps) => {
    checkWorkloadSpec(req.workload, deps);
    const mode = req.finetune ? `fine-tuning, ${req.finetune.adapter === 'qlora' ? 'QLoRA' : 'LoRA'}` : req.mode;
    const batch = req.batch === undefined ? 'default batch' : `batch ${req.batch}`;
    return startJob(deps, 'plan', req, `${req.workload} (${mode}, ${batch})`);
  },
};
