/** Datasheet GPUs against measured ones: an imported two-GPU machine whose GPUs are in the catalog. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { estimateError } from '../../../../src-main/core/planner/cost/datasheet-check.js';
import { encodeProfile } from '../../../../src-main/core/profile-file/codec.js';
import { datasheetCheckLine, datasheetChecks } from '../../../../src-main/services/predict/datasheet-check-service.js';
import { planWorkload } from '../../../../src-main/services/plan/plan-service.js';
import { trainPredictors } from '../../../../src-main/services/predict/predictor-service.js';
import { importProfile } from '../../../../src-main/services/exchange/profile-import.js';
import { GPU_BOX, gpuServerProfile } from '../../../helpers/gpu-profile.js';
import { seedStore } from '../../../helpers/seeded-store.js';

function storeWithGpuBox(): Database {
  const db = openDatabase(':memory:');
  seedStore(db);
  importProfile(db, encodeProfile(gpuServerProfile()), 'gpu-box.json');
  trainPredictors(db, ['roofline', 'linear']);
  return db;
}

describe('estimateError', () => {
  it('gives the mean absolute percentage error overall and per family, and the median ratio', () => {
    const e = estimateError([
      { family: 'gemm', measuredUs: 100, predictedUs: 110 },
      { family: 'gemm', measuredUs: 100, predictedUs: 70 },
      { family: 'elementwise', measuredUs: 10, predictedUs: 20 },
      { family: 'elementwise', measuredUs: 0, predictedUs: 20 },
    ]);
    expect(e.kernels).toBe(3);
    expect(e.mape).toBeCloseTo((0.1 + 0.3 + 1) / 3);
    expect(e.families).toEqual([
      { family: 'elementwise', kernels: 1, mape: 1, medianRatio: 2 },
      { family: 'gemm', kernels: 2, mape: expect.closeTo(0.2) as number, medianRatio: expect.closeTo(0.9) as number },
    ]);
  });
});

describe('datasheetChecks', () => {
  it('compares each measured GPU with a datasheet against its virtual device, per op family', () => {
    const db = storeWithGpuBox();
    const checks = datasheetChecks(db);
    expect(checks.map((c) => [c.datasheet, c.measured.machine, c.measured.deviceKey])).toEqual([
      ['NVIDIA GeForce RTX 4080 SUPER', GPU_BOX, 'cuda:0'],
      ['NVIDIA GeForce RTX 2080 SUPER', GPU_BOX, 'cuda:1'],
    ]);
    for (const c of checks) {
      expect(c.kernels).toBeGreaterThan(0);
      expect(c.families.map((f) => f.family)).toEqual(['elementwise', 'gemm', 'softmax']);
      expect(Number.isFinite(c.mape)).toBe(true);
    }
    expect(datasheetChecks(db, 'RTX 2080 SUPER').map((c) => c.measured.deviceKey)).toEqual(['cuda:1']);
    expect(datasheetChecks(db, 'H100 SXM')).toEqual([]);
  });

  it('says it next to the plan’s datasheet devices, or that none was measured', () => {
    const db = storeWithGpuBox();
    expect(datasheetCheckLine(db, 'RTX 4080 SUPER')).toMatch(
      /^NVIDIA GeForce RTX 4080 SUPER: the datasheet estimate is off by \d+% on average against gpu-box\/cuda:0 \(cuda, \d+ kernels: elementwise \d+%, gemm \d+%, softmax \d+%\)$/,
    );
    expect(datasheetCheckLine(db, 'H100 SXM')).toMatch(
      /^NVIDIA H100 SXM5 80GB: not yet checked against a measured one/,
    );
    const plan = planWorkload(db, {
      workload: 'bert-base',
      devices: 'cpu',
      mode: 'inference',
      batch: 8,
      seq: 128,
      virtual: ['RTX 4080 SUPER', 'H100 SXM'],
    });
    expect(plan.warnings.filter((w) => /is from its datasheet, not measured/.test(w))).toEqual([
      expect.stringMatching(/RTX 4080 SUPER.*datasheet estimate is off by \d+%/),
      expect.stringMatching(/H100.*not yet checked against a measured one/),
    ]);
  });
});
