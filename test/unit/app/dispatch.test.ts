import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src-main/app/app-core.js';
import { CHANNEL_NAMES } from '../../../src-main/api/contract.js';
import { HANDLERS } from '../../../src-main/app/handlers/index.js';
import { MachineRepo } from '../../../src-main/adapters/store/machine-repo.js';
import { seedStore, SEEDED_MACHINE } from '../../helpers/seeded-store.js';
import { tempDir } from '../../helpers/cli.js';
import { sampleProfileFile } from '../../helpers/sample-profile.js';

const ONNX = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

function open(seed = true): AppCore {
  const dir = tempDir('pdjv-app-');
  core = createAppCore({ dbPath: path.join(dir, 'db.sqlite'), transport: 'http', inProcessJobs: true });
  if (seed) seedStore(core.deps.db);
  return core;
}

describe('the contract and its handlers', () => {
  it('has exactly one handler per channel', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual([...CHANNEL_NAMES].sort());
    for (const c of CHANNEL_NAMES) expect(c).toMatch(/^[a-z]+:[a-z]+$/);
  });
});

describe('dispatch', () => {
  it('refuses unknown channels and payloads that fail the schema, without calling a handler', async () => {
    const { dispatch } = open();
    expect(await dispatch('machine:delete-everything', {})).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const bad = await dispatch('profile:start', { device: 'cpu; rm -rf /', suite: 'quick' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid' } });
    if (!bad.ok) expect(bad.error.message).toMatch(/^profile:start: device/);
    expect(await dispatch('machine:list', { extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await dispatch('plan:create', null)).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await dispatch('job:list', {})).toEqual({ ok: true, value: [] });
  });

  it('answers the seeded machine, its runs and rooflines', async () => {
    const { dispatch } = open();
    const m = await dispatch('machine:get', {});
    expect(m).toMatchObject({ ok: true, value: { id: SEEDED_MACHINE, source: 'local' } });
    const runs = await dispatch('profile:runs', {});
    expect(runs.ok && (runs.value as unknown[]).length).toBe(2);
    const roof = await dispatch('profile:roofline', {});
    expect(roof.ok).toBe(true);
    if (roof.ok) {
      const r = roof.value as { id: string; threads: number; points: { gflops: number }[] }[];
      expect(r.map((x) => x.threads)).toEqual([1, 16]);
      expect(r.map((x) => x.id)).toEqual(['cpu@1t', 'cpu@16t']);
      expect(r[0]?.points.length).toBeGreaterThan(10);
    }
  });

  it('says "none yet" on an empty store instead of failing', async () => {
    const { dispatch } = open(false);
    expect(await dispatch('machine:get', {})).toEqual({ ok: true, value: null });
    expect(await dispatch('predictor:report', {})).toEqual({ ok: true, value: null });
    const runs = await dispatch('profile:runs', {});
    expect(runs).toMatchObject({ ok: false, error: { code: 'user' } });
  });

  it('imports a profile file and refuses garbage with one line, storing nothing', async () => {
    const { dispatch, deps } = open();
    const before = new MachineRepo(deps.db).listMachines().length;
    const bad = await dispatch('machine:import', { fileName: 'x.json', text: '{"not": "a profile"' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'user' } });
    if (!bad.ok) expect(bad.error.message.split('\n')).toHaveLength(1);
    expect(new MachineRepo(deps.db).listMachines()).toHaveLength(before);
    const good = await dispatch('machine:import', { fileName: 'lab.json', text: JSON.stringify(sampleProfileFile()) });
    expect(good).toMatchObject({ ok: true, value: { action: 'imported' } });
    const exported = await dispatch('machine:export', { id: SEEDED_MACHINE });
    expect(exported).toMatchObject({ ok: true, value: { fileName: expect.stringMatching(/\.pipedejavu\.json$/) } });
  });

  it('accepts from the renderer only paths the open dialog returned in this session', async () => {
    const dir = tempDir('pdjv-app-');
    let picked: string | null = null;
    core = createAppCore({
      dbPath: path.join(dir, 'db.sqlite'),
      transport: 'electron',
      inProcessJobs: true,
      dialogs: {
        open: async () => {
          picked = ONNX;
          return { fileName: 'cls.onnx', path: ONNX, text: null };
        },
        save: async () => null,
        opened: (p) => p === picked,
      },
    });
    const req = { fileName: 'cls.onnx', path: ONNX, inputs: { x: [1, 3, 48, 192] } };
    const before = await core.dispatch('workload:add', req);
    expect(before).toMatchObject({
      ok: false,
      error: { message: 'cls.onnx was not chosen in the open dialog; choose it there' },
    });
    await core.dispatch('dialog:open', { purpose: 'onnx' });
    expect(await core.dispatch('workload:add', req)).toMatchObject({ ok: true, value: { name: 'cls' } });
  });

  it('adds an uploaded ONNX model, and removes the upload when the model is broken', async () => {
    const { dispatch, deps } = open();
    const { readFileSync } = await import('node:fs');
    const data = readFileSync(ONNX).toString('base64');
    const added = await dispatch('workload:add', {
      fileName: 'cls.onnx',
      dataBase64: data,
      inputs: { x: [1, 3, 48, 192] },
    });
    // Without the input shape: the one line names the symbolic dim to bind.
    const unbound = await dispatch('workload:add', { fileName: 'cls.onnx', name: 'cls-unbound', dataBase64: data });
    expect(unbound).toMatchObject({ ok: false, error: { message: expect.stringMatching(/symbolic dim/) } });
    expect(added).toMatchObject({ ok: true, value: { name: 'cls', source: 'onnx' } });
    const truncated = readFileSync(ONNX).subarray(0, 5000).toString('base64');
    const bad = await dispatch('workload:add', { fileName: 'broken.onnx', dataBase64: truncated });
    expect(bad).toMatchObject({ ok: false, error: { code: 'user' } });
    expect(readdirSync(path.join(deps.dataDir, 'models'))).toEqual(['cls.onnx']);
    const both = await dispatch('workload:add', { fileName: 'x.onnx' });
    expect(both).toMatchObject({ ok: false, error: { code: 'invalid' } });
    const list = await dispatch('workload:list', {});
    expect(list.ok && (list.value as { name: string }[]).map((w) => w.name)).toEqual(['cls']);
    // Removing it removes the uploaded copy too.
    expect(await dispatch('workload:remove', { name: 'cls' })).toEqual({ ok: true, value: { name: 'cls' } });
    expect(readdirSync(path.join(deps.dataDir, 'models'))).toEqual([]);
  });

  it('refuses native dialogs in web mode', async () => {
    const { dispatch } = open();
    expect(await dispatch('dialog:open', { purpose: 'onnx' })).toMatchObject({
      ok: false,
      error: { code: 'unavailable' },
    });
  });
});

describe('jobs through the dispatch', () => {
  async function waitJob(
    c: AppCore,
    jobId: string,
  ): Promise<{ state: string; result: unknown; error: string | null; log: string[] }> {
    for (;;) {
      const r = await c.dispatch('job:get', { jobId });
      if (!r.ok) throw new Error(r.error.message);
      const v = r.value as { state: string; result: unknown; error: string | null; log: string[] };
      if (v.state !== 'running') return v;
      await new Promise((res) => setTimeout(res, 20));
    }
  }

  it('trains, predicts a catalog model per device and plans it with a timeline', async () => {
    const c = open();
    const events: string[] = [];
    c.jobs.subscribe((e) => events.push(e.type));
    const t = await c.dispatch('predictor:train', { predictors: ['analytical', 'forest'] });
    expect(t.ok).toBe(true);
    const trained = await waitJob(c, (t as { value: { jobId: string } }).value.jobId);
    expect(trained.state).toBe('done');
    expect(events).toContain('progress');
    const list = await c.dispatch('predictor:list', {});
    expect(list.ok && (list.value as { name: string }[]).map((p) => p.name).sort()).toEqual(['analytical', 'forest']);

    const p = await c.dispatch('workload:predict', { workload: 'resnet50', mode: 'inference', batch: 1 });
    expect(p.ok).toBe(true);
    if (p.ok) {
      const v = p.value as { devices: { id: string; label: string; layerUs: number[] }[]; layers: string[] };
      expect(v.devices).toHaveLength(2);
      expect(v.devices[0]?.layerUs).toHaveLength(v.layers.length);
      // One CPU at two thread counts: two devices, told apart by id (the renderer keys its rows on it).
      expect(v.devices.map((d) => d.id)).toEqual(['cpu@1t', 'cpu@16t']);
      expect(v.devices.map((d) => d.label)).toEqual([
        expect.stringContaining('CPU, 1 thread'),
        expect.stringContaining('CPU, 16 threads'),
      ]);
    }

    // workload:fit runs in the job runner: memory per serving format and the GPUs that hold it.
    const fit = await c.dispatch('workload:fit', { workload: 'llama-3.1-8b', mode: 'inference', gpus: ['RTX 4090'] });
    expect(fit.ok).toBe(true);
    if (fit.ok) {
      const v = fit.value as { params: number; rows: { label: string; alone: string[] }[] };
      expect(v.params).toBe(8_030_261_248);
      expect(v.rows.find((r) => r.label === 'q4_k')?.alone).toEqual(['NVIDIA GeForce RTX 4090']);
    }

    const plan = await c.dispatch('plan:create', {
      workload: 'gpt2-small',
      devices: 'all',
      mode: 'inference',
      batch: 8,
    });
    const done = await waitJob(c, (plan as { value: { jobId: string } }).value.jobId);
    expect(done.state).toBe('done');
    const view = done.result as { plans: { stepUs: number }[]; timeline: { endUs: number }[]; exports: unknown };
    expect(view.plans.length).toBeGreaterThan(0);
    expect(view.timeline.length).toBeGreaterThan(0);
    expect(view.exports).not.toBeNull();
  });

  it('trains the predictors named by the old field `models` too, and its log says the field is deprecated', async () => {
    const c = open();
    const t = await c.dispatch('predictor:train', { models: ['linear'] });
    expect(t.ok).toBe(true);
    const trained = await waitJob(c, (t as { value: { jobId: string } }).value.jobId);
    expect(trained.state).toBe('done');
    expect(trained.log).toContain('`models` is deprecated: use `predictors`');
    const list = await c.dispatch('predictor:list', {});
    expect(list.ok && (list.value as { name: string }[]).map((p) => p.name)).toEqual(['linear']);
  });

  it('reports a failing job as failed with its one-line reason', async () => {
    const c = open(false);
    const t = await c.dispatch('predictor:train', {});
    const r = await waitJob(c, (t as { value: { jobId: string } }).value.jobId);
    expect(r.state).toBe('failed');
    expect(r.error).toMatch(/run `pipedejavu profile --suite quick` first/);
  });
});
