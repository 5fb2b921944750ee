import { describe, expect, it } from 'vitest';
import { CHAIN_COPIES } from '../../../../src-main/core/kernels/chain.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import {
  differencedCopies,
  GPU_WARMUP_RUNS,
  methodRule,
  timingMethod,
} from '../../../../src-main/core/profiler/gpu-timing.js';

const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.05, budgetMs: 60 };

describe('timing on accelerators', () => {
  it('differences on CUDA and WebGPU, and on the CPU only when forced', () => {
    expect(timingMethod({ name: 'cuda', deviceId: 0 })).toBe('differenced');
    expect(timingMethod({ name: 'webgpu', deviceId: 0 })).toBe('differenced');
    expect(timingMethod({ name: 'cpu', threads: 2 })).toBe('cpu');
    expect(timingMethod({ name: 'cpu', threads: 2 }, true)).toBe('differenced');
  });

  it('warms up at least GPU_WARMUP_RUNS runs, keeping a longer warm-up', () => {
    expect(methodRule(rule, 'differenced').warmupRuns).toBe(GPU_WARMUP_RUNS);
    expect(methodRule({ ...rule, warmupRuns: 9 }, 'differenced').warmupRuns).toBe(9);
    expect(methodRule(rule, 'cpu')).toEqual(rule);
  });

  it('differences every kernel, big or not chainable, but the host-device copies', () => {
    expect(differencedCopies(makeKernel('Gemm', 'fp16', { M: 4096, N: 1024, K: 4096 }))).toBe(CHAIN_COPIES);
    expect(differencedCopies(makeKernel('ReduceSum', 'fp32', { rows: 8, cols: 64 }))).toBe(CHAIN_COPIES);
    expect(differencedCopies(makeKernel('CopyH2D', 'fp32', { n: 1 << 20 }))).toBe(1);
  });
});
