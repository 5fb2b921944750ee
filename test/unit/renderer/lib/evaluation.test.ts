import { describe, expect, it } from 'vitest';
import type { EvaluationView } from '../../../../src-main/api/view-models.js';
import {
  evalRows,
  familyErrors,
  metric,
  predictorsOf,
  scatterOf,
  withinBand,
  type Metrics,
} from '../../../../src-renderer/src/lib/evaluation.js';

const m = (mape: number, count = 10, medianApe = mape / 2): Metrics => ({
  count,
  mape,
  medianApe,
  rmspe: mape,
  p90Ape: mape * 2,
  maxApe: mape * 3,
  within5: 10,
  within10: 20,
  within15: 30,
  spearman: 0.9,
  bandCoverage: 88,
  bandHalfWidth: 25,
});

const summary = (mape: number, families: Record<string, number>) => ({
  overall: m(mape),
  above100us: m(mape),
  under10us: m(mape),
  byFamily: Object.fromEntries(Object.entries(families).map(([f, v]) => [f, m(v * 2, 4, v)])),
  bySize: {},
});

const report: EvaluationView['report'] = {
  protocols: [
    {
      name: 'grouped-kfold',
      folds: 5,
      skipped: [],
      byPredictor: { roofline: summary(40, { gemm: 30, conv: 50 }), forest: summary(12, { gemm: 8 }) },
    },
    {
      name: 'extrapolation',
      folds: 1,
      skipped: [],
      byPredictor: { roofline: summary(35, {}), forest: summary(60, {}) },
    },
  ],
  scatter: [
    {
      protocol: 'grouped-kfold',
      fold: 'f0',
      predictor: 'forest',
      index: 0,
      family: 'gemm',
      device: 'cpu',
      actualUs: 100,
      predictedUs: 105,
    },
    {
      protocol: 'grouped-kfold',
      fold: 'f0',
      predictor: 'roofline',
      index: 0,
      family: 'gemm',
      device: 'cpu',
      actualUs: 100,
      predictedUs: 50,
    },
    {
      protocol: 'extrapolation',
      fold: 'f0',
      predictor: 'forest',
      index: 1,
      family: 'conv',
      device: 'cpu',
      actualUs: 10,
      predictedUs: 0,
    },
  ],
  samples: 2,
  devices: ['cpu'],
  options: { k: 5, seed: 1, protocols: ['grouped-kfold', 'extrapolation'], tinyUs: 10, bigUs: 100, scatterCap: 5000 },
};

describe('evaluation report views', () => {
  it('lists every predictor under every protocol and marks the lowest headline MAPE', () => {
    const rows = evalRows(report);
    expect(rows.map((r) => [r.protocol, r.predictor, r.best])).toEqual([
      ['grouped-kfold', 'roofline', false],
      ['grouped-kfold', 'forest', true],
      ['extrapolation', 'roofline', true],
      ['extrapolation', 'forest', false],
    ]);
    expect(predictorsOf(report)).toEqual(['roofline', 'forest']);
  });

  it('names every scatter point by its device label, not the training id', () => {
    const labels = Object.fromEntries(report.scatter.map((r) => [r.device, `label of ${r.device}`]));
    const points = scatterOf(report, 'grouped-kfold', undefined, labels);
    expect(points.map((p) => p.deviceLabel)).toEqual(points.map((p) => `label of ${p.device}`));
    // A device the labels do not know keeps its id, rather than no name.
    expect(scatterOf(report, 'grouped-kfold').map((p) => p.deviceLabel)).toEqual(points.map((p) => p.device));
  });

  it('filters the scatter by protocol and predictor and drops points a log chart cannot show', () => {
    expect(scatterOf(report, 'grouped-kfold')).toHaveLength(2);
    expect(scatterOf(report, 'grouped-kfold', ['forest'])).toHaveLength(1);
    expect(scatterOf(report, 'extrapolation')).toHaveLength(0);
    expect(withinBand(scatterOf(report, 'grouped-kfold'))).toBe(0.5);
    expect(withinBand([])).toBeNull();
  });

  it('gathers median errors per op family across predictors', () => {
    expect(familyErrors(report, 'grouped-kfold')).toEqual([
      { family: 'conv', byPredictor: { roofline: 50 }, count: 4 },
      { family: 'gemm', byPredictor: { roofline: 30, forest: 8 }, count: 4 },
    ]);
    expect(familyErrors(report, 'nope')).toEqual([]);
  });

  it('treats NaN metrics (null over JSON) as missing', () => {
    expect(metric(null)).toBeNull();
    expect(metric(NaN)).toBeNull();
    expect(metric(3)).toBe(3);
  });
});
