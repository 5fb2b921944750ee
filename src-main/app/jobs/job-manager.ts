/**
 * Long jobs of the app: started, tracked, cancelled, and their events fanned out to
 * the transports (IPC, server-sent events). How a job actually runs is the executor's
 * business (a child process in the app; in-process in some tests).
 */
import { randomUUID } from 'node:crypto';
import { UserError } from '../../core/errors.js';
import type { JobEvent } from '../../api/contract.js';
import type { JobKind, JobView } from '../../api/view-models.js';
import type { CallKind, FromJobRunner, RunnerKind } from './protocol.js';

export interface RunningJob {
  /** Stop the job (the app's executor ends its child within a second); it ends as 'cancelled'. */
  cancel(): void;
}

export interface JobExecutor {
  start(kind: RunnerKind, request: unknown, onMessage: (m: FromJobRunner) => void): RunningJob;
}

const TITLES: Record<JobKind, string> = {
  profile: 'Profile',
  train: 'Train predictors',
  evaluate: 'Evaluate predictors',
  plan: 'Plan',
  measure: 'Measure model',
  import: 'Import profile',
};

const MAX_LOG = 200;
const MAX_FINISHED = 50;

export class JobManager {
  private readonly jobs = new Map<string, { view: JobView; running: RunningJob | null; cancelled: boolean }>();
  private readonly listeners = new Set<(e: JobEvent) => void>();
  private readonly waiters = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  /** Calls in flight (see `call`), cancelled with the jobs when the app closes. */
  private readonly calls = new Set<RunningJob>();

  constructor(
    private readonly executor: JobExecutor,
    private readonly now: () => Date = () => new Date(),
  ) {}

  subscribe(listener: (e: JobEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(kind: JobKind, request: unknown, detail = ''): string {
    const busy = [...this.jobs.values()].find((j) => j.view.state === 'running' && j.view.kind === 'profile');
    if (kind === 'profile' && busy) throw new UserError('a profile is already running; cancel it or wait');
    const id = randomUUID();
    const view: JobView = {
      id,
      kind,
      state: 'running',
      title: detail ? `${TITLES[kind]}: ${detail}` : TITLES[kind],
      startedAt: this.now().toISOString(),
      finishedAt: null,
      done: 0,
      total: 0,
      label: 'starting',
      log: [],
      error: null,
      result: null,
    };
    const entry = { view, running: null as RunningJob | null, cancelled: false };
    this.jobs.set(id, entry);
    this.prune();
    this.emit({ jobId: id, type: 'state', job: strip(view) });
    entry.running = this.executor.start(kind, request, (m) => this.onMessage(id, m));
    return id;
  }

  /**
   * Starts a job and answers with its result: for a request whose answer the caller
   * awaits (an import), run off the event loop. A failed job rejects with its message.
   */
  run(kind: JobKind, request: unknown, detail = ''): Promise<unknown> {
    const id = this.start(kind, request, detail);
    const settled = this.jobs.get(id)?.view;
    if (settled && settled.state !== 'running') return settle(settled);
    return new Promise((resolve, reject) => this.waiters.set(id, { resolve, reject }));
  }

  /**
   * Runs work on a user's file in the executor (the job-runner child in the app) and answers
   * its result: the event loop stays free while it runs. Not a listed job: no id, no events.
   * A failure rejects with its one line.
   */
  call(kind: CallKind, request: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let running: RunningJob | null = null;
      let settled = false;
      const onMessage = (m: FromJobRunner): void => {
        if (settled || (m.type !== 'done' && m.type !== 'failed')) return;
        settled = true;
        if (running) this.calls.delete(running);
        if (m.type === 'done') resolve(m.result);
        else reject(new UserError(m.message));
      };
      running = this.executor.start(kind, request, onMessage);
      if (!settled) this.calls.add(running);
    });
  }

  get(id: string): JobView | null {
    return this.jobs.get(id)?.view ?? null;
  }

  list(): JobView[] {
    return [...this.jobs.values()].map((j) => ({ ...j.view, result: null })).reverse();
  }

  /** The newest finished job of a kind whose request matched (e.g. the last measurement of a workload). */
  latestDone(kind: JobKind, match: (v: JobView) => boolean): JobView | null {
    const done = [...this.jobs.values()].map((j) => j.view).filter((v) => v.kind === kind && v.state === 'done');
    return done.reverse().find(match) ?? null;
  }

  cancel(id: string): boolean {
    const j = this.jobs.get(id);
    if (!j || j.view.state !== 'running') return false;
    j.cancelled = true;
    j.running?.cancel();
    return true;
  }

  /** Cancels everything still running (the app is closing). */
  cancelAll(): void {
    for (const [id, j] of this.jobs) if (j.view.state === 'running') this.cancel(id);
    for (const c of this.calls) c.cancel();
    this.calls.clear();
  }

  private onMessage(id: string, m: FromJobRunner): void {
    const j = this.jobs.get(id);
    if (!j || j.view.state !== 'running') return;
    const v = j.view;
    switch (m.type) {
      case 'progress':
        v.done = m.done;
        v.total = m.total;
        v.label = m.label;
        this.emit({ jobId: id, type: 'progress', job: strip(v) });
        return;
      case 'log':
        v.log.push(m.line);
        if (v.log.length > MAX_LOG) v.log.splice(0, v.log.length - MAX_LOG);
        this.emit({ jobId: id, type: 'log', job: strip(v), line: m.line });
        return;
      case 'kernel':
        this.emit({ jobId: id, type: 'progress', job: strip(v), kernel: m.kernel });
        return;
      case 'stopping':
        return;
      case 'done':
        // A job cancelled while it was finishing ends cancelled: cancel never flips to done.
        if (j.cancelled) {
          v.state = 'cancelled';
          v.error = 'cancelled';
        } else {
          v.state = 'done';
          v.result = m.result;
        }
        break;
      case 'failed':
        v.state = m.cancelled || j.cancelled ? 'cancelled' : 'failed';
        v.error = m.message;
        break;
    }
    v.finishedAt = this.now().toISOString();
    j.running = null;
    this.emit({ jobId: id, type: 'state', job: strip(v) });
    const waiter = this.waiters.get(id);
    if (waiter) {
      this.waiters.delete(id);
      settle(v).then(waiter.resolve, waiter.reject);
    }
  }

  private emit(e: JobEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // A listener that fails (a closed connection) must not stop the others.
      }
    }
  }

  private prune(): void {
    const finished = [...this.jobs.entries()].filter(([, j]) => j.view.state !== 'running');
    for (const [id] of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) this.jobs.delete(id);
  }
}

function settle(v: JobView): Promise<unknown> {
  return v.state === 'done' ? Promise.resolve(v.result) : Promise.reject(new UserError(v.error ?? `job ${v.state}`));
}

function strip(v: JobView): JobEvent['job'] {
  const { result: _r, log: _l, ...rest } = v;
  return rest;
}
