import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import {
  featureVector,
  FEATURE_NAMES,
  gemmColumnFill,
  rooflineParts,
} from '../../../../src-main/core/predictor/features.js';
import { SYNTHETIC_DEVICES } from '../../../helpers/forest-samples.js';

const device = SYNTHETIC_DEVICES[0]!;
const layout = (shape: Record<string, number>): Record<string, number> => {
  const v = featureVector(makeKernel('Conv', 'fp32', shape), device);
  const names = ['conv_1d', 'conv_transpose', 'conv_depthwise'];
  return Object.fromEntries(names.map((n) => [n, v[FEATURE_NAMES.indexOf(n)] ?? NaN]));
};

describe('conv layout features (which kernel ORT runs)', () => {
  const base = { N: 1, C: 32, H: 64, W: 1, K: 16, R: 4, S: 1, stride: 2, groups: 1, d1: 1 };

  it('a 1-D conv is conv_1d (im2col + SGEMM in NCHW)', () => {
    expect(layout(base)).toEqual({ conv_1d: 1, conv_transpose: 0, conv_depthwise: 0 });
  });

  it('a 1-D transposed conv is a transposed conv, not a 1-D one: ORT runs both ranks as GEMM + col2im', () => {
    expect(layout({ ...base, transpose: 1 })).toEqual({ conv_1d: 0, conv_transpose: 1, conv_depthwise: 0 });
    expect(layout({ ...base, W: 8, S: 4, d1: 0, transpose: 1 })).toEqual({
      conv_1d: 0,
      conv_transpose: 1,
      conv_depthwise: 0,
    });
  });
});

describe('gemmColumnFill (the SGEMM panels a 1-D conv fills)', () => {
  const gpu = SYNTHETIC_DEVICES[4]!;
  const conv = (shape: Record<string, number>) => makeKernel('Conv', 'fp32', shape);
  const at = (H: number, extra: Record<string, number> = {}) =>
    conv({ N: 1, C: 128, H, W: 1, K: 128, R: 3, S: 1, stride: 1, groups: 1, d1: 1, ...extra });

  it('is the output positions over whole panels of 16 columns; one position pads nothing', () => {
    expect(gemmColumnFill(at(4), device)).toBe(4 / 16);
    expect(gemmColumnFill(at(16), device)).toBe(1);
    expect(gemmColumnFill(at(17), device)).toBe(17 / 32);
    expect(gemmColumnFill(at(1), device)).toBe(1);
  });

  it('counts the positions the conv computes: stride, unpadded windows, batch and depthwise groups', () => {
    // 1600 samples, 10 taps, stride 5, unpadded: 319 positions in 20 panels.
    const w2v = conv({ N: 4, C: 1, H: 1600, W: 1, K: 512, R: 10, S: 1, stride: 5, groups: 1, d1: 1, valid: 1 });
    expect(gemmColumnFill(w2v, device)).toBeCloseTo(319 / 320, 12);
    expect(gemmColumnFill(at(8, { groups: 128 }), device)).toBe(8 / 16);
  });

  it('is 1 for 2-D and transposed convs, other ops and GPUs; the compute floor grows by its inverse', () => {
    expect(gemmColumnFill(at(4, { transpose: 1 }), device)).toBe(1);
    expect(gemmColumnFill(conv({ N: 1, C: 16, H: 4, W: 1, K: 16, R: 3, S: 3, stride: 1, groups: 1 }), device)).toBe(1);
    expect(gemmColumnFill(makeKernel('MatMul', 'fp32', { B: 1, M: 4, K: 64, N: 4 }), device)).toBe(1);
    expect(gemmColumnFill(at(4), gpu)).toBe(1);
    const bare = at(16);
    const padded = at(4);
    const perFlop = (k: typeof bare): number => rooflineParts(k, device).computeUs / k.flops;
    expect(perFlop(padded) / perFlop(bare)).toBeCloseTo(4, 12);
    const v = featureVector(padded, device);
    expect(v[FEATURE_NAMES.indexOf('conv_gemm_fill')]).toBe(0.25);
  });
});
