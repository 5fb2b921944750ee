/**
 * Runs jobs in this process on a given store. For tests and for `:memory:` stores,
 * where a child process cannot see the data; the app uses the child executor.
 */
import { errorMessage, UserError } from '../../core/errors.js';
import { StoreError } from '../../adapters/store/errors.js';
import type { Database } from '../../adapters/store/types.js';
import { JOB_FUNCTIONS, type JobEnv } from './job-functions.js';
import type { JobExecutor, RunningJob } from './job-manager.js';
import type { FromJobRunner, RunnerKind } from './protocol.js';

export function inProcessExecutor(db: Database, env: NodeJS.ProcessEnv = process.env): JobExecutor {
  return {
    start(kind: RunnerKind, request: unknown, onMessage: (m: FromJobRunner) => void): RunningJob {
      const controller = new AbortController();
      const fn = JOB_FUNCTIONS[kind] as (e: JobEnv, r: unknown) => Promise<unknown>;
      const e: JobEnv = {
        db,
        env,
        signal: controller.signal,
        report: {
          progress: (done, total, label) => onMessage({ type: 'progress', done, total, label }),
          log: (line) => onMessage({ type: 'log', line }),
          kernel: (kernel) => onMessage({ type: 'kernel', kernel }),
        },
      };
      // Started on the next turn, as a child would: the caller has the job id first.
      setImmediate(() => {
        fn(e, request).then(
          (result) => onMessage({ type: 'done', result }),
          (err: unknown) =>
            onMessage({
              type: 'failed',
              message:
                err instanceof UserError || err instanceof StoreError
                  ? errorMessage(err)
                  : `internal error: ${errorMessage(err)}`,
              cancelled: controller.signal.aborted,
            }),
        );
      });
      return { cancel: () => controller.abort() };
    },
  };
}
