/** Prediction warnings from a profile taken in poor conditions (the seeded CPU store). */
import { describe, expect, it } from 'vitest';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { runConditions, type RunConditions } from '../../../../src-main/core/profiler/run-conditions.js';
import { predictOp } from '../../../../src-main/services/predict/predictor-service.js';
import { planWorkload } from '../../../../src-main/services/plan/plan-service.js';
import {
  conditionsLine,
  conditionsWarning,
  measuredConditionsWarnings,
  ConditionsWatch,
} from '../../../../src-main/services/profile/run-conditions-service.js';
import { predictModel } from '../../../../src-main/services/workload/workload-service.js';
import { createSeededRun, SEEDED_MACHINE } from '../../../helpers/seeded-store.js';
import { trainedStore } from '../service-stores.js';

const busy = runConditions({ othersBefore: 0.1, othersAfter: 1.2, stealShare: 0, waitedMs: 20_000 });
const quiet = runConditions({ othersBefore: 0.1, othersAfter: 0.1, stealShare: 0, waitedMs: 0 });
const cpuAt = (threads: number) => ({ machineId: SEEDED_MACHINE, deviceKey: 'cpu', executionProvider: 'cpu', threads });
const WARNING =
  'CPU, 16 threads: profiled while other work kept 1.2 CPUs busy around it, so its predictions may read slow; profile again when the machine is quiet (`pipedejavu profile --device cpu --threads 16`)';

/** A newer finished run of the seeded CPU at `threads`, taken in `conditions`. */
function newerRun(db: Database, threads: number, conditions: RunConditions, minutes = 1): void {
  const repo = new ProfileRepo(db, () => new Date(Date.now() + minutes * 60_000));
  const run = createSeededRun(repo, { threads });
  repo.setRunConditions(run.id, conditions);
  repo.finishRun(run.id, 'complete', null);
}

describe('conditionsWarning', () => {
  it('says nothing for runs without conditions (older profiles, other hosts)', () => {
    const db = trainedStore();
    expect(new ProfileRepo(db).listRuns(SEEDED_MACHINE).every((r) => r.conditions === null)).toBe(true);
    expect(conditionsWarning(db, cpuAt(16))).toEqual([]);
  });

  it('warns about the device whose newest run had poor conditions, at that thread count only', () => {
    const db = trainedStore();
    newerRun(db, 16, busy);
    expect(conditionsWarning(db, cpuAt(16))).toEqual([WARNING]);
    expect(conditionsWarning(db, cpuAt(1))).toEqual([]);
    const stored = new ProfileRepo(db).listRuns(SEEDED_MACHINE)[0];
    expect(stored?.conditions).toEqual(busy);
  });

  it('stops warning once a newer run is taken on a quiet machine', () => {
    const db = trainedStore();
    newerRun(db, 16, busy, 1);
    newerRun(db, 16, quiet, 2);
    expect(conditionsWarning(db, cpuAt(16))).toEqual([]);
  });

  it('reaches predict, predict-model and plan on that device', () => {
    const db = trainedStore();
    newerRun(db, 16, busy);
    const op = predictOp(db, { op: 'matmul', shape: '1x300x300x300', dtype: 'fp32', device: 'cpu', threads: 16 });
    expect(op.warnings.filter((w) => w === WARNING)).toHaveLength(1);
    const model = predictModel(db, 'bert-base', { device: 'cpu', threads: 16, seq: 128 });
    expect(model.warnings.filter((w) => w === WARNING)).toHaveLength(1);
    const one = predictOp(db, { op: 'matmul', shape: '1x300x300x300', dtype: 'fp32', device: 'cpu', threads: 1 });
    expect(one.warnings.some((w) => w.includes('profiled while'))).toBe(false);
    // The planner runs inference on the CPU at 1 thread here: its warning names the machine.
    newerRun(db, 1, busy);
    const plan = planWorkload(db, { workload: 'bert-base', devices: 'cpu', mode: 'inference', batch: 1, seq: 128 });
    expect(plan.warnings.filter((w) => /^lab-ws-01: CPU, 1 thread: profiled while other work/.test(w))).toHaveLength(1);
  });
});

describe('conditions in words', () => {
  it('lists a run as quiet, poor and why, or not read', () => {
    expect(conditionsLine(null)).toBe('not read');
    expect(conditionsLine(quiet)).toBe('quiet');
    expect(conditionsLine(busy)).toBe('poor: other work kept 1.2 CPUs busy around it (waited 20 s for a quiet moment)');
  });

  it('gives measure-model a warning when its own timing ran in poor conditions', () => {
    expect(measuredConditionsWarnings(quiet)).toEqual([]);
    expect(measuredConditionsWarnings(null)).toEqual([]);
    expect(measuredConditionsWarnings(busy)).toEqual([
      'measured while other work kept 1.2 CPUs busy around it: this time may read slow; measure again when the machine is quiet',
    ]);
  });

  it('reads a window each side of a timing', async () => {
    let t = 0;
    const probe = {
      cpuTimes: () => ({ busy: 0, steal: 0, total: t, cpus: 2 }),
      sleep: async (ms: number) => {
        t += 2 * ms;
      },
    };
    const watch = await ConditionsWatch.start(probe);
    expect(await watch?.finish()).toEqual({
      othersBefore: 0,
      othersAfter: 0,
      stealShare: null,
      waitedMs: 0,
      poor: null,
    });
  });
});
