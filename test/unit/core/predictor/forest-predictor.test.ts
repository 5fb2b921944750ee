import { describe, expect, it } from 'vitest';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import {
  FEATURE_NAMES,
  floorUs,
  MIN_FLOOR_RATIO,
  MIN_LOG_RATIO,
} from '../../../../src-main/core/predictor/features.js';
import { ForestPredictor } from '../../../../src-main/core/predictor/forest-predictor.js';
import type { DeviceFeatures } from '../../../../src-main/core/predictor/types.js';
import { SYNTHETIC_DEVICES, syntheticSamples, syntheticTimeUs } from '../../../helpers/forest-samples.js';

const devices = [SYNTHETIC_DEVICES[1]!, SYNTHETIC_DEVICES[5]!] as const;
const [cpu, gpu] = devices;
const ops = ['MatMul', 'Add', 'Relu', 'Softmax', 'LayerNormalization'] as const;
const all = syntheticSamples(3200, 11, { devices, ops, noise: 0.02 });
const train = all.slice(0, 3000);
const heldOut = all.slice(3000);
const predictor = new ForestPredictor({ nEstimators: 40 });
predictor.train(train);

const quantile = (vs: number[], q: number): number => [...vs].sort((a, b) => a - b)[Math.floor(q * (vs.length - 1))]!;

describe('ForestPredictor', () => {
  it('predicts held-out shapes within a few percent of the true function', () => {
    const inRange = heldOut.filter((s) => predictor.predict([s])[0]!.warning === null);
    expect(inRange.length).toBeGreaterThan(150);
    const preds = predictor.predict(inRange);
    const ape = preds.map((p, i) => {
      const truth = syntheticTimeUs(inRange[i]!, inRange[i]!.device);
      return Math.abs(p.timeUs - truth) / truth;
    });
    expect(quantile(ape, 0.5)).toBeLessThan(0.04);
    expect(quantile(ape, 0.9)).toBeLessThan(0.15);
    for (const p of preds) {
      expect(p.lowUs).toBeLessThanOrEqual(p.timeUs);
      expect(p.highUs).toBeGreaterThanOrEqual(p.timeUs);
    }
    // The band covers most held-out measurements.
    const covered = preds.filter((p, i) => p.lowUs <= inRange[i]!.timeUs && inRange[i]!.timeUs <= p.highUs);
    expect(covered.length / preds.length).toBeGreaterThan(0.7);
  });

  it('never predicts below its clamp (the lowest ratio to the floor it trained on), however large or small the op', () => {
    // The synthetic times sit at the floor or above, give or take 2% noise.
    expect(predictor.minLogRatio).toBeLessThanOrEqual(MIN_LOG_RATIO);
    expect(predictor.minLogRatio).toBeGreaterThan(Math.log(0.7));
    const clamp = Math.exp(predictor.minLogRatio);
    for (const n of [1, 10, 1e3, 1e6, 1e9, 1e11]) {
      for (const device of devices) {
        const k = makeKernel('Add', 'fp32', { n: Math.round(n) });
        const [p] = predictor.predict([{ ...k, device }]);
        expect(p!.timeUs).toBeGreaterThanOrEqual(clamp * floorUs(k, device) - 1e-9);
        expect(p!.lowUs).toBeGreaterThanOrEqual(clamp * floorUs(k, device) - 1e-9);
      }
    }
  });

  it('learns a lower clamp from kernels measured under the floor (operands in the caches), and keeps it', () => {
    // Mid-size Adds at 0.4x their DRAM floor, as cache-resident operands run on a CPU.
    const cached = (s: (typeof train)[number]) =>
      s.op === 'Add' && s.bytes < 8e6 ? { ...s, timeUs: 0.4 * floorUs(s, s.device) } : s;
    const p = new ForestPredictor({ nEstimators: 20 });
    p.train(train.map(cached));
    expect(p.minLogRatio).toBeCloseTo(Math.log(0.4), 6);
    const k = makeKernel('Add', 'fp32', { n: 200_000 });
    const [pred] = p.predict([{ ...k, device: cpu }]);
    expect(pred!.timeUs).toBeLessThan(MIN_FLOOR_RATIO * floorUs(k, cpu));
    expect(pred!.timeUs).toBeGreaterThanOrEqual(0.4 * floorUs(k, cpu) - 1e-9);
    expect(ForestPredictor.load(JSON.parse(JSON.stringify(p.toJSON()))).minLogRatio).toBe(p.minLogRatio);
  });

  it('tells apart an op its family outnumbers: a few SkipLayerNormalization kernels at 8x LayerNorm', () => {
    // 600 LayerNorms and 12 SkipLayerNorms of the same sizes, 8x slower: trees split on what most share.
    const norms = syntheticSamples(612, 5, { devices: [cpu], ops: ['LayerNormalization'], noise: 0.02 });
    const samples = norms.map((s, i) => (i < 12 ? { ...s, op: 'SkipLayerNormalization', timeUs: 8 * s.timeUs } : s));
    const p = new ForestPredictor({ nEstimators: 40 });
    p.train(samples);
    const part = p.parts.variants.get('layernorm');
    expect(part).toBeDefined();
    const bias = part!.opBias[FEATURE_NAMES.indexOf('op_SkipLayerNormalization')] as number;
    expect(Math.exp(bias)).toBeGreaterThan(1.1);
    expect(part!.opBias[FEATURE_NAMES.indexOf('op_LayerNormalization')]).toBeCloseTo(0, 1);
    expect(part!.opBias.filter((_, j) => !FEATURE_NAMES[j]?.startsWith('op_')).every((v) => v === 0)).toBe(true);
    const q = { ...(samples[600] as (typeof samples)[number]) };
    const [asLn] = p.predict([q]);
    const [asSkip] = p.predict([{ ...q, op: 'SkipLayerNormalization' }]);
    expect(asSkip!.timeUs / asLn!.timeUs).toBeGreaterThan(4);
    expect(
      ForestPredictor.load(JSON.parse(JSON.stringify(p.toJSON()))).parts.variants.get('layernorm')!.opBias,
    ).toEqual(part!.opBias);
  });

  it('loads a predictor stored before the clamp was learned with the default clamp', () => {
    const { minLogRatio: _, ...old } = predictor.toJSON() as Record<string, unknown>;
    expect(ForestPredictor.load(old).minLogRatio).toBe(MIN_LOG_RATIO);
  });

  it('warns on an unseen family, an unseen device and sizes beyond the trained range', () => {
    const conv = makeKernel('Conv', 'fp32', { N: 1, C: 64, H: 56, W: 56, K: 64, R: 3, S: 3, stride: 1, groups: 1 });
    expect(predictor.predict([{ ...conv, device: cpu }])[0]!.warning).toMatch(/op family "conv" was never profiled/);
    const other: DeviceFeatures = SYNTHETIC_DEVICES[0]!;
    const mm = makeKernel('MatMul', 'fp32', { B: 1, M: 256, N: 256, K: 256 });
    expect(predictor.predict([{ ...mm, device: other }])[0]!.warning).toMatch(/device m1\/cpu\/cpu\/2 was not in/);
    expect(predictor.predict([{ ...mm, device: gpu }])[0]!.warning).toBeNull();
    const huge = makeKernel('MatMul', 'fp32', { B: 64, M: 16384, N: 16384, K: 16384 });
    expect(predictor.predict([{ ...huge, device: gpu }])[0]!.warning).toMatch(/larger than any profiled gemm op/);
    const tiny = makeKernel('Softmax', 'fp32', { rows: 1, cols: 1 });
    expect(predictor.predict([{ ...tiny, device: gpu }])[0]!.warning).toMatch(/smaller than any profiled softmax/);
  });

  it('round-trips through JSON and refuses other predictors', () => {
    const back = ForestPredictor.load(JSON.parse(JSON.stringify(predictor.toJSON())));
    expect(back.predict(heldOut)).toEqual(predictor.predict(heldOut));
    const json = predictor.toJSON();
    expect(() => ForestPredictor.load({ ...json, name: 'linear' })).toThrow(/not "forest"/);
    expect(() => ForestPredictor.load({ ...json, version: 1 })).toThrow(/version 1.*retrain/);
    expect(() =>
      ForestPredictor.load({
        ...json,
        variants: { 'conv-3d': (json as unknown as { variants: Record<string, unknown> }).variants['gemm'] },
      }),
    ).toThrow(/unknown kernel variant/);
    expect(() => ForestPredictor.load({ ...json, featureNames: ['x'] })).toThrow(/other features/);
    expect(() => ForestPredictor.load({ ...json, forest: { kind: 'random-forest-regressor' } })).toThrow();
    expect(() => ForestPredictor.load({ name: 'forest', version: 2 })).toThrow();
    expect(() => ForestPredictor.load('garbage')).toThrow(/not an object/);
  });

  it('gives each kernel variant with enough samples a forest of its own, the others the shared one', () => {
    expect([...predictor.parts.variants.keys()].sort()).toEqual([
      'elementwise',
      'gemm',
      'gemm_batched',
      'layernorm',
      'softmax',
    ]);
    const few = [...train.filter((s) => s.op !== 'Softmax'), ...train.filter((s) => s.op === 'Softmax').slice(0, 5)];
    const p = new ForestPredictor({ nEstimators: 10 });
    p.train(few);
    expect(p.parts.variants.has('softmax')).toBe(false);
    expect(p.parts.variants.has('gemm')).toBe(true);
    const one = new ForestPredictor({ nEstimators: 10 }, Infinity);
    one.train(few);
    expect(one.parts.variants.size).toBe(0);
  });

  it('keeps a kind of conv its neighbours outnumber from pulling their times (1-D depthwise at 20x plain 1-D)', () => {
    // Plain 1-D convs at 1.1x their floor and 1-D depthwise ones, one SGEMM call per group, at
    // 20x: one forest averages them in shared leaves; a forest per variant keeps each apart.
    const rand = (i: number): number => ((i * 7919) % 97) / 97;
    const conv1d = (i: number, groups: boolean) => {
      const C = 2 ** (4 + (i % 5));
      const k = makeKernel('Conv', 'fp32', {
        N: 1,
        C,
        H: 2 ** (5 + ((i >> 2) % 6)),
        W: 1,
        K: groups ? C : 2 ** (4 + ((i >> 1) % 5)),
        R: [1, 3, 5, 9][i % 4] as number,
        S: 1,
        stride: 1,
        groups: groups ? C : 1,
        d1: 1,
      });
      const ratio = (groups ? 20 : 1.1) * (1 + 0.04 * (rand(i) - 0.5));
      return { ...k, device: cpu, timeUs: ratio * floorUs(k, cpu) };
    };
    const plain = Array.from({ length: 60 }, (_, i) => conv1d(i, false));
    const grouped = Array.from({ length: 30 }, (_, i) => conv1d(i + 100, true));
    const mape = (p: ForestPredictor): number => {
      const got = p.predict(plain);
      return got.reduce((a, g, i) => a + Math.abs(g.timeUs / plain[i]!.timeUs - 1), 0) / plain.length;
    };
    const shared = new ForestPredictor({ nEstimators: 30 }, Infinity);
    shared.train([...plain, ...grouped]);
    const own = new ForestPredictor({ nEstimators: 30 });
    own.train([...plain, ...grouped]);
    expect([...own.parts.variants.keys()].sort()).toEqual(['conv1d', 'conv1d_grouped']);
    expect(mape(own)).toBeLessThan(0.05);
    expect(mape(own)).toBeLessThan(mape(shared));
  });

  it('refuses to train on nothing', () => {
    expect(() => new ForestPredictor().train([])).toThrow(/no samples/);
  });
});
