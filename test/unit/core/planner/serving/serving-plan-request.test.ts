import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../../../src-main/api/contract.js';
import { SERVING_PLAN_REQUEST } from '../../../../../src-main/core/planner/serving/serving-plan-request.js';

const EXAMPLE = {
  workload: 'llama3-8b',
  rate: 20,
  prompt: 2000,
  output: 300,
  slo: [
    { metric: 'ttft', percentile: 'p90', ms: 1000 },
    { metric: 'tpot', percentile: 'p90', ms: 50 },
  ],
  gpus: ['H100 SXM5', 'A100 80GB', '4090'],
  prices: [{ gpu: 'H100 SXM5', perHour: 2.5 }],
};

describe('the serving plan request', () => {
  it("takes the issue's example, over the API too", () => {
    expect(SERVING_PLAN_REQUEST.parse(EXAMPLE)).toMatchObject({ rate: 20, slo: [{ metric: 'ttft' }, { ms: 50 }] });
    expect(CHANNELS['serving:plan'].request.safeParse(EXAMPLE).success).toBe(true);
  });

  it('refuses a rate of 0, a negative one and an absurd one, naming the range', () => {
    for (const rate of [0, -1, 1e9]) {
      const r = SERVING_PLAN_REQUEST.safeParse({ ...EXAMPLE, rate });
      expect(r.success).toBe(false);
      if (!r.success) expect(r.error.issues[0]?.message).toMatch(/above 0, at most 100000/);
    }
  });

  it('refuses no SLO, a cap given twice, an unknown percentile and unknown fields', () => {
    expect(SERVING_PLAN_REQUEST.safeParse({ ...EXAMPLE, slo: [] }).success).toBe(false);
    const twice = [EXAMPLE.slo[0], { metric: 'ttft', percentile: 'p90', ms: 500 }];
    expect(SERVING_PLAN_REQUEST.safeParse({ ...EXAMPLE, slo: twice }).success).toBe(false);
    const p95 = [{ metric: 'ttft', percentile: 'p95', ms: 500 }];
    expect(SERVING_PLAN_REQUEST.safeParse({ ...EXAMPLE, slo: p95 }).success).toBe(false);
    expect(CHANNELS['serving:plan'].request.safeParse({ ...EXAMPLE, dbPath: '/tmp/x' }).success).toBe(false);
    expect(SERVING_PLAN_REQUEST.safeParse({ ...EXAMPLE, prices: [{ gpu: 'L4', perHour: 0 }] }).success).toBe(false);
  });
});

describe("the serving plan request's load", () => {
  it('takes prompt and output as a count or a spec string, and a burst CV above 0', () => {
    const r = SERVING_PLAN_REQUEST.parse({ ...EXAMPLE, prompt: 'lognormal:2000:0.6', output: '100-400', burst: 3 });
    expect(r).toMatchObject({ prompt: 'lognormal:2000:0.6', output: '100-400', burst: 3 });
    expect(CHANNELS['serving:plan'].request.safeParse({ ...EXAMPLE, burst: 2 }).success).toBe(true);
    for (const burst of [0, -1, 1000])
      expect(SERVING_PLAN_REQUEST.safeParse({ ...EXAMPLE, burst }).success).toBe(false);
  });
});
