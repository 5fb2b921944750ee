import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { featureVector, FEATURE_NAMES, floorUs } from '../../../../src-main/core/predictor/features.js';
import { ForestPredictor } from '../../../../src-main/core/predictor/forest-predictor.js';
import { LinearPredictor } from '../../../../src-main/core/predictor/linear-predictor.js';
import { forestToOnnx, linearToOnnx } from '../../../../src-main/core/predictor/onnx-export.js';
import { RandomForestRegressor } from '../../../../src-main/core/predictor/random-forest.js';
import type { Sample } from '../../../../src-main/core/predictor/types.js';
import { syntheticSamples } from '../../../helpers/forest-samples.js';
import { checkModels } from '../../../helpers/onnx-oracle.js';
import { needOracle } from '../../../helpers/oracle.js';

const all = syntheticSamples(1800, 5);
const train = all.slice(0, 1500);
const queries = all.slice(1500);
const F = FEATURE_NAMES.length;

/** Runs an exported model on the queries; returns its time_us and raw outputs. */
async function runOnnx(model: Uint8Array, qs: readonly Sample[]): Promise<{ time: Float32Array; raw: Float32Array }> {
  const session = await ort.InferenceSession.create(model, { executionProviders: ['cpu'], logSeverityLevel: 3 });
  try {
    const features = new Float32Array(qs.length * F);
    qs.forEach((q, i) => features.set(featureVector(q, q.device), i * F));
    const floor = Float32Array.from(qs, (q) => floorUs(q, q.device));
    const out = await session.run({
      features: new ort.Tensor('float32', features, [qs.length, F]),
      floor_us: new ort.Tensor('float32', floor, [qs.length, 1]),
    });
    return { time: out.time_us!.data as Float32Array, raw: out.raw!.data as Float32Array };
  } finally {
    await session.release();
  }
}

const relDiff = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-30);

describe('forest export (TreeEnsembleRegressor)', () => {
  const predictor = new ForestPredictor({ nEstimators: 30 });
  predictor.train(train);

  it("gives the in-app times on ONNX Runtime, each row through its kernel variant's forest", async () => {
    expect(predictor.parts.variants.size).toBeGreaterThan(4);
    const model = forestToOnnx(predictor.parts, FEATURE_NAMES, predictor.minLogRatio);
    const { time, raw } = await runOnnx(model, queries);
    const expected = predictor.predict(queries);
    const rawExpected = predictor.raw(queries.map((q) => featureVector(q, q.device)));
    expected.forEach((p, i) => {
      expect(relDiff(time[i]!, p.timeUs)).toBeLessThan(1e-5);
      expect(Math.abs(raw[i]! - rawExpected[i]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(rawExpected[i]!)));
    });
  });

  it('routes float32 inputs to the same leaves: one-tree forests match to float32 rounding', async () => {
    const x = train.map((s) => featureVector(s, s.device));
    const y = train.map((s) => Math.log(s.timeUs / floorUs(s, s.device)));
    const rf = new RandomForestRegressor({ nEstimators: 1, bootstrap: false, maxFeatures: 'all', minSamplesLeaf: 1 });
    rf.fit(x, y);
    const { raw } = await runOnnx(forestToOnnx(rf.toJSON(), FEATURE_NAMES), train);
    const inApp = rf.predict(x);
    // Exact leaves: the only difference is the leaf value's float32 rounding.
    inApp.forEach((v, i) => expect(raw[i]).toBe(Math.fround(v)));
  });

  it('refuses mismatched feature names', () => {
    expect(() => forestToOnnx(predictor.parts, ['a'])).toThrow(/features but 1 names/);
  });
});

describe('linear export (LinearRegressor)', () => {
  it('gives the in-app times on ONNX Runtime', async () => {
    const p = new LinearPredictor();
    p.train(train);
    const model = linearToOnnx(p.coefficients, p.intercept, FEATURE_NAMES, p.minLogRatio);
    const { time } = await runOnnx(model, queries);
    p.predict(queries).forEach((e, i) => expect(relDiff(time[i]!, e.timeUs)).toBeLessThan(1e-5));
  });
});

const onnx = needOracle('onnx');
describe.skipIf(!onnx)('ONNX checker', () => {
  it('accepts both exports', () => {
    const p = new LinearPredictor();
    p.train(train);
    const rf = new RandomForestRegressor({ nEstimators: 3, maxDepth: 6 });
    rf.fit(
      train.map((s) => featureVector(s, s.device)),
      train.map((s) => Math.log(s.timeUs / floorUs(s, s.device))),
    );
    const results = checkModels([
      { name: 'forest', bytes: forestToOnnx(rf, FEATURE_NAMES) },
      { name: 'linear', bytes: linearToOnnx(p.coefficients, p.intercept, FEATURE_NAMES) },
    ]);
    for (const name of ['forest', 'linear']) {
      const r = results.get(name);
      expect(r?.error).toBeNull();
      expect(r?.model?.opsets).toContainEqual({ domain: 'ai.onnx.ml', version: 3 });
      expect(r?.model?.outputs.map((o) => o.name)).toEqual(['time_us', 'raw']);
    }
    const forestNode = results.get('forest')?.model?.nodes[0];
    expect(forestNode?.opType).toBe('TreeEnsembleRegressor');
    expect((forestNode?.attributes.nodes_modes as string[]).slice(0, 1)).toEqual(['BRANCH_LEQ']);
  });
});
