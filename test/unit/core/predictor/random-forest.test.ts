import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src-main/core/kernels/fill.js';
import { RandomForestRegressor, type ForestJson } from '../../../../src-main/core/predictor/random-forest.js';
import { sklearnForestPredict } from '../../../helpers/sklearn-oracle.js';
import { needOracle } from '../../../helpers/oracle.js';

/** y = sin(x0) + x1^2 (+ noise) with 4 irrelevant features. */
function dataset(n: number, seed: number, noise: number): { X: number[][]; y: number[] } {
  const rand = seededRandom(seed);
  const X: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = [rand() * 6 - 3, rand() * 4 - 2, rand(), rand(), Math.floor(rand() * 5), rand() * 100];
    X.push(row);
    y.push(Math.sin(row[0]!) + row[1]! ** 2 + noise * (rand() - 0.5));
  }
  return { X, y };
}

const rmse = (a: readonly number[], b: readonly number[]): number =>
  Math.sqrt(a.reduce((s, v, i) => s + (v - b[i]!) ** 2, 0) / a.length);

const train = dataset(2000, 1, 0.1);
const test = dataset(500, 2, 0);

describe('RandomForestRegressor', () => {
  it('fits a nonlinear function with low held-out error', () => {
    const rf = new RandomForestRegressor({ nEstimators: 50, maxFeatures: 'all', minSamplesLeaf: 2 });
    rf.fit(train.X, train.y);
    expect(rmse(rf.predict(test.X), test.y)).toBeLessThan(0.2);
    const spread = rf.predictWithSpread(test.X);
    expect(spread.mean).toEqual(rf.predict(test.X));
    expect(spread.std.every((s) => s >= 0 && Number.isFinite(s))).toBe(true);
  });

  it('is deterministic for a seed and differs for another', () => {
    const fit = (seed: number): number[] => {
      const rf = new RandomForestRegressor({ nEstimators: 10, seed, maxFeatures: 'sqrt' });
      rf.fit(train.X, train.y);
      return rf.predict(test.X);
    };
    expect(fit(7)).toEqual(fit(7));
    expect(fit(8)).not.toEqual(fit(7));
  });

  it('round-trips through JSON with identical predictions', () => {
    const rf = new RandomForestRegressor({ nEstimators: 10, maxDepth: 8 });
    rf.fit(train.X, train.y);
    const back = RandomForestRegressor.fromJSON(JSON.parse(JSON.stringify(rf.toJSON())));
    expect(back.predict(test.X)).toEqual(rf.predict(test.X));
    expect(back.options).toEqual(rf.options);
    const unlimited = new RandomForestRegressor({ nEstimators: 2 });
    unlimited.fit(train.X.slice(0, 100), train.y.slice(0, 100));
    const json = JSON.parse(JSON.stringify(unlimited.toJSON())) as ForestJson;
    expect(json.options.maxDepth).toBeNull();
    expect(RandomForestRegressor.fromJSON(json).options.maxDepth).toBe(Infinity);
  });

  it('rejects garbage in fromJSON with a clear error', () => {
    const rf = new RandomForestRegressor({ nEstimators: 2, maxDepth: 3 });
    rf.fit(train.X, train.y);
    const good = rf.toJSON();
    const tree0 = good.trees[0]!;
    const withTree = (t: Partial<typeof tree0>): unknown => ({ ...good, trees: [{ ...tree0, ...t }] });
    expect(() => RandomForestRegressor.fromJSON(null)).toThrow(/not a stored random forest/);
    expect(() => RandomForestRegressor.fromJSON('forest')).toThrow(/not a stored random forest/);
    expect(() => RandomForestRegressor.fromJSON({ ...good, kind: 'other' })).toThrow(/not a stored random forest/);
    expect(() => RandomForestRegressor.fromJSON({ ...good, trees: [] })).toThrow(/non-empty array/);
    expect(() => RandomForestRegressor.fromJSON({ ...good, nFeatures: 0 })).toThrow(/nFeatures/);
    expect(() => RandomForestRegressor.fromJSON({ ...good, options: { ...good.options, nEstimators: -1 } })).toThrow(
      /nEstimators/,
    );
    expect(() => RandomForestRegressor.fromJSON(withTree({ value: tree0.value.slice(1) }))).toThrow(/equal length/);
    expect(() => RandomForestRegressor.fromJSON(withTree({ left: tree0.left.map(() => 0) }))).toThrow(/child/);
    expect(() => RandomForestRegressor.fromJSON(withTree({ feature: tree0.feature.map(() => 99) }))).toThrow(
      /feature 99/,
    );
    expect(() => RandomForestRegressor.fromJSON(withTree({ threshold: tree0.threshold.map(() => 0.1) }))).toThrow(
      /float32/,
    );
    expect(() => RandomForestRegressor.fromJSON(withTree({ value: tree0.value.map(() => Number.NaN) }))).toThrow(
      /finite numbers/,
    );
  });

  it('reproduces its training targets with one unbagged tree of unlimited depth', () => {
    const rf = new RandomForestRegressor({ nEstimators: 1, bootstrap: false, maxFeatures: 'all', minSamplesLeaf: 1 });
    rf.fit(train.X, train.y);
    expect(rf.predict(train.X)).toEqual(train.y);
    expect(rf.oobPredictions().every((v) => Number.isNaN(v))).toBe(true);
  });

  it('routes float64 inputs like their float32 roundings (what an ONNX export sees)', () => {
    const rf = new RandomForestRegressor({ nEstimators: 20 });
    rf.fit(train.X, train.y);
    const rounded = test.X.map((r) => r.map((v) => Math.fround(v)));
    expect(rf.predict(rounded)).toEqual(rf.predict(test.X));
  });

  it('gives out-of-bag predictions close to the targets', () => {
    const rf = new RandomForestRegressor({ nEstimators: 30, maxFeatures: 'all' });
    rf.fit(train.X, train.y);
    const oob = rf.oobPredictions();
    expect(oob).toHaveLength(train.X.length);
    const known = oob.flatMap((v, i) => (Number.isNaN(v) ? [] : [[v, train.y[i]!]]));
    expect(known.length).toBeGreaterThan(0.95 * train.X.length);
    expect(
      rmse(
        known.map((k) => k[0]!),
        known.map((k) => k[1]!),
      ),
    ).toBeLessThan(0.3);
  });

  it('refuses bad options and bad data', () => {
    expect(() => new RandomForestRegressor({ minSamplesSplit: 1 })).toThrow(/minSamplesSplit/);
    expect(() => new RandomForestRegressor({ maxFeatures: 0 })).toThrow(/maxFeatures/);
    expect(() => new RandomForestRegressor().fit([], [])).toThrow(/zero rows/);
    expect(() => new RandomForestRegressor().fit([[1], [2, 3]], [1, 2])).toThrow(/row 1 has 2 features/);
    expect(() => new RandomForestRegressor().fit([[Number.NaN]], [1])).toThrow(/finite/);
    expect(() => new RandomForestRegressor().predict([[1]])).toThrow(/not fitted/);
  });

  it.skipIf(!needOracle('sklearn'))('is as accurate as scikit-learn on the same data and hyper-parameters', () => {
    const params = { nEstimators: 100, maxDepth: 12, minSamplesLeaf: 2, minSamplesSplit: 2, bootstrap: true };
    const ours = new RandomForestRegressor({ ...params, maxFeatures: 0.5, seed: 3 });
    ours.fit(train.X, train.y);
    const oursRmse = rmse(ours.predict(test.X), test.y);
    const theirs = sklearnForestPredict(train.X, train.y, test.X, { ...params, maxFeatures: 0.5, seed: 3 });
    const theirRmse = rmse(theirs, test.y);
    expect(oursRmse).toBeLessThan(theirRmse * 1.15);
  });
});
