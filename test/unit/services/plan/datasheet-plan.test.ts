/** Datasheet GPUs planned with no profile and no trained predictor: numbers of the GPU and the model only. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { planWorkload, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';
import {
  predictOnDatasheet,
  predictOpOnDatasheet,
} from '../../../../src-main/services/predict/datasheet-prediction-service.js';
import { trainedStore } from '../service-stores.js';
import { encodeProfile } from '../../../../src-main/core/profile-file/codec.js';
import { importProfile } from '../../../../src-main/services/exchange/profile-import.js';
import { gpuServerProfile } from '../../../helpers/gpu-profile.js';

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

  it('plans more than 8 datasheet GPUs as nodes of 8 linked by InfiniBand, or by the stated network', () => {
    const req: PlanRequest = { ...onH100, virtual: ['16xH100 SXM5'], topN: 1 };
    const r = planWorkload(openDatabase(':memory:'), req);
    expect([...new Set(r.problem.devices.map((d) => d.machine))]).toEqual(['virtual-1', 'virtual-2']);
    expect(r.warnings.some((w) => /16 datasheet GPUs are planned as 2 nodes of 8 .*400Gb-IB/.test(w))).toBe(true);
    const across = r.problem.links.find((l) => l.a.startsWith('virtual-1/') && l.b.startsWith('virtual-2/'));
    expect(across?.gbps).toBeLessThan(100);
    const stated = planWorkload(openDatabase(':memory:'), { ...req, network: '100GbE' });
    expect(stated.warnings.some((w) => /nodes of 8/.test(w))).toBe(false);
    const slower = stated.problem.links.find((l) => l.a.startsWith('virtual-1/') && l.b.startsWith('virtual-2/'));
    expect(slower?.gbps).toBeLessThan(across?.gbps ?? 0);
    const eight = planWorkload(openDatabase(':memory:'), { ...req, virtual: ['8xH100 SXM5'] });
    expect(new Set(eight.problem.devices.map((d) => d.machine))).toEqual(new Set(['virtual']));
  });

  it('prices a served batch of short prompts at the rows its GEMMs run with, not one prompt times the batch', () => {
    const serve: PlanRequest = {
      workload: 'llama-3.1-8b',
      devices: 'none',
      virtual: ['H100 SXM5'],
      mode: 'inference',
      batch: 1,
      prompt: 128,
      tokens: 16,
      topN: 1,
    };
    const one = planWorkload(openDatabase(':memory:'), serve).serving?.[0]?.ttftUs ?? 0;
    const many = planWorkload(openDatabase(':memory:'), { ...serve, batch: 64 }).serving?.[0]?.ttftUs ?? 0;
    expect(one).toBeGreaterThan(0);
    expect(many / 64).toBeLessThan(one * 0.7);
  });

  it('says how far datasheet estimates were from published measurements, with the band', () => {
    const r = planWorkload(openDatabase(':memory:'), onH100);
    expect(
      r.warnings.some((w) =>
        /datasheet estimates were off by a median \d+% on \d+ held-out published measurements .* band [\d.]+x-[\d.]+x of the time/.test(
          w,
        ),
      ),
    ).toBe(true);
  });

  it('serves on two unlike GPUs with a tensor-parallel pair among the plans, first for latency', () => {
    // 70 GB of fp8 weights: more than vLLM leaves of one 48 GB card, so the two unlike cards split them.
    const r = planWorkload(openDatabase(':memory:'), {
      workload: 'llama-3.1-70b',
      devices: 'none',
      virtual: ['L40S', 'RTX 6000 Ada'],
      mode: 'inference',
      batch: 1,
      weights: 'fp8',
    });
    expect(r.result.plans[0]?.stages).toHaveLength(1);
    expect(r.result.plans[0]?.stages[0]?.tp).toBe(2);
    expect(r.result.plans.some((p) => p.kind === 'pipeline')).toBe(true);
  });

  it('prices a datasheet GPU with the measured fractions of a profiled GPU of its architecture, saying so', () => {
    const store = openDatabase(':memory:');
    importProfile(store, encodeProfile(gpuServerProfile()), 'gpu-box.json');
    const req: PlanRequest = { ...onH100, virtual: ['RTX 4090'], topN: 1 };
    const ada = planWorkload(store, req);
    expect(ada.warnings.some((w) => /transferred from the profiled NVIDIA GeForce RTX 4080 SUPER/.test(w))).toBe(true);
    expect(ada.result.plans[0]?.stepUs).not.toBe(planWorkload(openDatabase(':memory:'), req).result.plans[0]?.stepUs);
    // No profiled Hopper: the H100 keeps the shipped fractions.
    const hopper = planWorkload(store, onH100);
    expect(hopper.warnings.some((w) => /transferred/.test(w))).toBe(false);
    expect(hopper.result.plans[0]?.stepUs).toBe(planWorkload(openDatabase(':memory:'), onH100).result.plans[0]?.stepUs);
  });

  it('predicts one op on a datasheet GPU with no profile (predict --virtual)', () => {
    const r = predictOpOnDatasheet(openDatabase(':memory:'), {
      op: 'matmul',
      shape: '1x8192x8192x8192',
      dtype: 'bf16',
      gpu: 'H100 SXM5',
    });
    const p = r.predictions[0];
    expect(p?.predictor).toBe('datasheet');
    // 1.1 TFLOP at 0.8 of 989 TFLOP/s: about 1.4 ms.
    expect(p?.timeUs).toBeGreaterThan(1200);
    expect(p?.timeUs).toBeLessThan(1700);
    expect(r.warnings.join(' ')).toMatch(/from its datasheet, not measured; datasheet estimates were off by/);
  });
});
