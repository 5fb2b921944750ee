import type { JobStarted } from '../../api/contract.js';
import type { JobKind } from '../../api/view-models.js';
import type { AppDeps } from '../app-deps.js';

export function startJob(deps: AppDeps, kind: JobKind, request: unknown, detail = ''): JobStarted {
  return { jobId: deps.jobs.start(kind, request, detail) };
}
