/** Jobs in real job-runner children (dist/job-runner.js) on a database file, as the app runs them. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../../src-main/app/app-core.js';
import type { JobEvent } from '../../../../src-main/api/contract.js';
import type { JobView } from '../../../../src-main/api/view-models.js';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { seedStore } from '../../../helpers/seeded-store.js';
import { tempDir } from '../../../helpers/cli.js';
import { bigProfileFile } from '../../../helpers/big-profile.js';
import { encodeProfile } from '../../../../src-main/core/profile-file/codec.js';

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

function until(c: AppCore, jobId: string, pred: (e: JobEvent) => boolean): Promise<JobEvent> {
  return new Promise((resolve) => {
    const off = c.jobs.subscribe((e) => {
      if (e.jobId === jobId && pred(e)) {
        off();
        resolve(e);
      }
    });
  });
}

function finished(c: AppCore, jobId: string): Promise<JobView> {
  return until(c, jobId, (e) => e.type === 'state' && e.job.state !== 'running').then(
    () => c.jobs.get(jobId) as JobView,
  );
}

/** This process's children now (Linux /proc), by pid, with their command lines. */
function children(): Map<number, string> {
  const pids = new Set<number>();
  for (const t of readdirSync(`/proc/${process.pid}/task`)) {
    const text = readFileSync(`/proc/${process.pid}/task/${t}/children`, 'utf8').trim();
    for (const p of text ? text.split(/\s+/) : []) pids.add(Number(p));
  }
  const out = new Map<number, string>();
  for (const pid of pids) {
    try {
      out.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the process is gone within `ms` (a killed child lingers until its parent reaps it). */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe('jobs in child processes', () => {
  it('imports a profile in a child: the event loop keeps running, and garbage gets one line', async () => {
    const dir = tempDir('pdjv-import-');
    core = createAppCore({ dbPath: path.join(dir, 'db.sqlite'), transport: 'http' });
    const text = encodeProfile(bigProfileFile(40_000));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const r = await core.dispatch('machine:import', { fileName: 'big.json', text });
    clearInterval(timer);
    expect(r).toMatchObject({ ok: true, value: { action: 'imported', counts: { measurements: 40_000 } } });
    // Stored by the child while this process went on answering (an in-process import ticks 0 times).
    expect(ticks).toBeGreaterThan(5);
    const jobs = await core.dispatch('job:list', {});
    expect(jobs.ok && (jobs.value as JobView[]).map((j) => [j.kind, j.state])).toEqual([['import', 'done']]);
    const bad = await core.dispatch('machine:import', { fileName: 'x.json', text: '{"format": 1' });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'user', message: expect.stringMatching(/^x\.json is not JSON/) },
    });
  }, 60_000);

  it('plans in a child and hands back the plan view', async () => {
    const dir = tempDir('pdjv-child-');
    const dbPath = path.join(dir, 'db.sqlite');
    const seed = openDatabase(dbPath);
    seedStore(seed);
    seed.close();
    core = createAppCore({ dbPath, transport: 'http' });
    const t = await core.dispatch('predictor:train', { predictors: ['analytical'] });
    if (!t.ok) throw new Error(t.error.message);
    const jobId = (t.value as { jobId: string }).jobId;
    expect((await finished(core, jobId)).state).toBe('done');
    const p = await core.dispatch('plan:create', { workload: 'bert-base', devices: 'all', mode: 'training', batch: 8 });
    if (!p.ok) throw new Error(p.error.message);
    const planId = (p.value as { jobId: string }).jobId;
    const job = await finished(core, planId);
    expect(job.state).toBe('done');
    expect((job.result as { plans: unknown[] }).plans.length).toBeGreaterThan(0);
  });

  it.runIf(process.platform === 'linux')(
    'cancels a heavy plan: its runner is killed and the job says cancelled at once, never done',
    async () => {
      const dir = tempDir('pdjv-cancel-plan-');
      core = createAppCore({ dbPath: path.join(dir, 'db.sqlite'), transport: 'http' });
      const before = children();
      // Llama 3.1 70B trained on 16,384 datasheet H100s: a search of seconds, synchronous in the runner.
      const p = await core.dispatch('plan:create', {
        workload: 'llama-3.1-70b',
        batch: 2048,
        devices: 'none',
        mode: 'training',
        virtual: ['16384xH100 SXM5'],
      });
      if (!p.ok) throw new Error(p.error.message);
      const jobId = (p.value as { jobId: string }).jobId;
      await until(core, jobId, (e) => e.type === 'progress' && e.job.label === 'searching plans');
      const runners = [...children()].filter(([pid, cmd]) => !before.has(pid) && cmd.includes('job-runner.js'));
      expect(runners).toHaveLength(1);
      const [pid] = runners[0] as [number, string];
      const ended = finished(core, jobId);
      expect(await core.dispatch('job:cancel', { jobId })).toEqual({ ok: true, value: { cancelled: true } });
      // Within a second where the machine is quiet (bench: npm run bench:hostile -- serve-cancel-plan); 5 s under load.
      const job = await Promise.race([ended, new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
      expect(job).toMatchObject({ state: 'cancelled', error: 'cancelled', result: null });
      // Killed, not finished: the search alone takes longer than this.
      expect(await goneWithin(pid, 2000)).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(core.jobs.get(jobId)?.state).toBe('cancelled');
    },
    60_000,
  );

  it('cancels a real profile: the job ends cancelled and the finished kernels stay stored', async () => {
    const dir = tempDir('pdjv-cancel-');
    const dbPath = path.join(dir, 'db.sqlite');
    core = createAppCore({
      dbPath,
      transport: 'http',
      env: { ...process.env, PIPEDEJAVU_NVIDIA_SMI: '/nonexistent', PIPEDEJAVU_RUN_CONDITIONS: 'off' },
    });
    const r = await core.dispatch('profile:start', { device: 'cpu', suite: 'quick', threads: [1] });
    if (!r.ok) throw new Error(r.error.message);
    const jobId = (r.value as { jobId: string }).jobId;
    // A second profile while one runs is refused with a clear line.
    const second = await core.dispatch('profile:start', { device: 'cpu', suite: 'quick', threads: [1] });
    expect(second).toMatchObject({
      ok: false,
      error: { code: 'user', message: expect.stringMatching(/already running/) },
    });
    await until(core, jobId, (e) => e.kernel !== undefined && e.job.done >= 4);
    expect((await core.dispatch('job:cancel', { jobId })).ok).toBe(true);
    const job = await finished(core, jobId);
    expect(job.state).toBe('cancelled');
    expect(job.error).toMatch(/cancelled; finished measurements are stored/);
    const stored = new ProfileRepo(core.deps.db).listMeasurements({});
    expect(stored.length).toBeGreaterThan(0);
  }, 60_000);
});
