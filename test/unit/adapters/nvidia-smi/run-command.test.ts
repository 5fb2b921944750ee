import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../../../src-main/adapters/nvidia-smi/run-command.js';

const node = process.execPath;

describe('runCommand', () => {
  it('captures stdout and stderr of a successful run', async () => {
    const r = await runCommand(node, ['-e', 'console.log("out"); console.error("err")']);
    expect(r).toEqual({ kind: 'ok', stdout: 'out\n', stderr: 'err\n', code: 0 });
  });

  it('reports a non-zero exit with its output', async () => {
    const r = await runCommand(node, [
      '-e',
      'console.log("Field \\"x\\" is not a valid field to query."); process.exit(2)',
    ]);
    expect(r).toMatchObject({ kind: 'exit', code: 2, stdout: 'Field "x" is not a valid field to query.\n' });
  });

  it('reports a missing binary or a directory as not-found', async () => {
    expect(await runCommand('/nonexistent/dir/nvidia-smi', [])).toEqual({ kind: 'not-found' });
    expect(await runCommand(os.tmpdir(), [])).toEqual({ kind: 'not-found' });
  });

  it('kills a hung child at the timeout and settles at once', async () => {
    const start = Date.now();
    const r = await runCommand(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 300 });
    expect(r).toEqual({ kind: 'timeout' });
    expect(Date.now() - start).toBeLessThan(3000);
  });

  it.skipIf(process.platform !== 'linux')('on timeout kills what a wrapper script started too', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'smi-wrap-'));
    const pidFile = path.join(dir, 'grandchild.pid');
    const wrapper = path.join(dir, 'nvidia-smi');
    writeFileSync(wrapper, `#!/bin/sh\nsleep 300 &\necho $! > ${pidFile}\nwait\n`, { mode: 0o755 });
    const r = await runCommand(wrapper, [], { timeoutMs: 500 });
    expect(r).toEqual({ kind: 'timeout' });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((res) => setTimeout(res, 200));
    // Gone, or a zombie waiting for init to reap it (state Z): either way no longer running.
    let state = 'gone';
    try {
      const stat = readFileSync(`/proc/${grandchild}/stat`, 'utf8');
      state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch {
      state = 'gone';
    }
    expect(['gone', 'Z', 'X']).toContain(state);
  });

  it('stops a child whose output exceeds the cap', async () => {
    const r = await runCommand(node, ['-e', 'process.stdout.write("x".repeat(1e6)); setInterval(() => {}, 1000)'], {
      maxOutputBytes: 1000,
    });
    expect(r).toEqual({ kind: 'error', message: 'output exceeded 1000 bytes' });
  });

  it('passes the given environment to the child', async () => {
    const r = await runCommand(node, ['-e', 'process.stdout.write(process.env.FOO ?? "")'], { env: { FOO: 'bar' } });
    expect(r).toMatchObject({ kind: 'ok', stdout: 'bar' });
  });
});
