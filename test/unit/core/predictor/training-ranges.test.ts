import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { extrapolationWarning, trainingRanges } from '../../../../src-main/core/predictor/training-ranges.js';
import type { Sample } from '../../../../src-main/core/predictor/types.js';
import { SYNTHETIC_DEVICES } from '../../../helpers/forest-samples.js';

const device = SYNTHETIC_DEVICES[0]!;
const conv2d = makeKernel('Conv', 'fp32', { N: 1, C: 64, H: 28, W: 28, K: 64, R: 3, S: 3, stride: 1, groups: 1 });
const conv1d = makeKernel('Conv', 'fp32', {
  N: 1,
  C: 64,
  H: 200,
  W: 1,
  K: 64,
  R: 3,
  S: 1,
  stride: 1,
  groups: 1,
  d1: 1,
});
const convT = makeKernel('Conv', 'fp32', {
  N: 1,
  C: 64,
  H: 28,
  W: 28,
  K: 32,
  R: 2,
  S: 2,
  stride: 2,
  groups: 1,
  transpose: 1,
});
const sample = (k: typeof conv2d): Sample => ({ ...k, device, timeUs: 10 });

describe('training ranges', () => {
  it('warns that a 1-D conv is priced from 2-D convs when the profile had none (an older profile)', () => {
    const old = trainingRanges([sample(conv2d)]);
    expect(old.conv1d).toBe(false);
    expect(extrapolationWarning(old, { ...conv1d, device })).toMatch(/no 1-D conv was profiled.*re-profile/);
    expect(extrapolationWarning(old, { ...conv2d, device })).toBeNull();
    const current = trainingRanges([sample(conv2d), sample(conv1d)]);
    expect(current.conv1d).toBe(true);
    expect(extrapolationWarning(current, { ...conv1d, device })).toBeNull();
  });

  it('warns that a transposed conv is priced from 2-D convs when the profile had none', () => {
    const old = trainingRanges([sample(conv2d), sample(conv1d)]);
    expect(old.convTranspose).toBe(false);
    expect(extrapolationWarning(old, { ...convT, device })).toMatch(
      /no transposed conv \(ConvTranspose\) was profiled/,
    );
    const current = trainingRanges([sample(conv2d), sample(convT)]);
    expect(extrapolationWarning(current, { ...convT, device })).toBeNull();
  });

  it('says nothing of conv variants to a predictor trained before they were recorded', () => {
    const { conv1d: _a, convTranspose: _b, ...older } = trainingRanges([sample(conv2d), sample(convT)]);
    expect(extrapolationWarning(older, { ...convT, device })).toBeNull();
  });
});
