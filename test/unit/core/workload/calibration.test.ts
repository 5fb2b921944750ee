import { describe, expect, it } from 'vitest';
import {
  familyRatios,
  heldOutHelps,
  RATIO_BOUNDS,
  type CalibrationRun,
} from '../../../../src-main/core/workload/calibration.js';
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

  it('keeps a ratio several models share, and drops one that does not carry from some models to another', () => {
    const run = (model: string, conv: number, gemm: number): CalibrationRun => ({
      model,
      endToEndUs: 100,
      nodes: [node('conv', conv), node('gemm', gemm)],
    });
    // gemm runs x1.5 and x1.4 of its prediction in both; conv x0.8 in one and x1.05 in the other.
    const r = familyRatios([run('a', 8, 15), run('b', 10.5, 14)], flat, device('d', 100, 10, 1));
    expect(r['gemm']).toBeCloseTo(1.45, 9);
    expect(r['conv']).toBeUndefined();
  });
});

describe('heldOutHelps', () => {
  const s = (measured: number, predicted: number) => ({ measured, predicted });
  it("compares the others' ratio with none on each model left out; one model has nothing to hold out", () => {
    expect(heldOutHelps([s(12, 10), s(26, 20), s(7, 5)])).toBe(true);
    expect(heldOutHelps([s(7.9, 10), s(10.1, 10), s(9.7, 10)])).toBe(false);
    expect(heldOutHelps([s(5, 10)])).toBe(true);
    expect(heldOutHelps([])).toBe(true);
  });
});
