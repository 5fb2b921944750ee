/** Refinement adds shapes where a kernel's measured curve bends, never around a chain of distinct GEMVs. */
import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { planRefinement } from '../../../../src-main/core/profiler/refinement.js';

const gemv = (d: number, distinct = 0): ReturnType<typeof makeKernel> =>
  makeKernel('MatMul', 'fp32', { B: 1, M: 1, N: d, K: d, ...(distinct ? { distinct } : {}) });

describe('planRefinement', () => {
  it('refines where GEMV throughput jumps, and not around the streamed chains (far slower per FLOP)', () => {
    const at = (spec: ReturnType<typeof makeKernel>, gflops: number): { spec: typeof spec; medianUs: number } => ({
      spec,
      medianUs: spec.flops / (gflops * 1e3),
    });
    const chains = [at(gemv(512, 128), 1), at(gemv(1024, 32), 1), at(gemv(2048, 8), 1)];
    const even = [at(gemv(256), 10), at(gemv(1024), 10), at(gemv(4096), 10)];
    expect(planRefinement([...even, ...chains], new Set(), 10)).toEqual([]);
    const bent = [at(gemv(256), 10), at(gemv(1024), 30), at(gemv(4096), 30)];
    const added = planRefinement([...bent, ...chains], new Set(), 10);
    expect(added.length).toBeGreaterThan(0);
    expect(added.some((k) => k.shape['distinct'])).toBe(false);
  });
});
