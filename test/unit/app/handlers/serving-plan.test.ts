/** `serving:plan`: the capacity search over the API, as the app's Serving view calls it. */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../../src-main/app/app-core.js';
import type { ServingPlanView } from '../../../../src-main/api/view-models.js';
import { tempDir } from '../../../helpers/cli.js';

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

const REQUEST = {
  workload: 'llama-3.1-8b',
  rate: 5,
  prompt: 1000,
  output: 100,
  requests: 40,
  slo: [{ metric: 'ttft', percentile: 'p90', ms: 1000 }],
  gpus: ['H100 SXM5'],
  top: 2,
};

describe('serving:plan', () => {
  it('answers the ranked deployments with their curves and prices', async () => {
    core = createAppCore({
      dbPath: path.join(tempDir('pdjv-app-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    const r = await core.dispatch('serving:plan', REQUEST);
    expect(r.ok).toBe(true);
    const v = (r.ok ? r.value : null) as ServingPlanView;
    expect(v.deployments[0]).toMatchObject({ gpuId: 'h100-sxm5-80gb', meets: true });
    expect(v.deployments[0]?.curve.length).toBeGreaterThan(0);
    expect(v.prices).toHaveLength(1);
  });

  it('refuses a rate of 0 and a model that is no decoder, each as a user error', async () => {
    core = createAppCore({
      dbPath: path.join(tempDir('pdjv-app-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    expect(await core.dispatch('serving:plan', { ...REQUEST, rate: 0 })).toMatchObject({
      ok: false,
      error: { code: 'invalid' },
    });
    const bert = await core.dispatch('serving:plan', { ...REQUEST, workload: 'bert-base' });
    expect(bert).toMatchObject({ ok: false, error: { code: 'user' } });
    if (!bert.ok) expect(bert.error.message).toMatch(/not one/);
  });

  it('takes length specs and a burst, describes the load, and refuses a bad spec naming the field', async () => {
    core = createAppCore({
      dbPath: path.join(tempDir('pdjv-app-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    const r = await core.dispatch('serving:plan', {
      ...REQUEST,
      prompt: 'lognormal:1000:0.5',
      output: '50-150',
      burst: 2,
    });
    expect(r.ok).toBe(true);
    const v = (r.ok ? r.value : null) as ServingPlanView;
    expect(v.load).toMatchObject({ burst: 2, output: 100 });
    expect(v.load.described).toMatchObject({
      arrivals: 'bursts, gaps gamma with CV 2 (seed 1)',
      prompt: expect.stringMatching(/^lognormal, median 1000 tokens, sigma 0\.5/),
      output: 'uniform 50-150 tokens',
    });
    const bad = await core.dispatch('serving:plan', { ...REQUEST, prompt: 'lognormal:1000' });
    expect(bad).toMatchObject({ ok: false });
    if (!bad.ok) expect(bad.error.message).toMatch(/^prompt lognormal:1000: write lognormal:MEDIAN:SIGMA/);
  });

  it('takes a trace as the text of a chosen file, describes it by name, and refuses a bad row naming it', async () => {
    core = createAppCore({
      dbPath: path.join(tempDir('pdjv-app-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    const { prompt: _p, output: _o, ...load } = REQUEST;
    const rows = Array.from({ length: 40 }, (_, i) => JSON.stringify({ t: i * 0.2, prompt: 800 + i, output: 90 }));
    const r = await core.dispatch('serving:plan', {
      ...load,
      trace: { fileName: 'chat.jsonl', text: `${rows.join('\n')}\n` },
    });
    expect(r.ok).toBe(true);
    const v = (r.ok ? r.value : null) as ServingPlanView;
    expect(v.load.output).toBe(90);
    expect(v.load.described.arrivals).toMatch(/^chat\.jsonl's first 40 arrival times/);
    expect(v.load.described.prompt).toMatch(/^chat\.jsonl's first 40 rows/);

    const bad = await core.dispatch('serving:plan', {
      ...load,
      trace: { fileName: 'chat.jsonl', text: `${rows[0]}\n{"t": 1, "prompt": 0, "output": 5}\n` },
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'user' } });
    if (!bad.ok) expect(bad.error.message).toMatch(/^chat\.jsonl row 2: prompt must be a whole number of tokens/);
  });

  it("plans a JSONL trace sent with no rate at the trace's own mean rate and says so, as serve-plan --trace does", async () => {
    core = createAppCore({
      dbPath: path.join(tempDir('pdjv-app-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    const { prompt: _p, output: _o, rate: _r, ...load } = REQUEST;
    // 39 gaps over 7.8 s: 5 requests a second.
    const rows = Array.from({ length: 40 }, (_, i) => JSON.stringify({ t: i * 0.2, prompt: 800 + i, output: 90 }));
    const r = await core.dispatch('serving:plan', {
      ...load,
      trace: { fileName: 'chat.jsonl', text: rows.join('\n') },
    });
    expect(r.ok).toBe(true);
    const v = (r.ok ? r.value : null) as ServingPlanView;
    expect(v.load.rate).toBeCloseTo(5, 9);
    expect(v.notes[0]).toBe("rate: none given, so chat.jsonl's own mean over its first 40 arrival times, 5.00 req/s");

    const share = JSON.stringify([
      {
        conversations: [
          { from: 'human', value: 'hello there' },
          { from: 'gpt', value: 'hi' },
        ],
      },
    ]);
    const noTimes = await core.dispatch('serving:plan', { ...load, trace: { fileName: 'chat.json', text: share } });
    expect(noTimes).toMatchObject({ ok: false, error: { code: 'user' } });
    if (!noTimes.ok) expect(noTimes.error.message).toMatch(/ShareGPT trace has no arrival times: give a rate/);

    const neither = await core.dispatch('serving:plan', load);
    expect(neither).toMatchObject({ ok: false, error: { code: 'invalid' } });
    if (!neither.ok) expect(neither.error.message).toMatch(/give a rate, or a JSONL trace whose arrivals set it/);
  });
});
