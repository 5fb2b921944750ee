import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { featureVector, FEATURE_NAMES } from '../../../../src-main/core/predictor/features.js';
import { OTHER_VARIANT, routeVariant, VARIANTS } from '../../../../src-main/core/predictor/kernel-variant.js';
import type { KernelOp } from '../../../../src-main/core/kernels/types.js';
import { SYNTHETIC_DEVICES } from '../../../helpers/forest-samples.js';

const cpu = SYNTHETIC_DEVICES[1]!;
const variantOf = (op: KernelOp, shape: Record<string, number>): string =>
  routeVariant(featureVector(makeKernel(op, 'fp32', shape), cpu));
const conv = (s: Record<string, number>): Record<string, number> => ({
  N: 1,
  C: 64,
  H: 56,
  W: 56,
  K: 64,
  R: 3,
  S: 3,
  stride: 1,
  groups: 1,
  ...s,
});

describe('kernel variants', () => {
  it('sends each kind of conv to its own variant', () => {
    expect(variantOf('Conv', conv({}))).toBe('conv');
    expect(variantOf('Conv', conv({ C: 3, K: 24 }))).toBe('conv');
    expect(variantOf('Conv', conv({ groups: 64 }))).toBe('conv_depthwise');
    expect(variantOf('Conv', conv({ W: 1, S: 1, d1: 1 }))).toBe('conv1d');
    expect(variantOf('Conv', conv({ W: 1, S: 1, d1: 1, groups: 64 }))).toBe('conv1d_grouped');
    expect(variantOf('Conv', conv({ W: 1, S: 1, d1: 1, groups: 2 }))).toBe('conv1d_grouped');
    expect(variantOf('Conv', conv({ R: 2, S: 2, stride: 2, transpose: 1 }))).toBe('conv_transpose');
    expect(variantOf('Conv', conv({ W: 1, R: 4, S: 1, stride: 2, d1: 1, transpose: 1 }))).toBe('conv_transpose');
  });

  it('sends a batched product (both operands activations) apart from a linear layer over a constant weight', () => {
    expect(variantOf('MatMul', { B: 1, M: 128, N: 3456, K: 1280 })).toBe('gemm');
    expect(variantOf('Gemm', { M: 128, N: 768, K: 768 })).toBe('gemm');
    expect(variantOf('MatMul', { B: 2, M: 128, N: 128, K: 64 })).toBe('gemm_batched');
    expect(variantOf('MatMul', { B: 8, M: 4, N: 4096, K: 128 })).toBe('gemm_batched');
  });

  it('sends every other op to its family, and a row of no family to the catch-all', () => {
    expect(variantOf('MatMul', { B: 1, M: 64, N: 64, K: 64 })).toBe('gemm');
    expect(variantOf('Gelu', { n: 4096 })).toBe('elementwise');
    expect(variantOf('SkipLayerNormalization', { rows: 128, cols: 768 })).toBe('layernorm');
    expect(variantOf('Transpose', { rows: 128, cols: 768 })).toBe('datamove');
    // Nearest Resize: the scale-2 fast path stays with data movement, other scales run a kernel of their own.
    expect(variantOf('Resize', { N: 1, C: 64, H: 20, W: 20, scale: 2 })).toBe('datamove');
    expect(variantOf('Resize', { N: 1, C: 64, H: 20, W: 20, scale: 3 })).toBe('resize_generic');
    expect(variantOf('Resize', { N: 1, C: 64, H: 20, W: 20, scale: 8 })).toBe('resize_generic');
    expect(routeVariant(FEATURE_NAMES.map(() => 0))).toBe(OTHER_VARIANT);
    expect(VARIANTS).toEqual(
      expect.arrayContaining(['conv', 'conv1d', 'conv1d_grouped', 'gemm', 'gemm_batched', OTHER_VARIANT]),
    );
  });
});
