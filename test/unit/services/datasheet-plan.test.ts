/** Datasheet GPUs planned with no profile and no trained predictor: numbers of the GPU and the model only. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { planWorkload, type PlanRequest } from '../../../src-main/services/plan-service.js';
import { predictOnDatasheet } from '../../../src-main/services/datasheet-prediction-service.js';
import { trainedStore } from './service-stores.js';

const onH100: PlanRequest = {
  workload: 'gpt2-medium',
  devices: 'none',
  virtual: ['2xH100 SXM5'],
  mode: 'training',
  batch: 8,
  seq: 1024,
  topN: 3,
};

describe('planning on datasheet GPUs', () => {
  it('works on a fresh store: no profile, no trained predictor', () => {
    const r = planWorkload(openDatabase(':memory:'), onH100);
    expect(r.result.plans.some((p) => p.feasible)).toBe(true);
    expect(r.result.plans[0]?.stepUs).toBeGreaterThan(0);
  });

  it('gives the same plans whatever this machine profiled and trained', () => {
    const fresh = planWorkload(openDatabase(':memory:'), onH100);
    const profiled = planWorkload(trainedStore(['roofline', 'linear']), onH100);
    expect(profiled.result.plans.map((p) => p.stepUs)).toEqual(fresh.result.plans.map((p) => p.stepUs));
  });

  it('plans fp8 GEMMs on Hopper faster than bf16, and refuses fp8 on a GPU without fp8 units', () => {
    const db = openDatabase(':memory:');
    // Large GEMMs gain from fp8; GPT-2 Medium's small ones lose more to the casts than they gain.
    const prefill: PlanRequest = {
      ...onH100,
      workload: 'llama-3.1-8b',
      mode: 'inference',
      virtual: ['H100 SXM5'],
      batch: 4,
    };
    const bf16 = planWorkload(db, { ...prefill, dtype: 'bf16' }).result.plans[0]?.stepUs ?? 0;
    const fp8 = planWorkload(db, { ...prefill, dtype: 'fp8' }).result.plans[0]?.stepUs ?? 0;
    expect(fp8).toBeGreaterThan(0);
    expect(fp8).toBeLessThan(bf16);
    expect(() => planWorkload(db, { ...onH100, dtype: 'fp8', virtual: ['2xA100 SXM4 80GB'] })).toThrow(
      /--dtype fp8: NVIDIA A100 SXM4 80GB has no fp8 units .*fp8 runs on datasheet GPUs with fp8: NVIDIA H100 SXM5 80GB/,
    );
  });

  it('predicts a whole model on a datasheet GPU with no profile, the same as on a profiled store', () => {
    const opts = { gpu: 'RTX 4090', seq: 512, dtype: 'fp16' as const };
    const fresh = predictOnDatasheet(openDatabase(':memory:'), 'llama-3.1-8b', opts);
    const profiled = predictOnDatasheet(trainedStore(['roofline']), 'llama-3.1-8b', opts);
    expect(fresh.predictor).toBe('datasheet');
    expect(fresh.totalUs).toBeGreaterThan(0);
    expect(fresh.lowUs).toBeLessThan(fresh.totalUs);
    expect(fresh.highUs).toBeGreaterThan(fresh.totalUs);
    expect(profiled.totalUs).toBe(fresh.totalUs);
    expect(() =>
      predictOnDatasheet(openDatabase(':memory:'), 'llama-3.1-8b', { ...opts, gpu: 'T4', dtype: 'fp8' }),
    ).toThrow(/--dtype fp8: NVIDIA T4 has no fp8 units/);
  });
});
