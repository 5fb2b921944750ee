/** The calibration models at the end of a profile: real ORT sessions, rounds interleaved, the fastest kept. */
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../../src-main/adapters/ort/kernel-runner.js';
import type { ModelJob, ModelOutcome } from '../../../../src-main/adapters/ort/protocol.js';
import { calibrationModels } from '../../../../src-main/core/profiler/calibration-models.js';
import { summarize } from '../../../../src-main/core/profiler/timing-stats.js';
import {
  DeviceCalibration,
  slowRoundNote,
  type CalibratingRunner,
} from '../../../../src-main/services/profile/calibration-service.js';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';

const ep = { name: 'cpu', threads: 1 } as const;
const ROUNDS = 3;
const modelOf = (job: Omit<ModelJob, 'id' | 'traceDir'>): string => /([^/\\]+)\.onnx$/.exec(job.modelPath)?.[1] ?? '';

/** Every model prepared, then ROUNDS rounds back to back. */
async function calibrate(runner: CalibratingRunner): Promise<ReturnType<DeviceCalibration['result']>> {
  const calibration = await DeviceCalibration.prepare(openDatabase(':memory:'), runner, ep, () => false);
  try {
    for (let round = 0; round < ROUNDS; round++) await calibration.round();
    return calibration.result(null);
  } finally {
    calibration.dispose();
  }
}

describe('DeviceCalibration (real ORT)', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  it('times every model in interleaved rounds and keeps each one’s fastest session', async () => {
    const order: string[] = [];
    const first = new Map<string, Extract<ModelOutcome, { ok: true }>>();
    // Round 1 runs for real; later rounds replay it with the end to end scaled: x1.5, then x0.75.
    const scale = [1, 1.5, 0.75];
    const runModel = async (job: Omit<ModelJob, 'id' | 'traceDir'>): Promise<ModelOutcome> => {
      const name = modelOf(job);
      const round = order.filter((m) => m === name).length;
      order.push(name);
      if (round === 0) {
        const real = await runner.runModel(job);
        if (real.ok) first.set(name, real);
        return real;
      }
      const base = first.get(name);
      if (!base) throw new Error(`no first round of ${name}`);
      return { ...base, wallUs: base.wallUs.map((v) => v * (scale[round] ?? 1)) };
    };
    const calibrating = { start: () => runner.start(), optimize: runner.optimize.bind(runner), runModel };
    const { runs, notes } = await calibrate(calibrating);
    const names = calibrationModels().map((m) => m.name);
    // Round 2 ran 1.5 / 0.75 times the fastest: said.
    expect(notes).toEqual([expect.stringMatching(/^calibration round 2 of 3 ran 100% slower than the fastest/)]);
    expect(order).toEqual(Array.from({ length: ROUNDS }, () => names).flat());
    expect(runs.map((r) => r.model)).toEqual(names);
    for (const r of runs) {
      // The fastest round (x0.75) is kept, read with the service's own median: no timing bound.
      const real = first.get(r.model)?.wallUs ?? [];
      const median = summarize(real).medianUs;
      expect(r.endToEndUs, r.model).toBeCloseTo(0.75 * median, 6);
      expect(r.nodes.length, r.model).toBeGreaterThan(0);
    }
  });

  it('says which model did not run, once, and keeps the others', async () => {
    const runModel = async (job: Omit<ModelJob, 'id' | 'traceDir'>): Promise<ModelOutcome> =>
      modelOf(job) === calibrationModels()[0]?.name
        ? { id: 0, ok: false, kind: 'out-of-memory', error: 'no memory' }
        : runner.runModel({ ...job, rule: { ...job.rule, budgetMs: 50, minRepetitions: 3 } });
    const calibrating = { start: () => runner.start(), optimize: runner.optimize.bind(runner), runModel };
    const { runs, notes } = await calibrate(calibrating);
    // Real sessions: a busy test machine may also have a slow round to say.
    expect(notes.filter((n) => !n.startsWith('calibration round'))).toEqual([
      `calibration model ${calibrationModels()[0]?.name} did not run: no memory`,
    ]);
    expect(runs).toHaveLength(calibrationModels().length - 1);
  });
});

describe('slowRoundNote', () => {
  it('names the round whose median model ran SLOW_ROUND times its fastest or more', () => {
    const models = [{ endToEndUs: [100, 130, 101] }, { endToEndUs: [50, 61, null] }, { endToEndUs: [10, 10, 10] }];
    expect(slowRoundNote(models, 3)).toBe(
      'calibration round 2 of 3 ran 22% slower than the fastest (the machine was busy then); each calibration model kept its fastest round',
    );
  });

  it('says nothing when the rounds agree, or when a model ran in one round only', () => {
    expect(slowRoundNote([{ endToEndUs: [100, 110, 104] }, { endToEndUs: [50, 55, 50] }], 3)).toBeNull();
    expect(slowRoundNote([{ endToEndUs: [null, 300, null] }], 3)).toBeNull();
    expect(slowRoundNote([], 0)).toBeNull();
  });
});
