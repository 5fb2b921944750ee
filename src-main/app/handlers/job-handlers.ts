import { UserError } from '../../core/errors.js';
import type { HandlerGroup } from './types.js';

export const jobHandlers: HandlerGroup<'job:list' | 'job:get' | 'job:cancel'> = {
  'job:list': (_req, { jobs }) => jobs.list(),
  'job:get': (req, { jobs }) => {
    const j = jobs.get(req.jobId);
    if (!j) throw new UserError(`no job ${req.jobId} (jobs are kept while the app runs)`);
    return j;
  },
  'job:cancel': (req, { jobs }) => ({ cancelled: jobs.cancel(req.jobId) }),
};
