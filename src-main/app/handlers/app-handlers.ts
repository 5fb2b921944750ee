import { TOOL_VERSION } from '../../core/version.js';
import { listDatasheetGpus } from '../../services/gpus/gpu-list-service.js';
import type { HandlerGroup } from './types.js';

export const appHandlers: HandlerGroup<'app:info'> = {
  'app:info': (_req, deps) => ({
    version: TOOL_VERSION,
    dataDir: deps.dataDir,
    dbPath: deps.dbPath,
    runtime: deps.runtime,
    transport: deps.transport,
    datasheetGpus: listDatasheetGpus().gpus.map((g) => ({
      name: g.name,
      architecture: g.architecture,
      formFactor: g.formFactor,
      memoryGiB: g.memory.sizeGiB,
      names: [...new Set([g.id, g.name, ...g.aliases])],
    })),
  }),
};
