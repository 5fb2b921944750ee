import { describe, expect, it } from 'vitest';
import { kernelOfNode } from '../../../../src-main/core/kernels/from-node.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';

describe('kernelOfNode', () => {
  it('times an executed NCHWc conv as the conv it is, with its fused activation and without ORT’s layout keys', () => {
    const shape = { N: 1, C: 32, H: 24, W: 24, K: 32, R: 3, S: 3, stride: 1, groups: 1, nchwc: 1, act: 1, sum: 1 };
    expect(kernelOfNode({ op: 'Conv', shape }, 'fp32')).toEqual(
      makeKernel('Conv', 'fp32', { N: 1, C: 32, H: 24, W: 24, K: 32, R: 3, S: 3, stride: 1, groups: 1, act: 1 }),
    );
    expect(
      kernelOfNode({ op: 'MaxPool', shape: { N: 1, C: 32, H: 48, W: 48, R: 3, stride: 2, nchwc: 1 } }, 'fp32')?.id,
    ).toBe(makeKernel('MaxPool', 'fp32', { N: 1, C: 32, H: 48, W: 48, R: 3, stride: 2 }).id);
    expect(kernelOfNode({ op: 'Gemm', shape: { M: 64, N: 256, K: 256 } }, 'fp32')?.op).toBe('Gemm');
  });

  it('is null for reorders, reorders priced as transposes, ops no kernel builds, other dtypes and impossible shapes', () => {
    expect(kernelOfNode({ op: 'ReorderInput', shape: { N: 1, C: 16, H: 8, W: 8 } }, 'fp32')).toBeNull();
    expect(kernelOfNode({ op: 'Transpose', shape: { rows: 16, cols: 64, reorder: 1 } }, 'fp32')).toBeNull();
    expect(kernelOfNode({ op: 'LSTM', shape: { n: 4 } }, 'fp32')).toBeNull();
    expect(kernelOfNode({ op: 'Relu', shape: { n: 4 } }, 'int64')).toBeNull();
    expect(
      kernelOfNode({ op: 'Conv', shape: { N: 1, C: 3, H: 8, W: 8, K: 4, R: 3, S: 3, stride: 1, groups: 2 } }, 'fp32'),
    ).toBeNull();
    expect(kernelOfNode({ op: 'Add', shape: { rows: 4 } }, 'fp32')).toBeNull();
  });
});
