import { describe, expect, it } from 'vitest';
import { familyRatios, RATIO_BOUNDS, type CalibrationRun } from '../../../../src-main/core/workload/calibration.js';
import type { DeviceFeatures, OpInstance, Prediction, Predictor } from '../../../../src-main/core/predictor/types.js';
import { device } from '../../../helpers/synthetic-samples.js';

/** Predicts 10 µs for every node. */
const flat: Predictor = {
  name: 'flat',
  version: 1,
  train: () => undefined,
  predict: (qs: readonly (OpInstance & { device: DeviceFeatures })[]): Prediction[] =>
    qs.map(() => ({ timeUs: 10, lowUs: 5, highUs: 20, warning: null })),
  toJSON: () => ({ name: 'flat', version: 1 }),
};

const node = (family: string, measuredUs: number): CalibrationRun['nodes'][number] => ({
  op: 'Conv',
  family,
  shape: {},
  dtype: 'fp32',
  flops: 1,
  bytes: 1,
  measuredUs,
});

describe('calibration ratios per op family', () => {
  it('is measured / predicted per family, bounded, and skips families the models barely use', () => {
    const runs: CalibrationRun[] = [
      {
        model: 'a',
        endToEndUs: 100,
        nodes: [node('conv', 15), node('conv', 15), node('gemm', 100), node('softmax', 1), node('datamove', 1000)],
      },
    ];
    const r = familyRatios(runs, flat, device('d', 100, 10, 1));
    expect(r['conv']).toBeCloseTo(1.5, 9);
    expect(r['gemm']).toBe(RATIO_BOUNDS.max);
    expect(r['datamove']).toBe(RATIO_BOUNDS.max);
    expect(r['softmax']).toBeUndefined();
    expect(familyRatios([], flat, device('d', 100, 10, 1))).toEqual({});
  });
});
