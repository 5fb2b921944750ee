#!/usr/bin/env node
// A kernel runner that misbehaves on purpose, to test the profiler's recovery:
// BROKEN_RUNNER=crash: dies by SIGSEGV on every job; =hang: never answers;
// =crash-once-file:PATH: dies on the first job if PATH does not exist yet (creates it),
// then behaves as a runner that reports a tiny successful kernel; =env: fails every job with
// its GLIBC_TUNABLES as the error (which child a job went to, and how it allocates).
import { existsSync, writeFileSync } from 'node:fs';

const mode = process.env.BROKEN_RUNNER ?? 'crash';
// A forked child, or (test/helpers/fake-parent-port.mjs) one made to look like a utility process.
const port = process.parentPort;
const send = (m) => (port ? port.postMessage(m) : process.send(m));
const onMessage = (l) => (port ? port.on('message', (e) => l(e.data)) : process.on('message', l));
send({ type: 'ready', ortVersion: 'broken-1.0', backends: [{ name: 'cpu', bundled: true }] });
onMessage((msg) => {
  if (msg.type === 'exit') process.exit(0);
  if (mode === 'env') {
    const answer = { run: 'result', overhead: 'overhead-result', optimize: 'optimize-result', 'run-model': 'model-result' };
    const error = `GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ?? ''}`;
    send({ type: answer[msg.type], outcome: { id: msg.job.id, ok: false, kind: 'failed', error } });
    return;
  }
  // Overhead chains, executed graphs and whole models: this runner cannot, and says so.
  const unsupported = { overhead: 'overhead-result', optimize: 'optimize-result', 'run-model': 'model-result' };
  if (unsupported[msg.type] && mode !== 'hang') {
    const outcome = { id: msg.job.id, ok: false, kind: 'failed', error: `${msg.type} is not done by this runner` };
    send({ type: unsupported[msg.type], outcome });
    return;
  }
  if (msg.type !== 'run') return;
  if (mode === 'hang') return;
  if (mode.startsWith('crash-once-file:')) {
    const flag = mode.slice('crash-once-file:'.length);
    if (!existsSync(flag)) {
      writeFileSync(flag, 'crashed');
      process.kill(process.pid, 'SIGSEGV');
      return;
    }
    const samples = Array.from({ length: 10 }, () => 50);
    send({
      type: 'result',
      outcome: {
        id: msg.job.id,
        ok: true,
        kernelUs: samples,
        wallUs: samples.map((v) => v + 10),
        providers: ['CPUExecutionProvider'],
        byOpUs: {},
        nodeOps: {},
        stop: 'converged',
        sessionCreateMs: 1,
      },
    });
    return;
  }
  process.kill(process.pid, 'SIGSEGV');
});
