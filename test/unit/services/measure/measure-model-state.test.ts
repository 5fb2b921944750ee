/**
 * measure-model times the profile's calibration model before and after the model (real ORT for
 * the model): a check taken off the profiled speed is kept but not used for the bands.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../../src-main/adapters/ort/kernel-runner.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { ModelCheckRepo } from '../../../../src-main/adapters/store/model-check-repo.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { measureModel } from '../../../../src-main/services/measure/measure-model-service.js';
import { runnerStateTimer, type StateTimer } from '../../../../src-main/services/measure/machine-state-probe.js';
import { trainPredictors } from '../../../../src-main/services/predict/predictor-service.js';
import { createSeededRun, seededDb, SEEDED_MACHINE } from '../../../helpers/seeded-store.js';

const cls = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');
const inputs = { x: [1, 3, 48, 192] };

/** A store whose newest 1-thread CPU profile timed `resnet-blocks` in `endToEndUs`, rounds' spread ±10%. */
function profiledDb(endToEndUs: number): Database {
  const db = seededDb();
  trainPredictors(db, ['roofline']);
  const repo = new ProfileRepo(db);
  const run = createSeededRun(repo, { threads: 1 });
  repo.finishRun(run.id, 'complete', {
    calibration: [
      { model: 'resnet-blocks', endToEndUs, nodes: [] },
      { model: 'encoder-layer', endToEndUs: endToEndUs * 2, nodes: [] },
    ],
    retimed: { threshold: 0.1, drift: [0], kernels: 300, timings: 0, retimed: [] },
  });
  return db;
}

/** A timer that reads `us` for every call, and counts the calls and the models asked for. */
function fakeTimer(us: number): StateTimer & { asked: string[] } {
  const asked: string[] = [];
  return Object.assign(
    async (model: string) => {
      asked.push(model);
      return us;
    },
    { asked },
  );
}

const residuals = (db: Database): number => new ModelCheckRepo(db).residuals(SEEDED_MACHINE, 'cpu').length;
const OFF =
  /^the machine ran x\d+\.\d slower than when it was profiled .*: this measurement is kept but not used as a check of the predictions$/;

describe('measure-model and the machine’s state', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  it('keeps the check for the bands when the calibration model runs at its profiled speed', async () => {
    const db = profiledDb(700);
    const timer = fakeTimer(720);
    const m = await measureModel(db, runner, cls, { inputs, device: 'cpu', threads: 1, machineState: timer });
    // The cheapest calibration model, before and after.
    expect(timer.asked).toEqual(['resnet-blocks', 'resnet-blocks']);
    expect(m.machineState).toMatchObject({ beforeUs: 720, afterUs: 720, referenceUs: 700, off: false });
    expect(m.warnings.some((w) => w.startsWith('the machine ran'))).toBe(false);
    expect(m.band?.check).toBe(true);
    expect(residuals(db)).toBe(1);
  });

  it('says so in one line and keeps the check out of the bands when the machine ran off its profiled speed', async () => {
    const db = profiledDb(700);
    const m = await measureModel(db, runner, cls, {
      inputs,
      device: 'cpu',
      threads: 1,
      machineState: fakeTimer(1330),
    });
    expect(m.machineState).toMatchObject({ ratio: 1.9, off: true });
    expect(m.warnings.filter((w) => OFF.test(w))).toHaveLength(1);
    expect(m.warnings.find((w) => OFF.test(w))).toContain('x1.9 slower');
    expect(m.band?.check).toBe(false);
    expect(residuals(db)).toBe(0);
    // Kept, with the state it was measured in.
    expect(db.prepare('SELECT machine_ratio, off_speed FROM model_checks').get()).toEqual({
      machine_ratio: 1.9,
      off_speed: 1,
    });
  });

  it('times nothing for a device whose profile has no calibration models', async () => {
    const db = seededDb();
    const timer = fakeTimer(1);
    const m = await measureModel(db, runner, cls, { inputs, device: 'cpu', threads: 1, machineState: timer });
    expect(timer.asked).toEqual([]);
    expect(m.machineState).toBeNull();
  });

  it('the real probe runs the calibration model on ONNX Runtime (a stored time far below any real one reads as off)', async () => {
    const db = profiledDb(1);
    const m = await measureModel(db, runner, cls, {
      inputs,
      device: 'cpu',
      threads: 1,
      machineState: runnerStateTimer(runner),
    });
    expect(m.machineState?.beforeUs).toBeGreaterThan(1);
    expect(m.machineState?.afterUs).toBeGreaterThan(1);
    expect(m.machineState?.off).toBe(true);
    expect(residuals(db)).toBe(0);
  });
});
