/** A device whose profile lacks a figure is kept, with what stands in and how to measure it. */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { trainPredictors } from '../../../../src-main/services/predict/predictor-service.js';
import { predictOp } from '../../../../src-main/services/predict/predictor-service.js';
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
