/** A device whose profile lacks a figure is kept, with what stands in and how to measure it. */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { trainPredictors } from '../../../../src-main/services/predict/predictor-service.js';
import { predictOp, workloadPredictor } from '../../../../src-main/services/predict/predictor-service.js';
import type { Sample } from '../../../../src-main/core/predictor/types.js';
import { loadTrainingData } from '../../../../src-main/services/predict/training-data.js';
import { pickDevice } from '../../../../src-main/services/workload/workload-service.js';
import { seededDb } from '../../../helpers/seeded-store.js';

/** The seeded store with the 16-thread CPU's large memory-bound kernels gone: no bandwidth measured there. */
function noBandwidthAt16(): Database {
  const db = seededDb();
  db.prepare(
    `DELETE FROM measurements WHERE threads = 16 AND bytes >= ? AND family IN ('elementwise', 'datamove', 'reduction', 'softmax', 'layernorm')`,
  ).run(32 * 2 ** 20);
  return db;
}

describe('a device without a measured bandwidth', () => {
  it('stays in the training data, with a stated fallback and the command that measures it', () => {
    const db = noBandwidthAt16();
    const at16 = loadTrainingData(db).devices.find((d) => d.threads === 16);
    expect(at16).toBeDefined();
    expect(at16?.features.bandwidthGBps).toBeGreaterThan(0);
    expect(at16?.warnings).toEqual([
      expect.stringMatching(
        /^cpu \(16 threads\): memory bandwidth not measured .* using [\d.]+ GB\/s from smaller kernels, likely too high; `pipedejavu profile --device cpu --threads 16` measures it \(profiles resume\)$/,
      ),
    ]);
    expect(loadTrainingData(db).devices.find((d) => d.threads === 1)?.warnings).toEqual([]);
  });

  it('is predicted on, with the warning, instead of "never profiled"; and stays the default thread count', () => {
    const db = noBandwidthAt16();
    trainPredictors(db, ['roofline']);
    expect(pickDevice(db, 'cpu').threads).toBe(16);
    const p = predictOp(db, { op: 'MatMul', shape: '1x64x64x64', dtype: 'fp32', device: 'cpu', threads: 16 });
    expect(p.device).toMatch(/\/cpu\/cpu\/16t$/);
    expect(p.warnings.join(' ')).toMatch(/memory bandwidth not measured/);
  });
});

describe('a kernel its profile kept noisy', () => {
  it('is marked noisy in the training data, and no elementwise prediction is read off it', () => {
    const clean = seededDb();
    trainPredictors(clean, ['roofline']);
    const noisy = seededDb();
    // One size of the Add series in a slow mode 100x its neighbours, with the spread that says so.
    noisy
      .prepare(
        `UPDATE measurements SET median_us = median_us * 100, cv = 0.9 WHERE op = 'Add' AND shape_key = 'n=262144' AND threads = 1`,
      )
      .run();
    trainPredictors(noisy, ['roofline']);
    const marked = loadTrainingData(noisy).samples.filter((s) => s.noisy);
    expect(marked.map((s) => [s.op, s.shape['n'], s.device.threads])).toEqual([['Add', 262144, 1]]);
    // Add over 200,000 elements, between the measured 147,456 and 262,144: read off the series.
    const at = (db: Database): number => {
      const from = loadTrainingData(db).samples.find(
        (s) => s.op === 'Add' && s.shape['n'] === 147456 && s.device.threads === 1,
      ) as Sample;
      const k = 200000 / 147456;
      const q = { ...from, shape: { ...from.shape, n: 200000 }, flops: from.flops * k, bytes: from.bytes * k };
      return workloadPredictor(db, 'roofline').predictor.predict([q])[0]?.timeUs as number;
    };
    const want = at(clean);
    const got = at(noisy);
    expect(Math.abs(got / want - 1)).toBeLessThan(0.1);
  });
});
