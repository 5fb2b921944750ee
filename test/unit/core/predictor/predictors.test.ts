import { describe, expect, it } from 'vitest';
import { AnalyticalPredictor } from '../../../../src-main/core/predictor/analytical-predictor.js';
import { LinearPredictor } from '../../../../src-main/core/predictor/linear-predictor.js';
import { RooflinePredictor } from '../../../../src-main/core/predictor/roofline-predictor.js';
import { floorUs } from '../../../../src-main/core/predictor/features.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { device, EFFICIENCY, syntheticSamples } from '../../../helpers/synthetic-samples.js';

const dA = device('A', 100, 20);
const dB = device('B', 400, 60, 16);
const train = syntheticSamples([dA, dB], 0.02);
const ape = (a: number, p: number): number => Math.abs(a - p) / a;

describe('roofline baseline', () => {
  it('predicts the floor: measured peak and bandwidth at efficiency 1, plus dispatch', () => {
    const p = new RooflinePredictor();
    p.train(train);
    const k = makeKernel('MatMul', 'fp32', { B: 1, M: 512, N: 512, K: 512 });
    const [r] = p.predict([{ ...k, device: dA }]);
    expect(r?.timeUs).toBeCloseTo(5 + k.flops / 100e3, 6);
    expect(r?.timeUs).toBeLessThan(5 + k.flops / 100e3 / EFFICIENCY.gemm!);
  });
});

describe('analytical predictor (BSP lambda per family and device)', () => {
  it('recovers the efficiency of each family', () => {
    const p = new AnalyticalPredictor();
    p.train(syntheticSamples([dA, dB], 0));
    const eff = p.efficiencies();
    expect(eff['gemm@A']).toBeCloseTo(0.8, 3);
    expect(eff['softmax@B']).toBeCloseTo(0.4, 3);
  });

  it('predicts held-out shapes within a few percent and gives a band around them', () => {
    const p = new AnalyticalPredictor();
    p.train(train);
    const k = makeKernel('MatMul', 'fp32', { B: 1, M: 640, N: 640, K: 640 });
    const truth = 5 + k.flops / 100e3 / 0.8;
    const [r] = p.predict([{ ...k, device: dA }]);
    expect(ape(truth, r!.timeUs)).toBeLessThan(0.05);
    expect(r!.lowUs).toBeLessThanOrEqual(r!.timeUs);
    expect(r!.highUs).toBeGreaterThanOrEqual(r!.timeUs);
    expect(r!.warning).toBeNull();
  });

  it('borrows efficiencies for an unseen device and warns', () => {
    const p = new AnalyticalPredictor();
    p.train(syntheticSamples([dA, dB], 0));
    const dC = device('C', 200, 40);
    const k = makeKernel('Add', 'fp32', { n: 1 << 20 });
    const [r] = p.predict([{ ...k, device: dC }]);
    const truth = 5 + (floorUs(k, dC) - 5) / 0.6;
    expect(ape(truth, r!.timeUs)).toBeLessThan(0.05);
    expect(r!.warning).toMatch(/device C was not in the training data/);
  });

  it('warns when a query is beyond the trained sizes', () => {
    const p = new AnalyticalPredictor();
    p.train(train);
    const big = makeKernel('MatMul', 'fp32', { B: 1, M: 8192, N: 8192, K: 8192 });
    expect(p.predict([{ ...big, device: dA }])[0]?.warning).toMatch(/larger than any profiled gemm op/);
  });

  it('warns when an op of a profiled family has no kernel of its own in the training data', () => {
    const p = new AnalyticalPredictor();
    p.train(train);
    const div = makeKernel('Div', 'fp32', { n: 1 << 16 });
    expect(p.predict([{ ...div, device: dA }])[0]?.warning).toMatch(
      /no Div kernel was profiled: priced from other elementwise ops \(re-profile/,
    );
    expect(p.predict([{ ...makeKernel('Add', 'fp32', { n: 1 << 16 }), device: dA }])[0]?.warning).toBeNull();
  });

  it('round-trips through JSON and refuses foreign or old predictors', () => {
    const p = new AnalyticalPredictor();
    p.train(train);
    const q = AnalyticalPredictor.load(JSON.parse(JSON.stringify(p.toJSON())));
    const k = { ...makeKernel('Softmax', 'fp32', { rows: 300, cols: 500 }), device: dB };
    expect(q.predict([k])).toEqual(p.predict([k]));
    expect(() => AnalyticalPredictor.load({ ...p.toJSON(), name: 'forest' })).toThrow(/not "analytical"/);
    expect(() => AnalyticalPredictor.load({ ...p.toJSON(), version: 0 })).toThrow(/version 0/);
    expect(() => AnalyticalPredictor.load({ name: 'analytical', version: 1, fits: 'x' })).toThrow();
  });
});

describe('linear predictor on log features', () => {
  it('fits the synthetic law closely on held-out shapes', () => {
    const p = new LinearPredictor();
    p.train(train);
    const k = makeKernel('Add', 'fp32', { n: 700 * 700 * 4 });
    const truth = 5 + (floorUs(k, dB) - 5) / 0.6;
    const [r] = p.predict([{ ...k, device: dB }]);
    expect(ape(truth, r!.timeUs)).toBeLessThan(0.15);
  });

  it('never predicts below 0.8 x the roofline floor', () => {
    const p = new LinearPredictor();
    p.train(train);
    for (const n of [1, 10, 1e3, 1e6, 1e9]) {
      const k = makeKernel('Add', 'fp32', { n: Math.round(n) });
      expect(p.predict([{ ...k, device: dA }])[0]!.timeUs).toBeGreaterThanOrEqual(0.8 * floorUs(k, dA) - 1e-9);
    }
  });

  it('round-trips through JSON and checks name and version', () => {
    const p = new LinearPredictor();
    p.train(train);
    const q = LinearPredictor.load(JSON.parse(JSON.stringify(p.toJSON())));
    const k = { ...makeKernel('MatMul', 'fp32', { B: 1, M: 300, N: 300, K: 300 }), device: dA };
    expect(q.predict([k])).toEqual(p.predict([k]));
    expect(() => LinearPredictor.load({ ...p.toJSON(), version: 2 })).toThrow(/version 2/);
    expect(() => LinearPredictor.load({ ...p.toJSON(), coefficients: [1, 2] })).toThrow(/other features/);
  });

  it('refuses to train on nothing', () => {
    expect(() => new LinearPredictor().train([])).toThrow(/no samples/);
  });
});
