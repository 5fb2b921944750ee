/** The plan request's one schema, and `plan:create` as it: the same fields less the local ones, each checked alike. */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CHANNELS, type ApiRequest } from '../../../../src-main/api/contract.js';
import { LOCAL_PLAN_FIELDS, PLAN_REQUEST, type PlanRequest } from '../../../../src-main/core/planner/plan-request.js';

const api = CHANNELS['plan:create'].request;
const request = { workload: 'gpt2-small', batch: 8, devices: 'all', mode: 'training' } as const;

// What the app sends is a plan request (checked at compile time).
const _sent: PlanRequest = {} as z.output<typeof api>;
const _asked: PlanRequest = {} as ApiRequest<'plan:create'>;
void _sent;
void _asked;

describe('PLAN_REQUEST and plan:create', () => {
  it('takes every field of the plan request but the local ones, in the same order', () => {
    const local = Object.keys(LOCAL_PLAN_FIELDS);
    expect(Object.keys(api.shape)).toEqual(Object.keys(PLAN_REQUEST.shape).filter((k) => !local.includes(k)));
  });

  it('refuses the local fields over the API, which a local caller may give', () => {
    const local: Partial<PlanRequest> = {
      recompute: 'full',
      tp: [1, 2],
      engineVersion: '0.5.4',
      links: { source: 'l', text: '' },
    };
    for (const [field, value] of Object.entries(local)) {
      expect(PLAN_REQUEST.safeParse({ ...request, [field]: value }).success, field).toBe(true);
      expect(api.safeParse({ ...request, [field]: value }).error?.issues[0]?.message, field).toBe(
        `Unrecognized key: "${field}"`,
      );
    }
  });

  it('checks the fields both take alike, and bounds the texts a network peer sends', () => {
    for (const wrong of [{ zero: 4 }, { topN: 51 }, { weights: 'q3' }, { finetune: { adapter: 'lora', alpha: 0 } }]) {
      const local = PLAN_REQUEST.safeParse({ ...request, ...wrong });
      expect(local.error?.issues).toEqual(api.safeParse({ ...request, ...wrong }).error?.issues);
    }
    const long = { ...request, workload: `./${'deep/'.repeat(50)}model.onnx`, devices: 'CPU' };
    expect(PLAN_REQUEST.safeParse(long).success).toBe(true);
    expect(api.safeParse(long).success).toBe(false);
    // The app always names the batch and the devices; the service defaults them for a local caller.
    expect(PLAN_REQUEST.safeParse({ workload: 'gpt2-small', mode: 'training' }).success).toBe(true);
    expect(api.safeParse({ workload: 'gpt2-small', mode: 'training' }).success).toBe(false);
  });
});
