import { describe, expect, it } from 'vitest';
import { dimBucket, groupKey, sizeLog2 } from '../../../../../src-main/core/predictor/evaluation/groups.js';
import {
  groupedKFold,
  leaveOneDeviceOut,
  leaveOneFamilyOut,
} from '../../../../../src-main/core/predictor/evaluation/splits.js';
import {
  extrapolationSplit,
  interpolationSplit,
} from '../../../../../src-main/core/predictor/evaluation/unseen-shapes.js';
import type { Fold } from '../../../../../src-main/core/predictor/evaluation/types.js';
import type { DeviceFeatures, Sample } from '../../../../../src-main/core/predictor/types.js';
import { device, DEVICES, makeSamples } from '../../../../helpers/evaluation-samples.js';

const partition = (s: Sample): string => `${s.device.deviceId}|${s.op}`;

function expectPartition(fold: Fold, n: number): void {
  const all = [...fold.train, ...fold.test].sort((a, b) => a - b);
  expect(all).toEqual(Array.from({ length: n }, (_, i) => i));
  expect(fold.train.length).toBeGreaterThan(0);
  expect(fold.test.length).toBeGreaterThan(0);
}

describe('group keys', () => {
  it('rounds each dim to its nearest power of 2 on a log scale', () => {
    expect(dimBucket(1000)).toBe('2^10');
    expect(dimBucket(1024)).toBe('2^10');
    expect(dimBucket(3)).toBe('2^2');
    expect(dimBucket(6)).toBe('2^3');
    expect(dimBucket(1)).toBe('2^0');
    expect(dimBucket(0)).toBe('0');
  });

  it('puts near-duplicate shapes of one op, dtype and device in one group, other devices apart', () => {
    const s = makeSamples();
    const find = (dev: string, m: number): Sample =>
      s.find((x) => x.device.deviceId === dev && x.op === 'MatMul' && x.shape.M === m) as Sample;
    expect(groupKey(find('m1/cpu/cpu/2', 1000))).toBe(groupKey(find('m1/cpu/cpu/2', 1024)));
    expect(groupKey(find('m1/cpu/cpu/2', 1024))).not.toBe(groupKey(find('m1/cpu/cpu/4', 1024)));
    expect(groupKey(find('m1/cpu/cpu/2', 512))).not.toBe(groupKey(find('m1/cpu/cpu/2', 1024)));
    expect(sizeLog2(find('m1/cpu/cpu/2', 16))).toBeCloseTo(Math.log2(1 + 2 * 16 ** 3 + 12 * 256), 12);
  });
});

describe('grouped k-fold', () => {
  const samples = makeSamples();

  it('is deterministic for a seed and changes with it', () => {
    expect(groupedKFold(samples, 5, 42)).toEqual(groupedKFold(samples, 5, 42));
    const first = JSON.stringify(groupedKFold(samples, 5, 1).folds);
    const others = [2, 3, 4, 5].map((seed) => JSON.stringify(groupedKFold(samples, 5, seed).folds));
    expect(others.some((o) => o !== first)).toBe(true);
  });

  it('never puts a group in train and test, and tests every sample exactly once', () => {
    for (const seed of [1, 7, 99]) {
      const { folds, skipped } = groupedKFold(samples, 5, seed);
      expect(folds).toHaveLength(5);
      expect(skipped).toEqual([]);
      const tested = new Map<number, number>();
      for (const fold of folds) {
        expectPartition(fold, samples.length);
        const trainGroups = new Set(fold.train.map((i) => groupKey(samples[i] as Sample)));
        for (const i of fold.test) {
          expect(trainGroups.has(groupKey(samples[i] as Sample))).toBe(false);
          tested.set(i, (tested.get(i) ?? 0) + 1);
        }
      }
      expect(tested.size).toBe(samples.length);
      expect([...tested.values()].every((c) => c === 1)).toBe(true);
    }
  });

  it('keeps fold sizes close', () => {
    const sizes = groupedKFold(samples, 4, 3).folds.map((f) => f.test.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(2);
  });

  it('skips folds with an empty side and says why', () => {
    const one = makeSamples([DEVICES[0] as DeviceFeatures]).filter((s) => s.op === 'MatMul' && s.shape.M === 1024);
    const twin = { ...one[0], shape: { M: 1000, N: 1000, K: 1000 } } as Sample;
    const { folds, skipped } = groupedKFold([...one, twin], 3, 1); // one group only
    expect(folds).toEqual([]);
    expect(skipped).toHaveLength(3);
    expect(skipped.filter((r) => /no training samples/.test(r))).toHaveLength(1);
    expect(skipped.filter((r) => /no test samples/.test(r))).toHaveLength(2);
  });

  it('rejects k < 2', () => {
    expect(() => groupedKFold(samples, 1, 1)).toThrow(/k >= 2/);
    expect(() => groupedKFold(samples, 2.5, 1)).toThrow(/k >= 2/);
  });
});

describe('unseen shapes', () => {
  const samples = makeSamples();

  function trainSizes(fold: Fold): Map<string, number[]> {
    const out = new Map<string, number[]>();
    for (const i of fold.train) {
      const s = samples[i] as Sample;
      out.set(partition(s), [...(out.get(partition(s)) ?? []), sizeLog2(s)]);
    }
    return out;
  }

  it('extrapolation tests only sizes beyond the largest trained size of their op and device', () => {
    const { folds } = extrapolationSplit(samples);
    const fold = folds[0] as Fold;
    expect(folds).toHaveLength(1);
    expectPartition(fold, samples.length);
    const train = trainSizes(fold);
    const testedParts = new Set<string>();
    for (const i of fold.test) {
      const s = samples[i] as Sample;
      testedParts.add(partition(s));
      expect(sizeLog2(s)).toBeGreaterThan(Math.max(...(train.get(partition(s)) ?? [Infinity])));
    }
    expect(testedParts.size).toBe(DEVICES.length * 3); // every op on every device
    // the largest ~15 %: for 13 gemm shapes, round(1.95) = 2 samples (the 2048 group) or a bit more
    const gemmCpu2 = fold.test.filter((i) => partition(samples[i] as Sample) === 'm1/cpu/cpu/2|MatMul');
    expect(gemmCpu2.map((i) => (samples[i] as Sample).shape.M)).toContain(2048);
    expect(gemmCpu2.length).toBeLessThanOrEqual(3);
  });

  it('interpolation tests only sizes strictly inside the trained range of their op and device', () => {
    const { folds } = interpolationSplit(samples, 11);
    const fold = folds[0] as Fold;
    expectPartition(fold, samples.length);
    const train = trainSizes(fold);
    for (const i of fold.test) {
      const s = samples[i] as Sample;
      const sizes = train.get(partition(s)) ?? [];
      expect(sizeLog2(s)).toBeGreaterThan(Math.min(...sizes));
      expect(sizeLog2(s)).toBeLessThan(Math.max(...sizes));
    }
    const trainGroups = new Set(fold.train.map((i) => groupKey(samples[i] as Sample)));
    expect(fold.test.some((i) => trainGroups.has(groupKey(samples[i] as Sample)))).toBe(false);
    expect(interpolationSplit(samples, 11)).toEqual(interpolationSplit(samples, 11));
  });

  it('names each fold and records partitions it cannot use', () => {
    const tiny = [...makeSamples(), ...makeSamples([device('m2/cpu/cpu/1', 'cpu', 10, 5, 2)]).slice(0, 1)];
    const interpolation = interpolationSplit(tiny, 5);
    const extrapolation = extrapolationSplit(tiny);
    expect([...interpolation.folds, ...extrapolation.folds].map((f) => f.name)).toEqual([
      'interpolation',
      'extrapolation',
    ]);
    expect(interpolation.skipped).toContain(
      'interpolation: MatMul on m2/cpu/cpu/1: no shape group strictly inside the size range',
    );
    expect(extrapolation.skipped).toContain(
      'extrapolation: MatMul on m2/cpu/cpu/1: no size beyond the rest (only one shape group)',
    );
  });

  it('skips a fold when no partition can be held out', () => {
    const one = makeSamples().slice(0, 1);
    expect(extrapolationSplit(one).folds).toEqual([]);
    expect(extrapolationSplit(one).skipped.at(-1)).toBe('extrapolation: skipped, no test samples');
  });
});

describe('leave one out', () => {
  const samples = makeSamples();

  it('holds out exactly one family per fold', () => {
    const { folds } = leaveOneFamilyOut(samples);
    expect(folds.map((f) => f.name)).toEqual(['family=elementwise', 'family=gemm', 'family=softmax']);
    for (const fold of folds) {
      expectPartition(fold, samples.length);
      const family = fold.name.split('=')[1];
      expect(new Set(fold.test.map((i) => (samples[i] as Sample).family))).toEqual(new Set([family]));
      expect(fold.train.some((i) => (samples[i] as Sample).family === family)).toBe(false);
    }
  });

  it('holds out exactly one device id per fold, thread counts apart', () => {
    const { folds, skipped } = leaveOneDeviceOut(samples);
    expect(skipped).toEqual([]);
    expect(folds.map((f) => f.name)).toEqual(DEVICES.map((d) => `device=${d.deviceId}`).sort());
    for (const fold of folds) {
      expectPartition(fold, samples.length);
      const id = fold.name.slice('device='.length);
      expect(fold.test.every((i) => (samples[i] as Sample).device.deviceId === id)).toBe(true);
      expect(fold.train.some((i) => (samples[i] as Sample).device.deviceId === id)).toBe(false);
    }
  });

  it('gives no device folds for one device, and skips a lone family', () => {
    const one = makeSamples([DEVICES[2] as DeviceFeatures]);
    expect(leaveOneDeviceOut(one)).toEqual({
      folds: [],
      skipped: ['leave-one-device-out needs at least 2 devices, found 1'],
    });
    const gemm = one.filter((s) => s.family === 'gemm');
    expect(leaveOneFamilyOut(gemm)).toEqual({ folds: [], skipped: ['family=gemm: skipped, no training samples'] });
  });
});
