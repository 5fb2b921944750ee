/**
 * Entry of the job-runner child (dist/job-runner.js): runs one long job against the
 * store on disk and reports over IPC. A `cancel` message aborts the job (a profile keeps
 * what it finished); the parent kills the child if it does not stop in time.
 */
import { openDatabase } from '../../adapters/store/open-database.js';
import { errorMessage, UserError } from '../../core/errors.js';
import { StoreError } from '../../adapters/store/errors.js';
import { JOB_FUNCTIONS } from './job-functions.js';
import type { FromJobRunner, ToJobRunner } from './protocol.js';

const controller = new AbortController();

function send(m: FromJobRunner): void {
  process.send?.(m);
}

/**
 * The last message, delivered before the channel is closed: a large result (an evaluation
 * report) is still being written to the pipe when send returns, and disconnecting then
 * drops it.
 */
function sendLast(m: FromJobRunner): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) resolve();
    else process.send(m, undefined, {}, () => resolve());
  });
}

async function run(m: Extract<ToJobRunner, { type: 'start' }>): Promise<void> {
  let db: ReturnType<typeof openDatabase> | null = null;
  try {
    db = openDatabase(m.dbPath);
    const fn = JOB_FUNCTIONS[m.kind] as (
      e: Parameters<(typeof JOB_FUNCTIONS)['plan']>[0],
      r: unknown,
    ) => Promise<unknown>;
    const result = await fn(
      {
        db,
        env: process.env,
        signal: controller.signal,
        report: {
          progress: (done, total, label) => send({ type: 'progress', done, total, label }),
          log: (line) => send({ type: 'log', line }),
          kernel: (kernel) => send({ type: 'kernel', kernel }),
        },
      },
      m.request,
    );
    await sendLast({ type: 'done', result });
  } catch (e) {
    const known = e instanceof UserError || e instanceof StoreError;
    await sendLast({
      type: 'failed',
      message: known ? errorMessage(e) : `internal error: ${errorMessage(e)}`,
      cancelled: controller.signal.aborted,
    });
  } finally {
    db?.close();
  }
}

process.on('message', (m: ToJobRunner) => {
  if (m.type === 'cancel') controller.abort();
  else if (m.type === 'start') void run(m).finally(() => process.disconnect?.());
});
// Ctrl-C in the terminal running `serve` reaches the whole process group: let the parent decide.
process.on('SIGINT', () => controller.abort());
