/** The HTTP server the HTTP tests talk to, wired to an app core as `pipedejavu serve` wires it. */
import path from 'node:path';
import { createUploadStore, type UploadStore } from '../../src-main/adapters/files/upload-store.js';
import { createAppCore, type AppCore } from '../../src-main/app/app-core.js';
import { startServer, type RunningServer, type ServerOptions } from '../../src-main/http/server.js';
import { tempDir } from './cli.js';

/** A server on a free port for the core (its dispatch, its jobs' events), with the token, folder, uploads and cap of `o`. */
export function serveCore(
  core: AppCore,
  o: Omit<ServerOptions, 'dispatch' | 'subscribe' | 'port'>,
): Promise<RunningServer> {
  return startServer({ dispatch: core.dispatch, subscribe: (l) => core.jobs.subscribe(l), port: 0, ...o });
}

/** An app as `serve` runs one: a core with an upload store on a fresh database, and its server. */
export interface ServedApp {
  core: AppCore;
  server: RunningServer;
  uploads: UploadStore;
  /** http://127.0.0.1:PORT */
  base: string;
  /** Closes the server, the core and the upload store. */
  close(): Promise<void>;
}

/** An app served on a free port, its database in a new folder `prefix`...; jobs in job-runner children unless `inProcessJobs`. */
export async function serveApp(prefix: string, token: string, o: { inProcessJobs?: boolean } = {}): Promise<ServedApp> {
  const dir = tempDir(prefix);
  const uploads = createUploadStore();
  const core = createAppCore({ dbPath: path.join(dir, 'db.sqlite'), transport: 'http', ...o, uploads });
  const server = await serveCore(core, { uploads, token, rendererDir: dir });
  const close = async (): Promise<void> => {
    await server.close();
    core.close();
    uploads.close();
  };
  return { core, server, uploads, base: `http://127.0.0.1:${server.port}`, close };
}
