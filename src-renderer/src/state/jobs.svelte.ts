/**
 * Long jobs as the renderer follows them. One hub listens to the job event stream and
 * hands each event to the tracker that started the job (events that arrive before the
 * tracker knows its job id are kept and replayed). A tracker polls `job:get` slowly while
 * its job runs, in case events are lost, and fetches the result once the job ends.
 */
import type { ApiClient } from '../../../src-main/api/client.js';
import type { JobEvent, JobStarted } from '../../../src-main/api/contract.js';
import type { JobKind, JobView } from '../../../src-main/api/view-models.js';
import { errorMessage } from '../lib/errors.js';
import { withKernel } from '../lib/live-kernels.js';

export type JobSnapshot = JobEvent['job'];
export type KernelResult = NonNullable<JobEvent['kernel']>;

const PENDING_CAP = 2000;
const KERNELS_CAP = 2000;
const LOG_CAP = 300;
const POLL_MS = 2000;

export class JobHub {
  readonly client: ApiClient;
  #trackers = new Map<string, JobTracker<unknown>>();
  #pending: JobEvent[] = [];
  #unsubscribe: (() => void) | null = null;

  constructor(client: ApiClient) {
    this.client = client;
  }

  connect(): void {
    if (!this.#unsubscribe) this.#unsubscribe = this.client.onJobEvent((e) => this.#dispatch(e));
  }

  disconnect(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  #dispatch(e: JobEvent): void {
    const t = this.#trackers.get(e.jobId);
    if (t) {
      t.handle(e);
      return;
    }
    this.#pending.push(e);
    if (this.#pending.length > PENDING_CAP) this.#pending.splice(0, this.#pending.length - PENDING_CAP);
  }

  claim(jobId: string, tracker: JobTracker<unknown>): void {
    this.#trackers.set(jobId, tracker);
    const mine = this.#pending.filter((e) => e.jobId === jobId);
    this.#pending = this.#pending.filter((e) => e.jobId !== jobId);
    for (const e of mine) tracker.handle(e);
  }

  release(jobId: string): void {
    this.#trackers.delete(jobId);
  }
}

export type JobPhase = 'idle' | 'starting' | JobSnapshot['state'];

export class JobTracker<R> {
  readonly kind: JobKind;
  jobId: string | null = $state(null);
  job: JobSnapshot | null = $state.raw(null);
  kernels: KernelResult[] = $state.raw([]);
  log: string[] = $state.raw([]);
  result: R | null = $state.raw(null);
  /** Why the job could not start, or why it failed. */
  error: string | null = $state(null);
  starting = $state(false);
  cancelling = $state(false);
  cancelError: string | null = $state(null);

  #hub: JobHub;
  #onFinish: ((t: JobTracker<R>) => void | Promise<void>) | undefined;
  #poll: ReturnType<typeof setInterval> | null = null;
  #finishing: string | null = null;

  constructor(hub: JobHub, kind: JobKind, onFinish?: (t: JobTracker<R>) => void | Promise<void>) {
    this.#hub = hub;
    this.kind = kind;
    this.#onFinish = onFinish;
  }

  get phase(): JobPhase {
    if (this.starting) return 'starting';
    return this.job?.state ?? 'idle';
  }

  get running(): boolean {
    return this.phase === 'starting' || this.phase === 'running';
  }

  /** done / total in 0..1, null while the total is unknown. */
  get fraction(): number | null {
    const j = this.job;
    return j && j.total > 0 ? Math.min(1, j.done / j.total) : null;
  }

  async start(request: () => Promise<JobStarted>): Promise<void> {
    if (this.running) return;
    this.#detach();
    this.job = null;
    this.kernels = [];
    this.log = [];
    this.result = null;
    this.error = null;
    this.cancelError = null;
    this.starting = true;
    try {
      const { jobId } = await request();
      this.attach(jobId);
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.starting = false;
    }
  }

  /** Follows a job already running (started here, or found by `job:list` after a reload). */
  attach(jobId: string, snapshot?: JobSnapshot): void {
    this.#detach();
    this.jobId = jobId;
    if (snapshot) this.job = snapshot;
    this.#hub.claim(jobId, this as JobTracker<unknown>);
    this.#poll = setInterval(() => void this.refresh(), POLL_MS);
    void this.refresh();
  }

  handle(e: JobEvent): void {
    if (e.jobId !== this.jobId) return;
    if (this.job?.state !== 'running' && this.job !== null && e.job.state === 'running') return;
    this.job = e.job;
    if (e.kernel) {
      this.kernels = withKernel(this.kernels, e.kernel, KERNELS_CAP);
    }
    if (e.line !== undefined) this.log = [...this.log.slice(-(LOG_CAP - 1)), e.line];
    if (e.job.state !== 'running') void this.#finish();
  }

  /** Reads the job's state now (the safety net under the event stream). */
  async refresh(): Promise<void> {
    const id = this.jobId;
    if (!id) return;
    try {
      const v = await this.#hub.client.call('job:get', { jobId: id });
      if (id !== this.jobId) return;
      if (v.state === 'running') {
        if (!this.job || this.job.state === 'running') this.job = snapshotOf(v);
      } else await this.#finish(v);
    } catch {
      // A missed poll is harmless: the next one, or an event, catches up.
    }
  }

  async cancel(): Promise<void> {
    const id = this.jobId;
    if (!id || !this.running) return;
    this.cancelling = true;
    this.cancelError = null;
    try {
      await this.#hub.client.call('job:cancel', { jobId: id });
      await this.refresh();
    } catch (e) {
      this.cancelError = errorMessage(e);
    } finally {
      this.cancelling = false;
    }
  }

  async #finish(view?: JobView): Promise<void> {
    const id = this.jobId;
    if (!id || this.#finishing === id) return;
    this.#finishing = id;
    this.#stopPolling();
    let v = view;
    try {
      v ??= await this.#hub.client.call('job:get', { jobId: id });
    } catch (e) {
      this.error = `the job ended but its result could not be read: ${errorMessage(e)}`;
      return;
    }
    if (id !== this.jobId) return;
    this.job = snapshotOf(v);
    if (v.log.length > this.log.length) this.log = v.log.slice(-LOG_CAP);
    this.result = v.state === 'done' ? (v.result as R) : null;
    this.error = v.state === 'failed' ? (v.error ?? 'the job failed without a message') : null;
    this.#hub.release(id);
    try {
      await this.#onFinish?.(this);
    } catch {
      // Refreshing the views after a job is best effort; their own loads show errors.
    }
  }

  #stopPolling(): void {
    if (this.#poll) clearInterval(this.#poll);
    this.#poll = null;
  }

  #detach(): void {
    this.#stopPolling();
    if (this.jobId) this.#hub.release(this.jobId);
    this.#finishing = null;
  }
}

export function snapshotOf(v: JobView): JobSnapshot {
  return {
    id: v.id,
    kind: v.kind,
    state: v.state,
    title: v.title,
    startedAt: v.startedAt,
    finishedAt: v.finishedAt,
    done: v.done,
    total: v.total,
    label: v.label,
    error: v.error,
  };
}
