/**
 * The 90% band of predict-model and measure-model's verdict on it (real ORT on the CPU): the band
 * stands on the shipped bench residuals until this device has checks of other models, and each
 * measure-model run is kept as a check of its model, never used for its own band.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { ModelCheckRepo } from '../../../src-main/adapters/store/model-check-repo.js';

const MODEL = 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx';
const args = ['--input', 'x=1x3x48x192', '--device', 'cpu', '--threads', '1'];

interface Band {
  lowUs: number;
  highUs: number;
  n: number;
  from: string;
}

describe('the prediction band', () => {
  it('predict-model prints a 90% band; measure-model says whether the run fell inside and keeps it as a check', async () => {
    const db = path.join(tempDir(), 'b.db');
    seededDb(db).close();
    expect((await cli(['train', '--db', db])).code).toBe(0);
    const text = await cli(['predict-model', MODEL, ...args, '--db', db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^90% band \d+\.\d{3} ms - \d+\.\d{3} ms around \d+\.\d{3} ms as timed from Node \(-\d+%\/\+\d+%; from the prediction bench's \d+ held-out residuals/m,
    );
    const json = await cli(['predict-model', MODEL, ...args, '--db', db, '--json']);
    const p = JSON.parse(json.stdout) as { band90: Band };
    expect(p.band90.from).toBe('shipped');
    expect(p.band90.lowUs).toBeLessThan(p.band90.highUs);

    const m = await cli(['measure-model', MODEL, ...args, '--db', db, '--json']);
    expect(m.code).toBe(0);
    const measured = JSON.parse(m.stdout) as {
      medianMs: number;
      band: { lowMs: number; highMs: number; inside: boolean };
    };
    expect(measured.band.inside).toBe(
      measured.medianMs >= measured.band.lowMs && measured.medianMs <= measured.band.highMs,
    );
    const store = openDatabase(db);
    try {
      const checks = new ModelCheckRepo(store).residuals(
        (store.prepare('SELECT id FROM machines LIMIT 1').get() as { id: string }).id,
        'cpu',
      );
      expect(checks).toHaveLength(1);
      expect(checks[0]?.threads).toBe(1);
    } finally {
      store.close();
    }
    // Its own check never narrows its own band: the band is the same after it.
    const again = JSON.parse((await cli(['predict-model', MODEL, ...args, '--db', db, '--json'])).stdout) as {
      band90: Band;
    };
    expect(again.band90.from).toBe('shipped');
    expect(again.band90.n).toBe(p.band90.n);
    const text2 = await cli(['measure-model', MODEL, ...args, '--db', db]);
    expect(text2.stdout).toMatch(/the measured \d+\.\d{3} ms is (inside|OUTSIDE) the prediction's 90% band/);
  });

  it("plan gives each plan's step a band: the datasheet band on a datasheet GPU, the CPU's 90% band on a profiled CPU", async () => {
    const db = path.join(tempDir(), 'p.db');
    seededDb(db).close();
    const gpu = JSON.parse(
      (
        await cli([
          ...['plan', '--db', db, '--workload', 'gpt2-small', '--devices', 'none', '--virtual', 'RTX 4090'],
          ...['--mode', 'inference', '--json'],
        ])
      ).stdout,
    ) as {
      plans: { stepUs: number; stages: { timeUs: number }[] }[];
      stepBands: { lowUs: number; highUs: number; stages: { timeUs: number; lowUs: number; highUs: number }[] }[];
    };
    const step = gpu.plans[0]!.stepUs;
    expect(gpu.stepBands[0]!.lowUs / step).toBeCloseTo(0.72, 6);
    expect(gpu.stepBands[0]!.highUs / step).toBeCloseTo(2.6, 6);
    // Each stage has its band too, from its own devices.
    const stage = gpu.stepBands[0]!.stages[0]!;
    expect(stage.timeUs).toBe(gpu.plans[0]!.stages[0]!.timeUs);
    expect(stage.lowUs / stage.timeUs).toBeCloseTo(0.72, 6);
    expect(stage.highUs / stage.timeUs).toBeCloseTo(2.6, 6);
    expect((await cli(['train', '--db', db, '--predictor', 'linear'])).code).toBe(0);
    // A training plan's table has the BAND column (a served decoder's plans are listed by their serving figures).
    const cpu = await cli(['plan', '--db', db, '--workload', 'gpt2-small', '--devices', 'cpu', '--mode', 'training']);
    expect(cpu.code).toBe(0);
    expect(cpu.stdout).toMatch(/BAND: the step's range/);
    expect(cpu.stdout).toMatch(/^1 +single +\S+ \S+ +\S+ \S+ - \S+ \S+/m);
    expect(cpu.stdout).toMatch(
      /^Stage compute per microbatch \(band\): \[0-\d+\] [\d.]+ m?s \([\d.]+ m?s - [\d.]+ m?s\)$/m,
    );
  });
});
