/**
 * A real app core in this process and the renderer's API client on it: the same dispatch and job
 * events the HTTP and IPC transports carry, for the renderer's state classes.
 */
import path from 'node:path';
import { afterEach } from 'vitest';
import { createApiClient, type ApiClient } from '../../src-main/api/client.js';
import { createAppCore, type AppCore } from '../../src-main/app/app-core.js';
import { tempDir } from './cli.js';

/**
 * Called at a test file's top level: a function that starts an app core on a fresh store and
 * returns its client; the core is closed after each test.
 */
export function inProcessClients(prefix = 'pdjv-ui-'): () => ApiClient {
  let core: AppCore | null = null;
  afterEach(() => {
    core?.close();
    core = null;
  });
  return () => {
    const c = createAppCore({
      dbPath: path.join(tempDir(prefix), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    core = c;
    return createApiClient({
      kind: 'http',
      invoke: (channel, payload) => c.dispatch(channel, payload),
      subscribe: (listener) => c.jobs.subscribe(listener),
    });
  };
}
