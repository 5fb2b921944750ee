import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../../src-main/api/contract.js';
import {
  DEFAULT_SLO,
  servingPlanRequest,
  type ServingPlanForm,
} from '../../../../src-renderer/src/lib/serving-form.js';

const form: ServingPlanForm = {
  workload: 'llama-3.1-8b',
  engine: 'auto',
  rate: 20,
  prompt: '2000',
  output: '300',
  burst: '',
  trace: null,
  weights: '',
  slo: DEFAULT_SLO,
  gpus: {},
  top: 5,
};

describe('the Serving form as a serving:plan request', () => {
  it("sends the issue's example as the contract takes it, leaving the defaults to the service", () => {
    const r = servingPlanRequest(form);
    if (!r.ok) throw new Error(r.error);
    expect(r.request).toEqual({
      workload: 'llama-3.1-8b',
      rate: 20,
      prompt: 2000,
      output: 300,
      slo: [
        { metric: 'ttft', percentile: 'p90', ms: 1000 },
        { metric: 'tpot', percentile: 'p90', ms: 50 },
      ],
      top: 5,
    });
    expect(CHANNELS['serving:plan'].request.safeParse(r.request).success).toBe(true);
  });

  it('sends an fp8 KV cache only when chosen', () => {
    const fp8 = servingPlanRequest({ ...form, kvCache: 'fp8' });
    expect(fp8.ok && fp8.request.kvCache).toBe('fp8');
    const auto = servingPlanRequest({ ...form, kvCache: 'auto' });
    expect(auto.ok && 'kvCache' in auto.request).toBe(false);
  });

  it('refuses a rate of 0 and an SLO with no cap, each with one message', () => {
    expect(servingPlanRequest({ ...form, rate: 0 })).toEqual({
      ok: false,
      error: 'The rate must be requests per second above 0.',
    });
    const r = servingPlanRequest({ ...form, slo: DEFAULT_SLO.map((c) => ({ ...c, ms: '' })) });
    expect(r).toEqual({ ok: false, error: 'Give at least one SLO cap (a latency percentile in milliseconds).' });
  });
});
