/**
 * What the API handlers receive: the store, the job manager, and what differs between
 * the Electron app and `pipedejavu serve` (transport, native dialogs).
 */
import type { Database } from '../adapters/store/types.js';
import type { ProbeDeps } from '../services/machine/probe-service.js';
import type { JobManager } from './jobs/job-manager.js';
import type { Uploads } from '../adapters/files/upload-store.js';
import type { ProcessLauncher } from '../adapters/process/launcher.js';

/** Native file dialogs (Electron only). */
export interface Dialogs {
  open(purpose: 'profile' | 'onnx'): Promise<{ fileName: string; path: string; text: string | null } | null>;
  save(fileName: string, text: string): Promise<{ path: string } | null>;
  /** Whether `path` came back from an open dialog in this session: the only paths the renderer may name. */
  opened(path: string): boolean;
}

export interface AppDeps {
  db: Database;
  dbPath: string;
  /** Where uploaded models are kept (web mode), next to the database. */
  dataDir: string;
  env: NodeJS.ProcessEnv;
  jobs: JobManager;
  probe: ProbeDeps;
  transport: 'electron' | 'http';
  dialogs?: Dialogs;
  /** Files the browser uploaded to `serve` (web mode only). */
  uploads?: Uploads;
  now: () => Date;
  /** Versions to show (node, onnxruntime, electron...). */
  runtime: Record<string, string>;
  /** How runner processes start (Electron: utility processes); a plain fork when absent. */
  launcher?: ProcessLauncher;
}
