import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { loadTrainingData } from '../../../../src-main/services/predict/training-data.js';
import {
  parseShape,
  predictOp,
  storedPredictors,
  trainPredictors,
} from '../../../../src-main/services/predict/predictor-service.js';
import { cli, tempDir } from '../../../helpers/cli.js';
import { seededDb } from '../../../helpers/seeded-store.js';

describe('training data from the store', () => {
  it('turns each (device, EP, thread count) into a device with measured features', () => {
    const { samples, devices } = loadTrainingData(seededDb());
    expect(devices.map((d) => d.threads).sort()).toEqual([1, 16]);
    expect(samples.length).toBe(2 * 27);
    const d16 = devices.find((d) => d.threads === 16)!;
    expect(d16.features.peakGflops.fp32).toBeGreaterThan(
      devices.find((d) => d.threads === 1)!.features.peakGflops.fp32!,
    );
    expect(d16.features.l3Bytes).toBe(67108864);
  });

  it('loads once while the store is unchanged, and again after any write, from this connection or another', () => {
    const file = path.join(tempDir(), 'store.db');
    const db = seededDb(file);
    const first = loadTrainingData(db);
    expect(loadTrainingData(db)).toBe(first);
    expect(Object.isFrozen(first.samples) && Object.isFrozen(first.devices)).toBe(true);
    expect(loadTrainingData(db, { machineId: 'nobody' }).samples).toEqual([]);

    db.prepare('DELETE FROM measurements WHERE id = (SELECT MIN(id) FROM measurements)').run();
    const afterOwn = loadTrainingData(db);
    expect(afterOwn).not.toBe(first);
    expect(afterOwn.samples.length).toBe(first.samples.length - 1);

    const other = openDatabase(file);
    other.prepare('DELETE FROM measurements WHERE id = (SELECT MIN(id) FROM measurements)').run();
    other.close();
    expect(loadTrainingData(db).samples.length).toBe(first.samples.length - 2);
    db.close();
  });
});

describe('training and predicting', () => {
  it('stores each predictor with its training set and loads the newest', () => {
    const db = seededDb();
    const trained = trainPredictors(db, ['roofline', 'analytical', 'linear']);
    expect(trained.map((t) => t.name)).toEqual(['roofline', 'analytical', 'linear']);
    expect(trained[0]?.samples).toBe(54);
    // One CPU profiled at 1 and at 16 threads: one device, as `export` counts it.
    expect(trained[0]?.devices).toBe(1);
    expect(
      storedPredictors(db)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['analytical', 'linear', 'roofline']);
  });

  it('predicts an op with a band from every stored predictor', () => {
    const db = seededDb();
    trainPredictors(db, ['analytical', 'linear']);
    const r = predictOp(db, { op: 'matmul', shape: '1x300x300x300', dtype: 'fp32', device: 'cpu', threads: 16 });
    expect(r.op).toBe('MatMul');
    expect(r.flops).toBe(2 * 300 ** 3);
    for (const p of r.predictions) {
      expect(p.lowUs).toBeLessThanOrEqual(p.timeUs);
      expect(p.highUs).toBeGreaterThanOrEqual(p.timeUs);
    }
    const analytical = r.predictions.find((p) => p.predictor === 'analytical')!;
    const truth = 5 + (2 * 300 ** 3) / 600e3 / 0.8;
    expect(Math.abs(analytical.timeUs - truth) / truth).toBeLessThan(0.1);
    expect(r.warnings).toEqual([]);
  });

  it('says so for bad input instead of guessing', () => {
    const db = seededDb();
    expect(() => predictOp(db, { op: 'MatMul', shape: '1x2x3x4', dtype: 'fp32', device: 'cpu' })).toThrow(
      /no trained predictor yet/,
    );
    trainPredictors(db, ['linear']);
    expect(() => predictOp(db, { op: 'Frobnicate', shape: '1', dtype: 'fp32', device: 'cpu' })).toThrow(
      /unknown op "Frobnicate"/,
    );
    expect(() => predictOp(db, { op: 'MatMul', shape: '1x0x3x4', dtype: 'fp32', device: 'cpu' })).toThrow(
      /M must be a positive integer, got "0"/,
    );
    expect(() => predictOp(db, { op: 'MatMul', shape: '1x-2x3x4', dtype: 'fp32', device: 'cpu' })).toThrow(
      /positive integer/,
    );
    expect(() => predictOp(db, { op: 'MatMul', shape: '2x3', dtype: 'fp32', device: 'cpu' })).toThrow(
      /takes 4 numbers BxMxNxK/,
    );
    expect(() => predictOp(db, { op: 'Conv', shape: '1x3x8x8x4x3x3x1x1', dtype: 'bf16', device: 'cpu' })).toThrow(
      /Conv has no bf16 kernel/,
    );
    expect(() => predictOp(db, { op: 'MatMul', shape: '1x8x8x8', dtype: 'fp32', device: 'cuda:0' })).toThrow(
      /cuda:0 was never profiled on this machine; profiled: cpu \(1 thread\), cpu \(16 threads\)/,
    );
    const never = predictOp(db, { op: 'Conv', shape: '1x64x56x56x64x3x3x1x1', dtype: 'fp32', device: 'cpu' });
    expect(never.warnings.join(' ')).toMatch(/Conv fp32 was never profiled on cpu/);
    expect(never.warnings.join(' ')).toMatch(/op family "conv" was never profiled/);
    const huge = predictOp(db, { op: 'MatMul', shape: '1x16384x16384x16384', dtype: 'fp32', device: 'cpu' });
    expect(huge.warnings.join(' ')).toMatch(/larger than any profiled gemm op/);
  });

  it('refuses a corrupt stored predictor with a message naming it', () => {
    const db = seededDb();
    trainPredictors(db, ['linear']);
    db.prepare('UPDATE predictors SET predictor_json = \'{"name":"linear","version":1,"coefficients":"oops"}\'').run();
    expect(() => storedPredictors(db)).toThrow(/stored linear predictor .* cannot be loaded: .*run pipedejavu train/);
  });

  it('predicts an op with the predictors that load and says which one does not', () => {
    const db = seededDb();
    trainPredictors(db, ['roofline', 'linear']);
    db.prepare(
      'UPDATE predictors SET predictor_json = \'{"name":"linear","version":0}\' WHERE name = \'linear\'',
    ).run();
    const query = { op: 'MatMul', shape: '1x64x64x64', dtype: 'fp32', device: 'cpu' };
    const r = predictOp(db, query);
    expect(r.predictions.map((p) => p.predictor)).toEqual(['roofline']);
    expect(r.warnings.join(' ')).toMatch(/stored linear predictor .* cannot be loaded: .*run pipedejavu train/);
    db.prepare(
      'UPDATE predictors SET predictor_json = \'{"name":"roofline","version":0}\' WHERE name = \'roofline\'',
    ).run();
    expect(() => predictOp(db, query)).toThrow(/cannot be loaded/);
  });

  it('parses shapes in the documented order', () => {
    expect(parseShape('Conv', '1x64x56x56x128x3x3x2x1')).toEqual({
      N: 1,
      C: 64,
      H: 56,
      W: 56,
      K: 128,
      R: 3,
      S: 3,
      stride: 2,
      groups: 1,
    });
  });
});

describe('pipedejavu train / predict', () => {
  it('trains and predicts from the CLI, in tables and JSON', async () => {
    const db = path.join(tempDir(), 'seeded.db');
    seededDb(db).close();
    const t = await cli(['train', '--db', db, '--predictor', 'analytical']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/Trained on 54 measurements from 1 device;/);
    const p = await cli([
      'predict',
      '--db',
      db,
      '--op',
      'Softmax',
      '--shape',
      '256x512',
      '--device',
      'cpu',
      '--threads',
      '16',
      '--json',
    ]);
    expect(p.code).toBe(0);
    const j = JSON.parse(p.stdout) as { predictions: { predictor: string; timeUs: number }[] };
    expect(j.predictions[0]?.predictor).toBe('analytical');
    const missing = await cli(['predict', '--db', db, '--op', 'Softmax']);
    expect(missing.stderr).toBe('pipedejavu: error: predict: --shape is required\n');
    const bad = await cli(['train', '--db', db, '--predictor', 'magic']);
    expect(bad.code).toBe(2);
  });

  it('refuses to train an empty store', async () => {
    const db = path.join(tempDir(), 'empty.db');
    openDatabase(db).close();
    const r = await cli(['train', '--db', db]);
    expect(r.stderr).toBe(
      'pipedejavu: error: only 0 measurements in the store; run `pipedejavu profile --suite quick` first\n',
    );
  });
});
