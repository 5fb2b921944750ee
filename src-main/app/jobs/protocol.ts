/**
 * Messages between the app (Electron main or `pipedejavu serve`) and a job-runner child.
 * Long jobs run in their own process so the server's event loop and the window never
 * stall, and a cancel or a crash never takes the app down.
 */
import type { JobKind, KernelStatus } from '../../api/view-models.js';

export interface JobStartMessage {
  type: 'start';
  kind: JobKind;
  /** The channel's validated request. */
  request: unknown;
  dbPath: string;
}

export type ToJobRunner = JobStartMessage | { type: 'cancel' };

export interface KernelNote {
  id: string;
  family: string;
  status: KernelStatus;
  medianUs: number | null;
}

export type FromJobRunner =
  | { type: 'progress'; done: number; total: number; label: string }
  | { type: 'log'; line: string }
  | { type: 'kernel'; kernel: KernelNote }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; message: string; cancelled: boolean };

/** What a job function may report while it runs. */
export interface JobReporter {
  progress(done: number, total: number, label: string): void;
  log(line: string): void;
  kernel(k: KernelNote): void;
}
