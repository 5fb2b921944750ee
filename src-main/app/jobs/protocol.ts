/**
 * Messages between the app (Electron main or `pipedejavu serve`) and a job-runner child.
 * Long jobs run in their own process so the server's event loop and the window never
 * stall, and a cancel or a crash never takes the app down.
 */
import type { JobKind, KernelStatus } from '../../api/view-models.js';

/**
 * Work a request waits for, on a user's file (a model to add, a workload to predict or
 * compare, the stored graphs to list or remove): run in the job runner like a job, so a huge or hostile file never stalls the
 * server, but not listed in the Jobs view (the request itself answers with the result).
 */
export type CallKind =
  | 'predict'
  | 'compare'
  | 'fit'
  | 'serving-plan'
  | 'workload-add'
  | 'workload-add-hf'
  | 'workload-list'
  | 'workload-remove';

/** Everything the job runner runs: the listed jobs and the calls. */
export type RunnerKind = JobKind | CallKind;

export interface JobStartMessage {
  type: 'start';
  kind: RunnerKind;
  /** The channel's validated request. */
  request: unknown;
  dbPath: string;
}

export type ToJobRunner = JobStartMessage | { type: 'cancel' };

export interface KernelNote {
  id: string;
  /** The profiled target it was measured on ("cpu, 1 thread"): a kernel is one per target. */
  target?: string;
  family: string;
  status: KernelStatus;
  medianUs: number | null;
}

export type FromJobRunner =
  /** The runner read a cancel and is stopping: its event loop is free (a runner busy in synchronous work never says it). */
  | { type: 'stopping' }
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
