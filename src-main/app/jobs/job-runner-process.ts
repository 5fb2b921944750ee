/**
 * Entry of the job-runner child (dist/job-runner.js): runs one long job against the
 * store on disk and reports to its parent (a forked child's IPC channel, or an Electron
 * utility process's parentPort). A `cancel` message is answered `stopping` and aborts the job
 * (a profile keeps what it finished); the parent kills the child if it does not answer at once
 * (busy in synchronous work) or does not stop in time. The store is
 * closed before the last message: the parent may end the process once it has it.
 */
import { openDatabase } from '../../adapters/store/open-database.js';
import { errorMessage, UserError } from '../../core/errors.js';
import { StoreError } from '../../adapters/store/errors.js';
import { JOB_FUNCTIONS } from './job-functions.js';
import type { FromJobRunner, ToJobRunner } from './protocol.js';
import { parentChannel } from '../../adapters/process/parent-port.js';

const controller = new AbortController();

const parent = parentChannel<ToJobRunner, FromJobRunner>();

function send(m: FromJobRunner): void {
  parent.send(m);
}

/** The job's last message (done or failed), once the store is closed. */
async function run(m: Extract<ToJobRunner, { type: 'start' }>): Promise<FromJobRunner> {
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
    return { type: 'done', result };
  } catch (e) {
    const known = e instanceof UserError || e instanceof StoreError;
    return {
      type: 'failed',
      message: known ? errorMessage(e) : `internal error: ${errorMessage(e)}`,
      cancelled: controller.signal.aborted,
    };
  } finally {
    db?.close();
  }
}

parent.onMessage((m) => {
  if (m.type === 'cancel') {
    // Said first: the parent kills a runner that does not answer at once (one busy in a plan's search).
    send({ type: 'stopping' });
    controller.abort();
  } else if (m.type === 'start')
    // sendLast waits until a large result (an evaluation report) has left: ending the
    // channel while it is still being written drops it.
    void run(m)
      .then((last) => parent.sendLast(last))
      .finally(() => parent.end());
});
// Ctrl-C in the terminal running `serve` reaches the whole process group: let the parent decide.
process.on('SIGINT', () => controller.abort());
