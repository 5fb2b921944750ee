/**
 * The app's core, the same for the Electron main process and `pipedejavu serve`: the
 * store, the job manager (jobs in child processes) and the dispatch every transport
 * calls.
 */
import path from 'node:path';
import { openDatabase } from '../adapters/store/open-database.js';
import { localProbeDeps } from '../services/machine/local-probe.js';
import { runtimeVersions } from '../services/machine/runtime-versions.js';
import type { AppDeps, Dialogs } from './app-deps.js';
import type { Uploads } from '../adapters/files/upload-store.js';
import type { ProcessLauncher } from '../adapters/process/launcher.js';
import { createDispatch, type Dispatch } from './dispatch.js';
import { childExecutor } from './jobs/child-executor.js';
import { inProcessExecutor } from './jobs/in-process-executor.js';
import type { ProbeDeps } from '../services/machine/probe-service.js';
import { JobManager, type JobExecutor } from './jobs/job-manager.js';

export interface AppCoreOptions {
  dbPath: string;
  env?: NodeJS.ProcessEnv;
  transport: 'electron' | 'http';
  dialogs?: Dialogs;
  uploads?: Uploads;
  /** Defaults to job-runner children on the same database file. */
  executor?: JobExecutor;
  /** How the job and kernel runners start: the Electron shell injects utility processes. */
  launcher?: ProcessLauncher;
  /** Run jobs in this process on the open store (tests, `:memory:`). */
  inProcessJobs?: boolean;
  probe?: ProbeDeps;
  runtime?: Record<string, string>;
  onInternalError?: (channel: string, e: unknown) => void;
}

export interface AppCore {
  deps: AppDeps;
  dispatch: Dispatch;
  jobs: JobManager;
  close(): void;
}

export function createAppCore(o: AppCoreOptions): AppCore {
  const env = o.env ?? process.env;
  const db = openDatabase(o.dbPath);
  const executor = o.inProcessJobs
    ? inProcessExecutor(db, env)
    : (o.executor ?? childExecutor({ dbPath: o.dbPath, env, ...(o.launcher ? { launcher: o.launcher } : {}) }));
  const jobs = new JobManager(executor);
  const deps: AppDeps = {
    db,
    dbPath: o.dbPath,
    dataDir: o.dbPath === ':memory:' ? process.cwd() : path.dirname(path.resolve(o.dbPath)),
    env,
    jobs,
    probe: o.probe ?? localProbeDeps,
    transport: o.transport,
    ...(o.dialogs ? { dialogs: o.dialogs } : {}),
    ...(o.uploads ? { uploads: o.uploads } : {}),
    now: () => new Date(),
    runtime: o.runtime ?? runtimeVersions(),
    ...(o.launcher ? { launcher: o.launcher } : {}),
  };
  return {
    deps,
    dispatch: createDispatch(deps, o.onInternalError),
    jobs,
    close() {
      jobs.cancelAll();
      db.close();
    },
  };
}
