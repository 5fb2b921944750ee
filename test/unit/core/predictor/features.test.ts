import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { featureVector, FEATURE_NAMES } from '../../../../src-main/core/predictor/features.js';
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
