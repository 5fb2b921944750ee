/**
 * The renderer's job state (JobHub, JobTracker: `.svelte.ts` classes) against the real app
 * core in this process: the same dispatch and job events the HTTP and IPC transports carry.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../src-main/api/client.js';
import { createAppCore, type AppCore } from '../../../../src-main/app/app-core.js';
import { JobHub, JobTracker } from '../../../../src-renderer/src/state/jobs.svelte.js';
import { Resource } from '../../../../src-renderer/src/state/resource.svelte.js';
import { PlansState } from '../../../../src-renderer/src/state/plans.svelte.js';
import type { TrainResultView } from '../../../../src-main/api/view-models.js';
import { seedStore } from '../../../helpers/seeded-store.js';
import { tempDir } from '../../../helpers/cli.js';

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

function inProcessClient(seed = true): { client: ApiClient; core: AppCore } {
  const c = createAppCore({
    dbPath: path.join(tempDir('pdjv-ui-'), 'db.sqlite'),
    transport: 'http',
    inProcessJobs: true,
  });
  if (seed) seedStore(c.deps.db);
  core = c;
  const client = createApiClient({
    kind: 'http',
    invoke: (channel, payload) => c.dispatch(channel, payload),
    subscribe: (listener) => c.jobs.subscribe(listener),
  });
  return { client, core: c };
}

const until = async (cond: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('JobTracker', () => {
  it('follows a training job to its result and calls back once', async () => {
    const { client } = inProcessClient();
    const hub = new JobHub(client);
    hub.connect();
    let finished = 0;
    const t = new JobTracker<TrainResultView>(hub, 'train', () => {
      finished++;
    });
    expect(t.phase).toBe('idle');
    await t.start(() => client.call('predictor:train', { predictors: ['analytical', 'linear'] }));
    expect(t.jobId).not.toBeNull();
    await until(() => t.phase === 'done');
    expect(t.result?.trained.map((x) => x.name)).toEqual(['analytical', 'linear']);
    expect(t.fraction).toBe(1);
    expect(t.running).toBe(false);
    await until(() => finished === 1);
    expect(t.log.some((l) => l.startsWith('analytical: trained on'))).toBe(true);
    hub.disconnect();
  });

  it('shows why a job failed, and why one could not start', async () => {
    const { client } = inProcessClient(false);
    const hub = new JobHub(client);
    hub.connect();
    const t = new JobTracker<TrainResultView>(hub, 'train');
    await t.start(() => client.call('predictor:train', {}));
    await until(() => t.phase === 'failed');
    expect(t.error).toMatch(/measurements in the store/);
    expect(t.result).toBeNull();

    const p = new JobTracker(hub, 'profile');
    await p.start(() => client.call('profile:start', { device: 'gpu', suite: 'quick' } as never));
    expect(p.phase).toBe('idle');
    expect(p.error).toMatch(/^profile:start: device/);
    hub.disconnect();
  });
});

describe('Resource', () => {
  it('keeps the last value, reports the error of a failed load, and lets the later load win', async () => {
    const r = new Resource<number>();
    expect(r.loaded).toBe(false);
    await r.load(async () => 1);
    expect(r.value).toBe(1);
    await r.load(async () => {
      throw new Error('gone');
    });
    expect(r.value).toBe(1);
    expect(r.error).toBe('gone');
    let release: (v: number) => void = () => undefined;
    const slow = r.load(() => new Promise<number>((res) => (release = res)));
    await r.load(async () => 3);
    release(2);
    await slow;
    expect(r.value).toBe(3);
    r.clear();
    expect(r.loaded).toBe(false);
  });
});

describe('PlansState', () => {
  it('shows the profiled devices and the first workload until the user chooses, then keeps the choice', () => {
    const { client } = inProcessClient();
    const defaults = { localDevices: [] as string[], workload: '' };
    const ps = new PlansState(client, new JobHub(client), () => defaults);
    expect(ps.localDevices).toEqual([]);
    expect(ps.workload).toBe('');
    defaults.localDevices = ['cpu', 'cuda:0'];
    defaults.workload = 'bert-base';
    expect(ps.localDevices).toEqual(['cpu', 'cuda:0']);
    expect(ps.workload).toBe('bert-base');
    ps.toggleLocal('cuda:0');
    ps.workload = 'gpt2-small';
    defaults.localDevices = ['cpu', 'cuda:0', 'cuda:1'];
    defaults.workload = 'resnet50';
    expect(ps.localDevices).toEqual(['cpu']);
    expect(ps.workload).toBe('gpt2-small');
  });

  it('refuses an empty device choice before sending, then plans and selects the best feasible plan', async () => {
    const { client } = inProcessClient();
    const hub = new JobHub(client);
    hub.connect();
    await client.call('predictor:train', { predictors: ['analytical'] });
    await until(() => core !== null && core.jobs.list().every((j) => j.state !== 'running'));
    const ps = new PlansState(client, hub);
    ps.workload = 'gpt2-small';
    ps.mode = 'inference';
    await ps.run();
    expect(ps.formError).toMatch(/Choose at least one device/);
    expect(ps.job.jobId).toBeNull();
    ps.toggleLocal('cpu');
    ps.setVirtualCount('NVIDIA GeForce RTX 4090', 2);
    await ps.run();
    expect(ps.formError).toBeNull();
    await until(() => ps.job.phase === 'done');
    const view = ps.job.result;
    expect(view?.plans.length).toBeGreaterThan(0);
    expect(view?.devices.filter((d) => d.name === 'NVIDIA GeForce RTX 4090')).toHaveLength(2);
    expect(view?.timelines).toHaveLength(view?.plans.length ?? -1);
    expect(view?.plans[ps.selectedPlan]?.feasible).toBe(true);
    expect(view?.devices.some((d) => d.estimate === 'datasheet')).toBe(true);
    hub.disconnect();
  });

  it('serves one sequence unless the batch is chosen, and sends the serving fields with an inference plan', async () => {
    const { client } = inProcessClient();
    const hub = new JobHub(client);
    hub.connect();
    const ps = new PlansState(client, hub);
    expect(ps.batch).toBe(8);
    ps.mode = 'inference';
    expect(ps.batch).toBe(1);
    ps.workload = 'llama-3.1-8b';
    ps.setVirtualCount('NVIDIA GeForce RTX 4090', 1);
    ps.serving = { weights: 'q4_k', engine: 'llama.cpp', objective: 'throughput', tokens: 128, prompt: 512 };
    await ps.run();
    expect(ps.formError).toBeNull();
    await until(() => ps.job.phase === 'done' || ps.job.phase === 'failed');
    const view = ps.job.result;
    expect(view?.batch).toBe(1);
    // Not chosen: not sent, so the plan says its batch is the default.
    expect(view?.assumptions.batch).toEqual({ value: 1, asked: false });
    expect(view?.served).toMatchObject({ prompt: 512, tokens: 128, objective: 'throughput' });
    expect(view?.engine).toMatchObject({ name: 'llama.cpp' });
    expect(view?.serving?.[0]?.engine?.name).toBe('llama.cpp');
    expect(view?.warnings).toContain('llama-3.1-8b: weights held as q4_k, 0.5625 bytes per parameter');
    ps.batch = 4;
    ps.mode = 'training';
    expect(ps.batch).toBe(4);
    ps.mode = 'inference';
    await ps.run();
    await until(() => ps.job.phase === 'done' || ps.job.phase === 'failed');
    expect(ps.job.result?.assumptions.batch).toEqual({ value: 4, asked: true });
    expect(ps.assumptions).toMatch(/, batch 4, q4_k weights/);
    // An emptied field goes back to the default, and is not sent.
    ps.batch = null;
    expect(ps.batch).toBe(1);
    hub.disconnect();
  });

  it('says when no plan fits, as the CLI does, with what would fit, and lists no plan that does not fit as a result', async () => {
    const { client } = inProcessClient();
    const hub = new JobHub(client);
    hub.connect();
    const ps = new PlansState(client, hub);
    ps.workload = 'llama-3.1-70b';
    ps.mode = 'inference';
    ps.setVirtualCount('NVIDIA GeForce RTX 4090', 2);
    expect(ps.noneFits).toBe(false);
    expect(ps.assumptions).toBeNull();
    await ps.run();
    await until(() => ps.job.phase === 'done' || ps.job.phase === 'failed');
    expect(ps.job.phase).toBe('done');
    expect(ps.noneFits).toBe(true);
    expect(ps.fitting).toEqual([]);
    expect(ps.job.result?.suggestions.length).toBeGreaterThan(0);
    expect(ps.job.result?.exports).toBeNull();
    expect(ps.assumptions).toMatch(
      /^Assumes: prompt 1,024 \+ 256 output tokens \(defaults\), batch 1 \(default\), bf16, engine vLLM /,
    );
    hub.disconnect();
  });

  it('sends the sequence asked and states it, and ranks only plans that fit among the results', async () => {
    const { client } = inProcessClient();
    const hub = new JobHub(client);
    hub.connect();
    const ps = new PlansState(client, hub);
    ps.workload = 'llama-3.1-8b';
    ps.mode = 'finetune';
    ps.finetune.adapter = 'qlora';
    ps.seq = 'x';
    ps.setVirtualCount('NVIDIA GeForce RTX 4090', 1);
    await ps.run();
    expect(ps.formError).toBe("Sequence must be a whole number ≥ 1 (or empty for the model's default).");
    ps.seq = 2048;
    await ps.run();
    expect(ps.formError).toBeNull();
    await until(() => ps.job.phase === 'done' || ps.job.phase === 'failed');
    expect(ps.job.result?.assumptions.sequence).toEqual({ value: 2048, asked: true });
    expect(ps.assumptions).toMatch(
      /^Assumes: sequence 2,048 tokens, batch 8 \(default\), nf4 weights, bf16 compute, stack PEFT/,
    );
    expect(ps.noneFits).toBe(false);
    expect(ps.fitting.length).toBeGreaterThan(0);
    expect(ps.fitting.every(({ plan, index }) => plan.feasible && ps.job.result?.plans[index] === plan)).toBe(true);
    hub.disconnect();
  });
});
