/**
 * Cancelling a job: the child executor kills a runner that does not answer the cancel at once
 * (busy in synchronous work), gives one that answers `stopping` its grace period, and ends a
 * cancelled child that answers at the last moment; the job manager never lets a cancelled job
 * end `done`. Fake children here; the real runner is in child-jobs.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ChildEmitter,
  type LaunchedChild,
  type ProcessLauncher,
} from '../../../../src-main/adapters/process/launcher.js';
import { childExecutor } from '../../../../src-main/app/jobs/child-executor.js';
import { JobManager, type JobExecutor } from '../../../../src-main/app/jobs/job-manager.js';
import type { FromJobRunner } from '../../../../src-main/app/jobs/protocol.js';

/** A child that records what it was sent and when it was killed, and answers as the test says. */
class FakeChild extends ChildEmitter implements LaunchedChild {
  sent: unknown[] = [];
  killedAt: number | null = null;
  constructor(private readonly onSend: (m: unknown, self: FakeChild) => void = () => undefined) {
    super();
  }
  send(m: unknown): void {
    this.sent.push(m);
    this.onSend(m, this);
  }
  kill(): void {
    if (this.killedAt !== null) return;
    this.killedAt = performance.now();
    setImmediate(() => this.emit('exit', null, 'SIGKILL'));
  }
}

function launcherOf(child: FakeChild): ProcessLauncher {
  return { fork: () => child };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function runOne(child: FakeChild, opts: { ackMs: number; graceMs: number }) {
  const messages: FromJobRunner[] = [];
  const exec = childExecutor({ dbPath: 'x.db', runnerPath: process.execPath, launcher: launcherOf(child), ...opts });
  const job = exec.start('plan', {}, (m) => messages.push(m));
  return { job, messages };
}

describe('the child executor on cancel', () => {
  it('kills a runner that does not answer the cancel (busy in synchronous work) after ackMs', async () => {
    const child = new FakeChild();
    const { job, messages } = runOne(child, { ackMs: 50, graceMs: 10_000 });
    const t0 = performance.now();
    job.cancel();
    expect(child.sent).toContainEqual({ type: 'cancel' });
    await sleep(300);
    expect(child.killedAt).not.toBeNull();
    expect((child.killedAt ?? 0) - t0).toBeLessThan(10_000);
    expect(messages).toEqual([{ type: 'failed', message: 'cancelled', cancelled: true }]);
  });

  it('gives a runner that answers `stopping` its grace period to end cleanly, then kills it', async () => {
    const child = new FakeChild((m, self) => {
      if ((m as { type: string }).type === 'cancel') setImmediate(() => self.emit('message', { type: 'stopping' }));
    });
    const { job, messages } = runOne(child, { ackMs: 50, graceMs: 400 });
    job.cancel();
    await sleep(200);
    // Answered: not killed at ackMs.
    expect(child.killedAt).toBeNull();
    child.emit('message', {
      type: 'failed',
      message: 'profile cancelled; finished measurements are stored',
      cancelled: true,
    });
    await sleep(50);
    // Its last message is kept, and the child is ended with it.
    expect(messages).toEqual([
      { type: 'failed', message: 'profile cancelled; finished measurements are stored', cancelled: true },
    ]);
    expect(child.killedAt).not.toBeNull();
  });

  it('kills an answering runner that does not stop within the grace period', async () => {
    const child = new FakeChild((m, self) => {
      if ((m as { type: string }).type === 'cancel') setImmediate(() => self.emit('message', { type: 'stopping' }));
    });
    const { job, messages } = runOne(child, { ackMs: 50, graceMs: 150 });
    job.cancel();
    await sleep(500);
    expect(child.killedAt).not.toBeNull();
    expect(messages).toEqual([{ type: 'failed', message: 'cancelled', cancelled: true }]);
  });
});

describe('the job manager on cancel', () => {
  it('ends a job cancelled while it finished as cancelled, never done', () => {
    let report: (m: FromJobRunner) => void = () => undefined;
    let cancels = 0;
    const exec: JobExecutor = {
      start: (_kind, _req, onMessage) => {
        report = onMessage;
        return { cancel: () => cancels++ };
      },
    };
    const jobs = new JobManager(exec);
    const id = jobs.start('plan', {});
    expect(jobs.cancel(id)).toBe(true);
    expect(cancels).toBe(1);
    report({ type: 'done', result: { plans: ['the plan'] } });
    expect(jobs.get(id)).toMatchObject({ state: 'cancelled', error: 'cancelled', result: null });
    // Later messages change nothing.
    report({ type: 'done', result: { plans: [] } });
    expect(jobs.get(id)?.state).toBe('cancelled');
    expect(jobs.cancel(id)).toBe(false);
  });
});
