import type { JobStarted } from '../../api/contract.js';
import type { JobKind } from '../../api/views.js';
import { UserError } from '../../core/errors.js';
import type { AppDeps } from '../app-deps.js';
import { JobBusyError } from '../jobs/job-manager.js';

export function startJob(deps: AppDeps, kind: JobKind, request: unknown, detail = ''): JobStarted {
  try {
    return { jobId: deps.jobs.start(kind, request, detail) };
  } catch (e) {
    if (e instanceof JobBusyError) throw new UserError(e.message);
    throw e;
  }
}
