/**
 * The job and kernel runners as the Electron shell starts them: utility processes that
 * talk over process.parentPort and never exit by themselves, the kernel runner started by
 * the parent on the job runner's behalf (a utility process cannot start one). Electron
 * cannot run here, so the utility processes are forked children made to look like them
 * (test/helpers/fake-parent-port.mjs: parentPort, no process.send), behind the same relay
 * (withRelay) the Electron launcher uses.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  childProcessLauncher,
  type LaunchedChild,
  type ProcessLauncher,
} from '../../../src-main/adapters/process/launcher.js';
import { withRelay } from '../../../src-main/adapters/process/relay.js';
import { KernelRunner } from '../../../src-main/adapters/ort/kernel-runner.js';
import { createAppCore, type AppCore } from '../../../src-main/app/app-core.js';
import type { JobView } from '../../../src-main/api/view-models.js';
import type { JobEvent } from '../../../src-main/api/contract.js';
import { makeKernel } from '../../../src-main/core/kernels/cost.js';
import { menuTemplate } from '../../../src-main/electron/menu.js';
import { tempDir } from '../../helpers/cli.js';

const shim = pathToFileURL(path.resolve('test/helpers/fake-parent-port.mjs')).href;
const kernelRunner = path.resolve('dist/kernel-runner.js');
const jobRunner = path.resolve('dist/job-runner.js');
const broken = path.resolve('test/helpers/broken-runner.mjs');
const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 30, targetCi: 0.05, budgetMs: 100 };

interface Started {
  modulePath: string;
  exited: Promise<{ code: number | null; signal: string | null }>;
}

/** Fake utility processes, each one recorded with a promise of its exit. */
function fakeUtilities(started: Started[]): ProcessLauncher {
  return {
    fork(modulePath, o) {
      const child: LaunchedChild = childProcessLauncher.fork(modulePath, {
        ...o,
        execArgv: [...(o.execArgv ?? []), '--import', shim],
      });
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      );
      started.push({ modulePath: path.resolve(modulePath), exited });
      return child;
    },
  };
}

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

/** Profiling on the CPU alone: no nvidia-smi, no run conditions read. */
const CPU_ONLY = { ...process.env, PIPEDEJAVU_NVIDIA_SMI: '/nonexistent', PIPEDEJAVU_RUN_CONDITIONS: 'off' };

/** An app core on a fresh database whose runners are fake utility processes (`allowed` of them), each recorded in `started`. */
function utilityCore(started: Started[], allowed: string[], env?: NodeJS.ProcessEnv): AppCore {
  const dir = tempDir('pdjv-utility-');
  core = createAppCore({
    dbPath: path.join(dir, 'db.sqlite'),
    transport: 'electron',
    ...(env ? { env } : {}),
    launcher: withRelay(fakeUtilities(started), allowed),
  });
  return core;
}

function finished(c: AppCore, jobId: string): Promise<JobView> {
  return new Promise((resolve) => {
    const off = c.jobs.subscribe((e: JobEvent) => {
      if (e.jobId === jobId && e.type === 'state' && e.job.state !== 'running') {
        off();
        resolve(c.jobs.get(jobId) as JobView);
      }
    });
  });
}

describe('runners in (fake) utility processes', () => {
  it('runs kernels in a kernel runner that talks over parentPort, and ends it on close', async () => {
    const started: Started[] = [];
    const runner = new KernelRunner({ runnerPath: kernelRunner, launcher: withRelay(fakeUtilities(started), []) });
    const info = await runner.start();
    expect(info.backends.find((b) => b.name === 'cpu')?.bundled).toBe(true);
    const o = await runner.run({ spec: makeKernel('Relu', 'fp32', { n: 256 }), ep: { name: 'cpu', threads: 1 }, rule });
    expect(o.ok).toBe(true);
    await runner.close();
    expect(started.map((s) => s.modulePath)).toEqual([kernelRunner]);
    await started[0]?.exited;
  });

  it('kills a hanging kernel runner at the job timeout', async () => {
    const started: Started[] = [];
    const runner = new KernelRunner({
      runnerPath: broken,
      jobTimeoutMs: 300,
      env: { ...process.env, BROKEN_RUNNER: 'hang' },
      launcher: withRelay(fakeUtilities(started), []),
    });
    const o = await runner.run({ spec: makeKernel('Relu', 'fp32', { n: 64 }), ep: { name: 'cpu', threads: 1 }, rule });
    expect(o).toMatchObject({ ok: false, kind: 'timeout' });
    expect(await started[0]?.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await runner.close();
  });

  it('runs a job in a job runner and ends the process after its last message (utility processes stay up when idle)', async () => {
    const started: Started[] = [];
    const c = utilityCore(started, [jobRunner, kernelRunner]);
    const r = await c.dispatch('machine:import', { fileName: 'x.json', text: '{"format": 1' });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'user', message: expect.stringMatching(/^x\.json is not JSON/) },
    });
    expect(started.map((s) => s.modulePath)).toEqual([jobRunner]);
    expect((await started[0]?.exited)?.signal).toBe('SIGKILL');
  }, 60_000);

  it("starts a profile's two kernel runners through the parent, and a cancel ends every process", async () => {
    const started: Started[] = [];
    const c = utilityCore(started, [jobRunner, kernelRunner], CPU_ONLY);
    const r = await c.dispatch('profile:start', { device: 'cpu', suite: 'quick', threads: [1] });
    if (!r.ok) throw new Error(r.error.message);
    const jobId = (r.value as { jobId: string }).jobId;
    await new Promise<void>((resolve) => {
      const off = c.jobs.subscribe((e) => {
        if (e.jobId === jobId && e.kernel !== undefined && e.job.done >= 2) {
          off();
          resolve();
        }
      });
    });
    // Micro-kernels in one (memory kept for reuse), overhead chains and calibration models in the other.
    expect(started.map((s) => s.modulePath)).toEqual([jobRunner, kernelRunner, kernelRunner]);
    expect((await c.dispatch('job:cancel', { jobId })).ok).toBe(true);
    const job = await finished(c, jobId);
    expect(job.state).toBe('cancelled');
    await Promise.all(started.map((s) => s.exited));
  }, 60_000);

  it('starts only the allowed runners for a child: anything else is one line, not a hang', async () => {
    const started: Started[] = [];
    const c = utilityCore(started, [jobRunner], CPU_ONLY);
    const r = await c.dispatch('profile:start', { device: 'cpu', suite: 'quick', threads: [1] });
    if (!r.ok) throw new Error(r.error.message);
    const job = await finished(c, (r.value as { jobId: string }).jobId);
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/refused to start .*kernel-runner\.js: not one of the app's runners/);
    expect(started.map((s) => s.modulePath)).toEqual([jobRunner]);
  }, 60_000);
});

describe('Electron without a Node interpreter', () => {
  it('never asks for ELECTRON_RUN_AS_NODE anywhere in src-main', () => {
    const hits: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (readFileSync(p, 'utf8').includes('ELECTRON_RUN_AS_NODE')) hits.push(p);
      }
    };
    walk('src-main');
    expect(hits).toEqual([]);
  });

  it('has no Developer Tools item or shortcut in a packaged build', () => {
    const roles = (packaged: boolean): string[] =>
      JSON.stringify(menuTemplate(() => undefined, { isMac: false, packaged }))
        .match(/"role":"\w+"/g)
        ?.map((r) => r.slice(8, -1)) ?? [];
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(true)).not.toContain('viewMenu');
    expect(roles(true)).toContain('zoomIn');
    expect(roles(false)).toContain('viewMenu');
  });
});
