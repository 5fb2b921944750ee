import { TOOL_VERSION } from '../../core/version.js';
import { GPU_DATASHEETS } from '../../core/planner/cost/datasheets.js';
import type { HandlerGroup } from './types.js';

export const appHandlers: HandlerGroup<'app:info'> = {
  'app:info': (_req, deps) => ({
    version: TOOL_VERSION,
    dataDir: deps.dataDir,
    dbPath: deps.dbPath,
    runtime: deps.runtime,
    transport: deps.transport,
    datasheetGpus: GPU_DATASHEETS.map((g) => g.name),
  }),
};
