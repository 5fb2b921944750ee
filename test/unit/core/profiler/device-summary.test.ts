import { describe, expect, it } from 'vitest';
import { summarizeDevice } from '../../../../src-main/core/profiler/device-summary.js';
import { makeMeasurement } from '../../../helpers/store-fixtures.js';

const gemm = (flops: number, medianUs: number, dtype: 'fp32' | 'fp16' = 'fp32') =>
  makeMeasurement('r', 0, {
    dtype,
    flops,
    stats: { medianUs, p10Us: medianUs, p90Us: medianUs, cv: 0.01, repetitions: 20, wallMedianUs: null },
  });

describe('summarizeDevice: the measured peak', () => {
  it('comes from kernels big enough to mean it: a tiny kernel labelled near zero does not claim TFLOP/s', () => {
    const s = summarizeDevice([gemm(2e9, 20_000), gemm(4e8, 4_500), gemm(5e5, 0.05)]);
    expect(s.peakGflops.fp32).toBeCloseTo(100, 6);
    expect(s.peakKernel).toMatch(/^MatMul/);
  });

  it('falls back to the small kernels of a dtype that has no big one', () => {
    const s = summarizeDevice([gemm(2e9, 20_000), gemm(1e6, 10, 'fp16')]);
    expect(s.peakGflops.fp16).toBeCloseTo(100, 6);
  });
});
