/**
 * The Serving view's state (ServingState, a `.svelte.ts` class): the form becomes a request the
 * `serving:plan` schema takes, the answer's deployments, the one whose curve is drawn, the chart's
 * caps and band, and where the prices came from.
 */
import { describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../src-main/api/client.js';
import { CHANNELS, SERVING_TRACE_MAX_BYTES, type ApiRequest } from '../../../../src-main/api/contract.js';
import type { ServingDeploymentView, ServingPlanView } from '../../../../src-main/api/view-models.js';
import { ServingState } from '../../../../src-renderer/src/state/serving.svelte.js';

const pct = (p50: number, p90: number, p99: number): ServingDeploymentView['ttftMs'] => ({ p50, p90, p99 });

function deployment(gpu: string, o: Partial<ServingDeploymentView> = {}): ServingDeploymentView {
  return {
    gpu,
    gpuId: gpu.toLowerCase(),
    engine: 'vllm',
    engineTitle: 'vLLM',
    weights: 'bf16',
    gpusPerReplica: 1,
    tp: 1,
    pp: 1,
    replicas: 2,
    perReplicaRate: 10,
    ttftMs: pct(200, 600, 900),
    tpotMs: pct(20, 30, 45),
    meets: true,
    breaksAt: 26,
    perHour: 5,
    perMillionTokens: 0.23,
    band: { low: 0.8, high: 1.4, cells: 23 },
    curve: [
      { rate: 10, ttftMs: pct(150, 300, 400), tpotMs: pct(15, 20, 25), meets: true },
      { rate: 30, ttftMs: pct(900, 2000, 5000), tpotMs: pct(40, 60, 80), meets: false },
    ],
    ...o,
  };
}

function answer(o: Partial<ServingPlanView> = {}): ServingPlanView {
  return {
    model: 'llama-3.1-8b',
    load: {
      rate: 20,
      prompt: 2000,
      output: 300,
      requests: 200,
      seed: 1,
      described: { arrivals: 'Poisson (seed 1)', prompt: '2000 tokens', output: '300 tokens' },
    },
    slo: [
      { metric: 'ttft', percentile: 'p90', ms: 1000 },
      { metric: 'tpot', percentile: 'p90', ms: 50 },
    ],
    deployments: [deployment('H100 SXM5'), deployment('L40S', { replicas: 4, perHour: 7.6, band: null })],
    meeting: 2,
    closest: null,
    candidates: 12,
    skipped: 3,
    simulations: 80,
    prices: [
      {
        gpu: 'H100 SXM5',
        perHour: 2.5,
        given: false,
        source: { name: 'Cloud list', url: 'https://x.test/p', date: '2026-10-01' },
      },
      { gpu: 'L40S', perHour: 1.9, given: true, source: null },
      {
        gpu: 'H200',
        perHour: 4.59,
        given: false,
        source: { name: 'Pod list', url: 'https://y.test/p', date: '2026-10-07' },
      },
    ],
    notes: [],
    ...o,
  };
}

/** A client that checks each request against the channel's schema, keeps it, and answers `reply`. */
function fakeClient(reply: () => ServingPlanView): { client: ApiClient; sent: ApiRequest<'serving:plan'>[] } {
  const sent: ApiRequest<'serving:plan'>[] = [];
  const client = createApiClient({
    kind: 'http',
    invoke: (channel, payload) => {
      if (channel !== 'serving:plan')
        return Promise.resolve({ ok: false, error: { code: 'invalid', message: channel } });
      const parsed = CHANNELS['serving:plan'].request.safeParse(payload);
      if (!parsed.success) {
        return Promise.resolve({
          ok: false,
          error: { code: 'invalid', message: parsed.error.issues[0]?.message ?? '' },
        });
      }
      sent.push(parsed.data);
      return Promise.resolve({ ok: true, value: reply() });
    },
    subscribe: () => () => undefined,
  });
  return { client, sent };
}

describe('ServingState', () => {
  it("sends the issue's example as the schema takes it, with the GPUs checked, their caps and prices", async () => {
    const { client, sent } = fakeClient(() => answer());
    const ss = new ServingState(client, () => 'llama-3.1-8b');
    expect(ss.workload).toBe('llama-3.1-8b');
    ss.toggleGpu('H100 SXM5');
    ss.toggleGpu('L40S');
    ss.setPerReplica('L40S', 4);
    ss.setPrice('L40S', '1.9');
    ss.toggleGpu('A10');
    ss.toggleGpu('A10');
    await ss.run();
    expect(ss.formError).toBeNull();
    expect(ss.result.error).toBeNull();
    expect(sent).toEqual([
      {
        workload: 'llama-3.1-8b',
        rate: 20,
        prompt: 2000,
        output: 300,
        top: 5,
        slo: [
          { metric: 'ttft', percentile: 'p90', ms: 1000 },
          { metric: 'tpot', percentile: 'p90', ms: 50 },
        ],
        gpus: ['H100 SXM5', '4x L40S'],
        prices: [{ gpu: 'L40S', perHour: 1.9 }],
      },
    ]);
  });

  it('refuses a bad form in one line and sends nothing', async () => {
    const { client, sent } = fakeClient(() => answer());
    const ss = new ServingState(client, () => 'llama-3.1-8b');
    ss.rate = 0;
    await ss.run();
    expect(ss.formError).toBe('The rate must be requests per second above 0.');
    ss.rate = '';
    await ss.run();
    expect(ss.formError).toBe(
      "Give a rate, requests per second (or a JSONL trace with the rate empty: the trace's own mean rate).",
    );
    ss.rate = 5;
    for (const row of ss.slo) row.ms = '';
    await ss.run();
    expect(ss.formError).toMatch(/at least one SLO cap/);
    ss.slo[0] = { metric: 'ttft', percentile: 'p90', ms: 500 };
    ss.slo[1] = { metric: 'ttft', percentile: 'p90', ms: 800 };
    await ss.run();
    expect(ss.formError).toBe('The p90 TTFT cap is given twice.');
    ss.slo.splice(1, 1);
    ss.toggleGpu('L4');
    ss.setPrice('L4', '-1');
    await ss.run();
    expect(ss.formError).toMatch(/^The price of L4 must be dollars an hour above 0/);
    expect(sent).toEqual([]);
  });

  it("draws the chosen deployment's curve with its caps, breaking rate and band, and names the prices' source", async () => {
    const { client } = fakeClient(() => answer());
    const ss = new ServingState(client, () => 'llama-3.1-8b');
    expect(ss.chart).toBeNull();
    await ss.run();
    expect(ss.listed.map((d) => d.gpu)).toEqual(['H100 SXM5', 'L40S']);
    expect(ss.noneMeets).toBe(false);
    expect(ss.chart).toEqual({
      points: [
        {
          rate: 10,
          ttft: { p50: 150_000, p90: 300_000, p99: 400_000 },
          tpot: { p50: 15_000, p90: 20_000, p99: 25_000 },
        },
        { rate: 30, ttft: { p50: 900_000, p90: 2e6, p99: 5e6 }, tpot: { p50: 40_000, p90: 60_000, p99: 80_000 } },
      ],
      slo: { ttft: [{ percentile: 90, us: 1e6 }], tpot: [{ percentile: 90, us: 50_000 }] },
      breakRate: 26,
      band: { low: 0.8, high: 1.4 },
    });
    ss.select(1);
    expect(ss.deployment?.gpu).toBe('L40S');
    expect(ss.chart?.band).toBeNull();
    expect(ss.pricesNote).toBe(
      'Prices are defaults from Cloud list, 2026-10-01 (H100 SXM5 $2.50/h) and Pod list, 2026-10-07 (H200 $4.59/h); prices given: L40S $1.90/h.',
    );
  });

  it('lists the closest deployment alone when none meets, and chooses the first again on a new answer', async () => {
    let next = answer();
    const { client } = fakeClient(() => next);
    const ss = new ServingState(client, () => 'llama-3.1-8b');
    await ss.run();
    ss.select(1);
    const closest = deployment('L4', { meets: false, breaksAt: null });
    next = answer({ deployments: [], meeting: 0, closest });
    await ss.run();
    expect(ss.noneMeets).toBe(true);
    expect(ss.listed).toEqual([closest]);
    expect(ss.selected).toBe(0);
    expect(ss.chart?.breakRate).toBeNull();
  });

  it("sends drawn lengths as their spec and a burst, and shows a bad spec in the parser's one line", async () => {
    const { client, sent } = fakeClient(() => answer());
    const ss = new ServingState(client, () => 'llama-3.1-8b');
    ss.prompt = 'lognormal:2000';
    expect(ss.lengthError('prompt')).toBe(
      'prompt lognormal:2000: write lognormal:MEDIAN:SIGMA, e.g. lognormal:2000:0.6',
    );
    expect(ss.lengthError('output')).toBeNull();
    await ss.run();
    expect(ss.formError).toBe(ss.lengthError('prompt'));
    ss.output = '500-100';
    expect(ss.lengthError('output')).toBe("output 500-100: the range's high end is below its low end");
    ss.prompt = ' lognormal:2000:0.6 ';
    ss.output = '100-500';
    ss.burst = 101;
    await ss.run();
    expect(ss.formError).toMatch(/^The burst is the gaps' coefficient of variation, above 0 and at most 100/);
    ss.burst = '2.5';
    await ss.run();
    expect(ss.formError).toBeNull();
    ss.prompt = '';
    ss.output = '4000000';
    expect(ss.lengthError('output')).toBe('output 4000000: at most 1048576 tokens');
    ss.output = '300';
    await ss.run();
    expect(sent.map(({ prompt, output, burst }) => ({ prompt, output, burst }))).toEqual([
      { prompt: 'lognormal:2000:0.6', output: '100-500', burst: 2.5 },
      { prompt: undefined, output: 300, burst: 2.5 },
    ]);
  });

  it('sends a chosen trace as its text in place of the lengths and burst, and refuses one too large to send', async () => {
    const { client, sent } = fakeClient(() => answer());
    const ss = new ServingState(client, () => 'llama-3.1-8b');
    const text = '{"t": 0, "prompt": 900, "output": 80}\n';
    ss.burst = 3;
    await ss.chooseTrace({ name: 'chat.jsonl', size: text.length, text: () => Promise.resolve(text) });
    expect(ss.traceError).toBeNull();
    await ss.run();
    expect(sent[0]).toMatchObject({ trace: { fileName: 'chat.jsonl', text } });
    expect(sent[0]).not.toHaveProperty('prompt');
    expect(sent[0]).not.toHaveProperty('burst');

    await ss.chooseTrace({
      name: 'big.json',
      size: SERVING_TRACE_MAX_BYTES + 1,
      text: () => Promise.reject(new Error('read')),
    });
    expect(ss.trace).toBeNull();
    expect(ss.traceError).toMatch(/^big\.json is .+, over the 8 MiB the app sends: cut it to its first rows/);
    ss.clearTrace();
    await ss.run();
    expect(sent[1]).toMatchObject({ prompt: 2000, output: 300, burst: 3 });
    expect(sent[1]).not.toHaveProperty('trace');
  });

  it("sends a trace with the rate emptied and no rate, so the answer's rate is the trace's own mean, and says so", async () => {
    const { client, sent } = fakeClient(() => answer({ load: { ...answer().load, rate: 4.2 } }));
    const ss = new ServingState(client, () => 'llama-3.1-8b');
    const text = '{"t": 0, "prompt": 900, "output": 80}\n{"t": 1, "prompt": 700, "output": 60}\n';
    await ss.chooseTrace({ name: 'chat.jsonl', size: text.length, text: () => Promise.resolve(text) });
    ss.rate = '';
    await ss.run();
    expect(ss.formError).toBeNull();
    expect(ss.result.error).toBeNull();
    expect(sent[0]).toMatchObject({ trace: { fileName: 'chat.jsonl', text } });
    expect(sent[0]).not.toHaveProperty('rate');
    expect(ss.result.value?.load.rate).toBe(4.2);
    expect(ss.rateOfTrace).toBe(true);

    ss.rate = 8;
    await ss.run();
    expect(sent[1]).toMatchObject({ rate: 8, trace: { fileName: 'chat.jsonl' } });
    expect(ss.rateOfTrace).toBe(false);
  });
});
