/**
 * Runs each job in a fresh job-runner child (dist/job-runner.js) against the store file.
 * Cancel asks the child to stop, then kills it after a grace period; a child that dies
 * without answering fails its job with the reason.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JobKind } from '../../api/views.js';
import type { JobExecutor, RunningJob } from './job-manager.js';
import type { FromJobRunner, ToJobRunner } from './protocol.js';

export function defaultJobRunnerPath(): string {
  const here = path
    .dirname(fileURLToPath(import.meta.url))
    .replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
  const candidates = [
    path.join(here, 'job-runner.js'),
    path.resolve(here, '../job-runner.js'),
    path.resolve(here, '../dist/job-runner.js'),
    path.resolve(here, '../../../dist/job-runner.js'),
  ];
  return candidates.find((p) => existsSync(p)) ?? (candidates[0] as string);
}

export interface ChildExecutorOptions {
  dbPath: string;
  runnerPath?: string;
  env?: NodeJS.ProcessEnv;
  /** How long a cancelled job may take to stop before it is killed (ms). */
  graceMs?: number;
}

export function childExecutor(o: ChildExecutorOptions): JobExecutor {
  return {
    start(kind: JobKind, request: unknown, onMessage: (m: FromJobRunner) => void): RunningJob {
      const runnerPath = o.runnerPath ?? defaultJobRunnerPath();
      let finished = false;
      const finish = (m: FromJobRunner): void => {
        if (finished) return;
        if (m.type === 'done' || m.type === 'failed') finished = true;
        onMessage(m);
      };
      if (!existsSync(runnerPath)) {
        queueMicrotask(() =>
          finish({
            type: 'failed',
            message: `job runner not built (${runnerPath}); run npm run build`,
            cancelled: false,
          }),
        );
        return { cancel: () => undefined };
      }
      const child = fork(runnerPath, [], {
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        env: o.env ?? process.env,
        // Its own process group: a Ctrl-C meant for `serve` does not hit it twice.
        detached: process.platform !== 'win32',
      });
      let stderr = '';
      let cancelled = false;
      let killTimer: NodeJS.Timeout | null = null;
      child.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-4000);
      });
      child.on('message', (m: FromJobRunner) => finish(m));
      child.on('exit', (code, signal) => {
        if (killTimer) clearTimeout(killTimer);
        const last = stderr.trim().split('\n').pop() ?? '';
        finish({
          type: 'failed',
          message: cancelled
            ? 'cancelled'
            : `the job process exited (${signal ?? `code ${code}`})${last ? `: ${last}` : ''}`,
          cancelled,
        });
      });
      child.on('error', (e) => finish({ type: 'failed', message: `cannot start the job: ${e.message}`, cancelled }));
      const start: ToJobRunner = { type: 'start', kind, request, dbPath: o.dbPath };
      child.send(start);
      return {
        cancel() {
          if (finished) return;
          cancelled = true;
          const stop: ToJobRunner = { type: 'cancel' };
          if (child.connected) child.send(stop);
          killTimer = setTimeout(() => child.kill('SIGKILL'), o.graceMs ?? 10_000);
          killTimer.unref();
        },
      };
    },
  };
}
