import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { reorderKernels } from '../../../../src-main/core/kernels/reorders.js';

const conv = (shape: Record<string, number>, dtype: 'fp32' | 'fp16' = 'fp32') =>
  makeKernel('Conv', dtype, { N: 1, groups: 1, stride: 1, ...shape } as Record<string, number>);

describe('the reorders ORT puts around a lone NCHWc kernel', () => {
  it('a conv: its input map, and its output map at the conv output size', () => {
    const r = reorderKernels(conv({ C: 16, H: 20, W: 30, K: 48, R: 3, S: 3, stride: 2 }));
    expect(r?.ReorderInput).toMatchObject({
      op: 'ReorderInput',
      family: 'datamove',
      shape: { N: 1, C: 16, H: 20, W: 30 },
    });
    expect(r?.ReorderOutput).toMatchObject({ op: 'ReorderOutput', shape: { N: 1, C: 48, H: 10, W: 15 } });
    // No FLOPs; the map moved twice (read and written), fp32.
    expect(r?.ReorderInput.flops).toBe(0);
    expect(r?.ReorderInput.bytes).toBe(2 * 4 * 16 * 20 * 30);
  });

  it('pools keep their channels: a window pool, a global pool, a nearest resize', () => {
    const pool = reorderKernels(makeKernel('MaxPool', 'fp32', { N: 2, C: 32, H: 56, W: 56, R: 3, stride: 2 }));
    expect(pool?.ReorderOutput.shape).toEqual({ N: 2, C: 32, H: 28, W: 28 });
    const gap = reorderKernels(makeKernel('GlobalAveragePool', 'fp32', { N: 1, C: 64, H: 7, W: 7 }));
    expect(gap?.ReorderOutput.shape).toEqual({ N: 1, C: 64, H: 1, W: 1 });
    const resize = reorderKernels(makeKernel('Resize', 'fp32', { N: 1, C: 16, H: 8, W: 8, scale: 2 }));
    expect(resize?.ReorderOutput.shape).toEqual({ N: 1, C: 16, H: 16, W: 16 });
  });

  it('none for what ORT never runs in NCHWc: 1-D and transposed convs, fp16, GEMMs', () => {
    expect(reorderKernels(conv({ C: 16, H: 100, W: 1, K: 16, R: 3, S: 1, d1: 1 }))).toBeNull();
    expect(reorderKernels(conv({ C: 16, H: 8, W: 8, K: 16, R: 2, S: 2, stride: 2, transpose: 1 }))).toBeNull();
    expect(reorderKernels(conv({ C: 16, H: 8, W: 8, K: 16, R: 3, S: 3 }, 'fp16'))).toBeNull();
    expect(reorderKernels(makeKernel('MatMul', 'fp32', { B: 1, M: 8, N: 8, K: 8 }))).toBeNull();
  });
});
