import { describe, expect, it } from 'vitest';
import { evaluateProtocols } from '../../../../../src-main/core/predictor/evaluation/evaluate.js';
import { addExternalPredictions } from '../../../../../src-main/core/predictor/evaluation/external.js';
import { foldsFor } from '../../../../../src-main/core/predictor/evaluation/protocols.js';
import { formatReport } from '../../../../../src-main/core/predictor/evaluation/format.js';
import { groupKey } from '../../../../../src-main/core/predictor/evaluation/groups.js';
import { PROTOCOL_NAMES, type ExternalPrediction } from '../../../../../src-main/core/predictor/evaluation/types.js';
import type {
  DeviceFeatures,
  OpInstance,
  Prediction,
  Predictor,
  PredictorJson,
  Sample,
} from '../../../../../src-main/core/predictor/types.js';
import { DEVICES, sample, makeSamples } from '../../../../helpers/evaluation-samples.js';

type Query = OpInstance & { device: DeviceFeatures };
const at = (p: number): Prediction => ({ timeUs: p, lowUs: p, highUs: p, warning: null });

/** Predicts the training mean of the query's family (the overall mean for unseen families). */
class FamilyMean implements Predictor {
  readonly name = 'family-mean';
  readonly version = 1;
  private means = new Map<string, number>();
  private overall = NaN;
  train(samples: readonly Sample[]): void {
    const sums = new Map<string, [number, number]>();
    for (const s of samples) {
      const [t, n] = sums.get(s.family) ?? [0, 0];
      sums.set(s.family, [t + s.timeUs, n + 1]);
    }
    this.means = new Map([...sums].map(([f, [t, n]]) => [f, t / n]));
    this.overall = samples.reduce((t, s) => t + s.timeUs, 0) / samples.length;
  }
  predict(queries: readonly Query[]): Prediction[] {
    return queries.map((q) => at(this.means.get(q.family) ?? this.overall));
  }
  toJSON(): PredictorJson {
    return { name: this.name, version: this.version };
  }
}

/** Records what it was trained on and asked about; predicts 1 µs. */
class Recorder implements Predictor {
  readonly name = 'recorder';
  readonly version = 1;
  static log: { train: Sample[]; queries: Query[] }[] = [];
  train(samples: readonly Sample[]): void {
    Recorder.log.push({ train: [...samples], queries: [] });
  }
  predict(queries: readonly Query[]): Prediction[] {
    const last = Recorder.log.at(-1);
    if (last) last.queries = [...queries];
    return queries.map(() => at(1));
  }
  toJSON(): PredictorJson {
    return { name: this.name, version: this.version };
  }
}

// Two devices, two families; times picked so the leave-one-device-out numbers are easy by hand.
function handSamples(): Sample[] {
  const [a, b] = [DEVICES[0], DEVICES[2]] as [DeviceFeatures, DeviceFeatures];
  const gemm = (d: DeviceFeatures, m: number, t: number): Sample => ({
    ...sample(d, 'MatMul', 'gemm', { M: m, N: m, K: m }, 2 * m ** 3, 12 * m * m),
    timeUs: t,
  });
  const add = (d: DeviceFeatures, n: number, t: number): Sample => ({
    ...sample(d, 'Add', 'elementwise', { n }, n, 12 * n),
    timeUs: t,
  });
  return [gemm(a, 64, 100), gemm(a, 256, 300), add(a, 1024, 4), add(a, 65536, 8)].concat([
    gemm(b, 64, 150),
    gemm(b, 256, 250),
    add(b, 1024, 5),
    add(b, 65536, 10),
  ]);
}

const mean = (xs: number[]): number => xs.reduce((t, x) => t + x, 0) / xs.length;

describe('evaluateProtocols', () => {
  it('matches hand-computed metrics for a family-mean predictor, leaving one device out', () => {
    const report = evaluateProtocols(handSamples(), () => [new FamilyMean()], {
      k: 2,
      seed: 1,
      protocols: ['leave-one-device-out'],
    });
    expect(report.samples).toBe(8);
    expect(report.devices).toEqual(['m1/cpu/cpu/2', 'm1/cuda/gpu/0']);
    const p = report.protocols[0];
    expect(p?.name).toBe('leave-one-device-out');
    expect(p?.folds).toBe(2);
    expect(p?.skipped).toEqual([]);
    const s = p?.byPredictor['family-mean'];
    if (!s) throw new Error('no summary');
    // Device A is predicted from B's means (gemm 200, add 7.5), B from A's (gemm 200, add 6).
    const gemmApes = [100 / 100, 100 / 300, 50 / 150, 50 / 250];
    const addApes = [3.5 / 4, 0.5 / 8, 1 / 5, 4 / 10];
    expect(s.overall.count).toBe(8);
    expect(s.overall.mape).toBeCloseTo(100 * mean([...gemmApes, ...addApes]), 10);
    expect(s.overall.within5).toBe(0);
    expect(s.overall.within10).toBe(12.5); // only 8 → 7.5
    expect(s.overall.maxApe).toBeCloseTo(100, 10);
    expect(s.above100us.count).toBe(4);
    expect(s.above100us.mape).toBeCloseTo(100 * mean(gemmApes), 10);
    expect(s.under10us.count).toBe(3); // 4, 8, 5 µs; 10 µs is not under 10
    expect(s.under10us.mape).toBeCloseTo(100 * mean([3.5 / 4, 0.5 / 8, 1 / 5]), 10);
    expect(Object.keys(s.byFamily)).toEqual(['elementwise', 'gemm']);
    expect(s.byFamily.gemm?.mape).toBeCloseTo(100 * mean(gemmApes), 10);
    expect(s.byFamily.elementwise?.mape).toBeCloseTo(100 * mean(addApes), 10);
    expect(Object.fromEntries(Object.entries(s.bySize).map(([k, m]) => [k, m.count]))).toEqual({
      '<10 µs tiny (timer noise dominates)': 3,
      '10-100 µs': 1,
      '100 µs-1 ms': 4,
    });
    expect(report.scatter).toHaveLength(8);
    expect(report.scatter.find((r) => r.index === 0)).toMatchObject({
      protocol: 'leave-one-device-out',
      fold: 'device=m1/cpu/cpu/2',
      predictor: 'family-mean',
      family: 'gemm',
      device: 'm1/cpu/cpu/2',
      actualUs: 100,
      predictedUs: 200,
    });
  });

  it('runs every protocol with fresh predictors per fold and the structure the report promises', () => {
    const samples = makeSamples();
    let made = 0;
    const report = evaluateProtocols(
      samples,
      () => {
        made++;
        return [new FamilyMean(), new Recorder()];
      },
      { k: 4, seed: 3 },
    );
    expect(report.protocols.map((p) => p.name)).toEqual([...PROTOCOL_NAMES]);
    expect(made).toBe(report.protocols.reduce((t, p) => t + p.folds, 0));
    expect(report.protocols.map((p) => p.folds)).toEqual([4, 1, 1, 3, 3, 0]);
    for (const p of report.protocols.filter((x) => x.folds > 0)) {
      expect(Object.keys(p.byPredictor)).toEqual(['family-mean', 'recorder']);
      const s = p.byPredictor['family-mean'];
      const tested = foldsFor(samples, p.name, { k: 4, seed: 3 }).folds.reduce((t, f) => t + f.test.length, 0);
      expect(s?.overall.count).toBe(tested);
      expect(s?.above100us.count).toBe(
        foldsFor(samples, p.name, { k: 4, seed: 3 })
          .folds.flatMap((f) => f.test)
          .filter((i) => (samples[i] as Sample).timeUs >= 100).length,
      );
      for (const m of Object.values(s?.bySize ?? {})) expect(m.count).toBeGreaterThan(0);
    }
    for (const name of ['grouped-kfold', 'leave-one-family-out', 'leave-one-device-out']) {
      expect(report.protocols.find((p) => p.name === name)?.byPredictor.recorder?.overall.count).toBe(samples.length);
    }
  });

  it('trains without the test samples and hides measured times from the queries', () => {
    Recorder.log = [];
    const samples = makeSamples();
    evaluateProtocols(samples, () => [new Recorder()], { k: 3, seed: 9, protocols: ['grouped-kfold'] });
    expect(Recorder.log).toHaveLength(3);
    for (const { train, queries } of Recorder.log) {
      const trainGroups = new Set(train.map(groupKey));
      expect(queries.length).toBeGreaterThan(0);
      for (const q of queries) {
        expect('timeUs' in q).toBe(false);
        expect(trainGroups.has(groupKey({ ...q, timeUs: 0 }))).toBe(false);
      }
    }
  });

  it('caps the scatter with the same samples for every predictor of a protocol', () => {
    const samples = makeSamples();
    const report = evaluateProtocols(samples, () => [new FamilyMean(), new Recorder()], {
      k: 3,
      seed: 1,
      protocols: ['grouped-kfold', 'leave-one-device-out'],
      scatterCap: 40,
    });
    expect(report.scatter).toHaveLength(40);
    for (const protocol of ['grouped-kfold', 'leave-one-device-out'] as const) {
      const idx = (predictor: string): number[] =>
        report.scatter.filter((r) => r.protocol === protocol && r.predictor === predictor).map((r) => r.index);
      expect(idx('family-mean')).toHaveLength(10);
      expect(idx('family-mean')).toEqual(idx('recorder'));
    }
  });

  it('reports protocols without folds as skipped and refuses bad options', () => {
    const one = makeSamples([DEVICES[0] as DeviceFeatures]);
    const report = evaluateProtocols(one, () => [new FamilyMean()], {
      k: 2,
      seed: 1,
      protocols: ['leave-one-device-out'],
    });
    expect(report.protocols[0]).toEqual({
      name: 'leave-one-device-out',
      folds: 0,
      skipped: ['leave-one-device-out needs at least 2 devices, found 1'],
      byPredictor: {},
    });
    expect(() => evaluateProtocols(one, () => [], { k: 1, seed: 1 })).toThrow(/k must be/);
    const twice = (): Predictor[] => [new FamilyMean(), new FamilyMean()];
    expect(() => evaluateProtocols(one, twice, { k: 2, seed: 1 })).toThrow(/repeat/);
  });
});

describe('external predictions', () => {
  const samples = makeSamples();
  const opts = { k: 3, seed: 5, protocols: ['grouped-kfold', 'extrapolation'] as const };
  const base = (): ReturnType<typeof evaluateProtocols> =>
    evaluateProtocols(samples, () => [new FamilyMean()], { ...opts, protocols: [...opts.protocols] });

  function tenPercentHigh(): ExternalPrediction[] {
    return opts.protocols.flatMap((protocol) =>
      foldsFor(samples, protocol, opts).folds.flatMap((fold) =>
        fold.test.map((index) => ({
          protocol,
          fold: fold.name,
          index,
          predictedUs: (samples[index] as Sample).timeUs * 1.1,
        })),
      ),
    );
  }

  it('aggregates predictions made elsewhere on the same folds', () => {
    const report = base();
    const out = addExternalPredictions(report, 'sklearn-forest', tenPercentHigh(), samples);
    for (const p of out.protocols) {
      const s = p.byPredictor['sklearn-forest'];
      expect(s?.overall.mape).toBeCloseTo(10, 8);
      expect(s?.overall.within10).toBe(100);
      expect(s?.overall.within5).toBe(0);
      expect(s?.overall.spearman).toBeCloseTo(1, 12);
      expect(s?.overall.count).toBe(p.byPredictor['family-mean']?.overall.count);
      expect(Object.keys(s?.byFamily ?? {})).toEqual(Object.keys(p.byPredictor['family-mean']?.byFamily ?? {}));
    }
    expect(out.scatter.some((r) => r.predictor === 'sklearn-forest')).toBe(true);
    expect(report.protocols[0]?.byPredictor['sklearn-forest']).toBeUndefined(); // input untouched
  });

  it('refuses predictions that do not cover the folds exactly once', () => {
    const report = base();
    const rows = tenPercentHigh();
    expect(() => addExternalPredictions(report, 'x', rows.slice(1), samples)).toThrow(/no prediction/);
    expect(() => addExternalPredictions(report, 'x', [...rows, rows[0] as ExternalPrediction], samples)).toThrow(
      /given twice/,
    );
    const wrongFold = rows.map((r, i) => (i === 0 ? { ...r, fold: 'fold-9-of-3' } : r));
    expect(() => addExternalPredictions(report, 'x', wrongFold, samples)).toThrow(/no such fold/);
    expect(() => addExternalPredictions(report, 'family-mean', rows, samples)).toThrow(/already has/);
    const other = rows.map((r) => ({ ...r, protocol: 'interpolation' as const }));
    expect(() => addExternalPredictions(report, 'x', other, samples)).toThrow(/not in the report/);
  });
});

describe('formatReport', () => {
  it('prints one table per protocol with predictors side by side, headline, tiny line and families', () => {
    const samples = makeSamples();
    const report = evaluateProtocols(samples, () => [new FamilyMean(), new Recorder()], {
      k: 3,
      seed: 2,
      protocols: ['grouped-kfold', 'leave-one-family-out'],
    });
    const text = formatReport(report);
    expect(text).toContain('== grouped-kfold: 3 folds ==');
    expect(text).toContain('== leave-one-family-out: 3 folds ==');
    expect(text).toMatch(/^metric\s+family-mean\s+recorder$/m);
    expect(text).toMatch(/^>=100 µs MAPE % \(headline\)\s+[\d.]+\s+[\d.]+$/m);
    expect(text).toMatch(/^<10 µs MAPE % \(timer noise\)\s+[\d.]+\s+[\d.]+$/m);
    for (const label of ['all: median APE %', 'all: RMSPE %', 'all: p90 APE %', 'all: max APE %', 'all: Spearman']) {
      expect(text).toContain(label);
    }
    expect(text).toContain('all: within ±15 %');
    expect(text).toMatch(/^family gemm: MAPE % \(n\)\s+[\d.]+ \(\d+\)\s+[\d.]+ \(\d+\)$/m);
    const n = report.protocols[0]?.byPredictor.recorder?.overall.count;
    expect(text).toMatch(new RegExp(`^all: n\\s+${n}\\s+${n}$`, 'm'));
  });

  it('shows why a protocol has no folds', () => {
    const one = makeSamples([DEVICES[0] as DeviceFeatures]);
    const report = evaluateProtocols(one, () => [new FamilyMean()], {
      k: 2,
      seed: 1,
      protocols: ['leave-one-device-out'],
    });
    expect(formatReport(report)).toContain(
      '== leave-one-device-out: 0 folds ==\n(nothing evaluated)\nskipped: leave-one-device-out needs at least 2 devices, found 1',
    );
  });
});

describe('leave-one-model-out', () => {
  it('holds out each measured model in turn and trains on the rest', async () => {
    const { leaveOneModelOut } = await import('../../../../../src-main/core/predictor/evaluation/splits.js');
    const samples = makeSamples().map((s, i) => ({
      ...s,
      origin: i % 5 === 0 ? 'model:a' : i % 7 === 0 ? 'model:b' : 'profile',
    }));
    const split = leaveOneModelOut(samples);
    expect(split.folds.map((f) => f.name)).toEqual(['model:a', 'model:b']);
    for (const f of split.folds) {
      expect(f.test.every((i) => samples[i]?.origin === f.name)).toBe(true);
      expect(f.train.some((i) => samples[i]?.origin === f.name)).toBe(false);
      expect(f.train.length + f.test.length).toBe(samples.length);
    }
    expect(leaveOneModelOut(makeSamples()).skipped[0]).toMatch(/measure-model/);
  });
});
