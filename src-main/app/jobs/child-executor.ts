/**
 * Runs each job in a fresh job-runner child (dist/job-runner.js) against the store file:
 * a forked Node child by default, an Electron utility process where the shell injects its
 * launcher. Cancel asks the child to stop: a child that does not answer `stopping` at once is
 * busy in synchronous work (a plan's search reads no message until it ends) and is killed; one
 * that answers gets a grace period to finish cleanly (a profile keeps what it measured), then is
 * killed. A cancelled job never ends `done`. A child that dies without answering fails its job
 * with the reason; one that has answered is ended if it does not exit by itself (utility
 * processes never do).
 */
import { existsSync } from 'node:fs';
import type { ProcessLauncher } from '../../adapters/process/launcher.js';
import { bundledScriptPath } from '../../adapters/process/child-script.js';
import { defaultLauncher } from '../../adapters/process/relay.js';
import type { JobExecutor, RunningJob } from './job-manager.js';
import type { FromJobRunner, RunnerKind, ToJobRunner } from './protocol.js';

/** dist/job-runner.js, where the running code finds it (see bundledScriptPath). */
export function defaultJobRunnerPath(): string {
  return bundledScriptPath('job-runner.js');
}

export interface ChildExecutorOptions {
  dbPath: string;
  runnerPath?: string;
  env?: NodeJS.ProcessEnv;
  /** How long a cancelled job's child has to answer `stopping` before it is killed (ms). */
  ackMs?: number;
  /** How long a cancelled job that answered may take to stop before it is killed (ms). */
  graceMs?: number;
  /** How the child is started (Electron: utility processes); a plain fork by default. */
  launcher?: ProcessLauncher;
}

/** How long a job runner that has sent its last message may take to exit before it is ended (ms). */
const REAP_MS = 2000;
/**
 * How long a cancelled job's runner has to answer before it is killed (ms): a runner whose event
 * loop is free answers in a few ms; the state then says cancelled well within a second.
 */
const ACK_MS = 400;
/** How long a cancelled job whose runner answered may take to stop before it is killed (ms). */
const GRACE_MS = 3000;

export function childExecutor(o: ChildExecutorOptions): JobExecutor {
  return {
    start(kind: RunnerKind, request: unknown, onMessage: (m: FromJobRunner) => void): RunningJob {
      const runnerPath = o.runnerPath ?? defaultJobRunnerPath();
      let finished = false;
      let exited = false;
      let reapTimer: NodeJS.Timeout | null = null;
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
      const child = (o.launcher ?? defaultLauncher()).fork(runnerPath, {
        name: `pipeDejavu ${kind} job`,
        env: o.env ?? process.env,
        // Its own process group: a Ctrl-C meant for `serve` does not hit it twice.
        detached: true,
      });
      let stderr = '';
      let cancelled = false;
      let killTimer: NodeJS.Timeout | null = null;
      child.on('stderr', (text) => {
        stderr = (stderr + text).slice(-4000);
      });
      const killAfter = (ms: number): void => {
        if (killTimer) clearTimeout(killTimer);
        killTimer = setTimeout(() => child.kill(), ms);
        killTimer.unref();
      };
      child.on('message', (message) => {
        const m = message as FromJobRunner;
        // The runner read the cancel: it may stop cleanly, within the grace period.
        if (m.type === 'stopping') {
          if (cancelled && !finished) killAfter(o.graceMs ?? GRACE_MS);
          return;
        }
        finish(m);
        if (finished && !exited && cancelled) child.kill();
        else if (finished && !exited && !reapTimer) {
          reapTimer = setTimeout(() => child.kill(), REAP_MS);
          reapTimer.unref();
        }
      });
      child.on('exit', (code, signal) => {
        exited = true;
        if (killTimer) clearTimeout(killTimer);
        if (reapTimer) clearTimeout(reapTimer);
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
          if (finished || cancelled) return;
          cancelled = true;
          const stop: ToJobRunner = { type: 'cancel' };
          child.send(stop);
          killAfter(o.ackMs ?? ACK_MS);
        },
      };
    },
  };
}
